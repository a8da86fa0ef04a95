// SPDX-License-Identifier: Apache-2.0
/**
 * One-pass detached OpenPGP signing: the SHA-256 of a document is computed once while it is read, and
 * signatures are finished from that hash state, so that a large video is read a single time for its
 * hash and its signature.
 */
package org.proofmode.sign;
