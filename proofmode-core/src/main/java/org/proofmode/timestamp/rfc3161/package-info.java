// SPDX-License-Identifier: Apache-2.0
/**
 * RFC 3161 time-stamping: the client that asks a time-stamp authority for a token (with a nonce,
 * checked against the answer), the token reader, the token check against the data and the trusted TSA
 * roots.
 */
package org.proofmode.timestamp.rfc3161;
