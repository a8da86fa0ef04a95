// SPDX-License-Identifier: Apache-2.0
/**
 * Share bundles encrypted for one reader, for channels that are not trusted: age
 * ({@code age-encryption.org/v1}, X25519 recipients {@code age1…} and identities {@code AGE-SECRET-KEY-1…},
 * on jagged; {@link org.proofmode.age.Age}) and OpenPGP public keys (PGPainless; {@link
 * org.proofmode.age.OpenPgpRecipients}). Both stream: memory stays flat whatever the bundle's size. What a
 * writer encrypts with is one {@link org.proofmode.age.ShareEncryption}. It imports only the failure model.
 */
package org.proofmode.age;
