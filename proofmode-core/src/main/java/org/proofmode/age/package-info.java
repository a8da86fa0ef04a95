// SPDX-License-Identifier: Apache-2.0
/**
 * The age format ({@code age-encryption.org/v1}, on jagged), for what leaves the machine and what stays on
 * it. Share bundles encrypted for one reader, for channels that are not trusted: X25519 recipients
 * {@code age1…} and identities {@code AGE-SECRET-KEY-1…} ({@link org.proofmode.age.Age}) or OpenPGP public
 * keys (PGPainless; {@link org.proofmode.age.OpenPgpRecipients}); what a writer encrypts with is one
 * {@link org.proofmode.age.ShareEncryption}. The encrypted store: objects sealed to the store's recipient
 * and opened as streams ({@link org.proofmode.age.AgeObjects}, which {@code Age} writes through too), the
 * store's identity and its passphrase-sealed file ({@link org.proofmode.age.StoreIdentity}) with the scrypt
 * recipient stanza written here on Bouncy Castle because jagged's scrypt module is not published
 * ({@link org.proofmode.age.ScryptStanza}), and the X25519 stanza written on Bouncy Castle's X25519, three
 * times cheaper than the JDK's for a store that seals every proof file as its own object (read with
 * jagged's reader). Everything streams: memory stays flat whatever the size. It
 * imports only the failure model, so the proof store and the bundle writer can use it.
 */
package org.proofmode.age;
