// SPDX-License-Identifier: Apache-2.0
/**
 * The encrypted store's cryptography, in the age format (age-encryption.org/v1) that the standard
 * {@code age} tool reads: objects sealed to the store's X25519 recipient and opened with its identity
 * (jagged), the identity itself kept in an age file sealed with the passphrase (the scrypt recipient
 * stanza, {@link org.proofmode.vault.ScryptStanza}, written here on Bouncy Castle because jagged's
 * scrypt module is not published), and the identity's text form ({@link org.proofmode.vault.StoreIdentity}).
 * It imports nothing of the project but the failure model, so that the proof store can use it.
 */
package org.proofmode.vault;
