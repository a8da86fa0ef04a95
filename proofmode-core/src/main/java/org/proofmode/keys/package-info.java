// SPDX-License-Identifier: Apache-2.0
/**
 * The device key store in {@code <home>/keys}: creating, unlocking, rotating, importing and
 * protecting the OpenPGP signing key, which is always encrypted on disk; passphrases held as
 * characters and cleared after use; parsing of OpenPGP keys from files.
 */
package org.proofmode.keys;
