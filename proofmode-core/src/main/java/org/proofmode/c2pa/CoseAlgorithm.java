// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.Optional;

/** The COSE signature algorithms C2PA allows, by their COSE identifier. */
public enum CoseAlgorithm {
    /** ECDSA P-256 with SHA-256. */
    ES256(-7, "SHA256withECDSA", 32),
    /** ECDSA P-384 with SHA-384. */
    ES384(-35, "SHA384withECDSA", 48),
    /** ECDSA P-521 with SHA-512. */
    ES512(-36, "SHA512withECDSA", 66),
    /** RSASSA-PSS with SHA-256. */
    PS256(-37, "SHA256withRSAandMGF1", 0),
    /** RSASSA-PSS with SHA-384. */
    PS384(-38, "SHA384withRSAandMGF1", 0),
    /** RSASSA-PSS with SHA-512. */
    PS512(-39, "SHA512withRSAandMGF1", 0),
    /** Ed25519. */
    ED25519(-8, "Ed25519", 0);

    private final int id;
    private final String jca;
    private final int ecCoordinateBytes;

    CoseAlgorithm(int id, String jca, int ecCoordinateBytes) {
        this.id = id;
        this.jca = jca;
        this.ecCoordinateBytes = ecCoordinateBytes;
    }

    /** The COSE identifier. */
    public int id() {
        return id;
    }

    /** The JCA signature name (Bouncy Castle's for PSS). */
    String jcaName() {
        return jca;
    }

    /** For ECDSA, the length of r and of s in the raw signature; 0 otherwise. */
    int ecCoordinateBytes() {
        return ecCoordinateBytes;
    }

    /** The algorithm with this COSE identifier. */
    public static Optional<CoseAlgorithm> of(long id) {
        for (CoseAlgorithm a : values()) {
            if (a.id == id) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
