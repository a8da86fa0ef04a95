// SPDX-License-Identifier: Apache-2.0
/**
 * Transparency-log formats: the Merkle tree of RFC 9162 (leaf and node hashes, inclusion and consistency
 * proofs), C2SP signed notes with Ed25519 verifier keys, C2SP checkpoints, the C2SP tile layout with its
 * entry bundles, and C2SP tlog-proof receipts. What a log server appends and signs, and what a client
 * checks offline, both rest on these. Parsers here read what a stranger sent: sizes are bounded and every
 * field is checked.
 */
package org.proofmode.tlog;
