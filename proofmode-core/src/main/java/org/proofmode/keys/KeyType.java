// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

/** The device key algorithms this tool creates. */
public enum KeyType {
    /** OpenPGP v4 EdDSA (legacy format, algorithm 22) on Ed25519: readable by GnuPG 2.2 and later. */
    ED25519,
    /** OpenPGP v4 RSA with a 4096-bit modulus: the ProofMode Android app's key type. */
    RSA4096
}
