// SPDX-License-Identifier: Apache-2.0
/**
 * The HTTP API of the server: one handler class per group of endpoints, access by upload token,
 * uploads received and hashed on the way (and decrypted, when encrypted with age to the server's
 * identity: {@link EncryptedUploads}), and {@link Problems}, the one
 * place where failures become problem+json answers; and the web page ({@link WebPage}), in the reader's
 * language ({@link PageLanguage}). docs/http-api.md documents every endpoint.
 */
package org.proofmode.server.http;
