// SPDX-License-Identifier: Apache-2.0
/**
 * The device key store in {@code <home>/keys}: creating, unlocking, rotating, importing and
 * protecting the OpenPGP signing key, which is always encrypted on disk or held inside a PKCS#11 token
 * (an HSM, a TPM, a smart card) that signs for it; passphrases and PINs held as characters and cleared
 * after use; parsing of OpenPGP keys from files.
 */
package org.proofmode.keys;
