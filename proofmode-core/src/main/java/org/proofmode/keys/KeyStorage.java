// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

/**
 * How a proof says where its signing key was held ({@code Proof.KeyStorage}): {@code file} for a
 * passphrase-protected key file in the home, {@code pkcs11: MAKER MODEL} for a key inside a PKCS#11
 * token (an HSM, a TPM through {@code tpm2-pkcs11}, a smart card or security key, or SoftHSM, the maker
 * and model as the token names itself). It is the signer's own statement, signed with the proof.
 */
public final class KeyStorage {
    /** A key file in the home, encrypted with a passphrase. */
    public static final String FILE = "file";
    /** The prefix of keys held in a PKCS#11 token. */
    public static final String PKCS11_PREFIX = "pkcs11: ";

    private KeyStorage() {}

    /** The value for a key in a token of this maker and model. */
    public static String pkcs11(String device) {
        return PKCS11_PREFIX + device;
    }
}
