// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

/** The device key algorithms this tool creates, in a file or inside a PKCS#11 token. */
public enum KeyType {
    /**
     * OpenPGP v4 EdDSA (legacy format, algorithm 22) on Ed25519: readable by GnuPG 2.2 and later. Not for
     * tokens: Java's PKCS#11 provider cannot sign with EdDSA.
     */
    ED25519,
    /** OpenPGP v4 RSA with a 4096-bit modulus: the ProofMode Android app's key type. */
    RSA4096,
    /** OpenPGP v4 ECDSA on NIST P-256: the default inside a token, which nearly every token can make. */
    P256,
    /** OpenPGP v4 RSA with a 3072-bit modulus: for tokens without elliptic curves. */
    RSA3072
}
