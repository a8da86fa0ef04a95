// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.proofmode.util.CertificatePaths;

/**
 * Checks an Android key attestation beside a proof ({@code <h>.attest.pem}: the attested key's certificate
 * chain, PEM, leaf first): the chain to Google's attestation roots, the revocation list when one is given,
 * the {@link KeyDescription} in the leaf, its challenge naming this proof's media, the security level, the
 * boot state and the requesting app. Never throws on bad input: each defect is a check.
 *
 * <p>Security: the attestation carries no time the hardware vouches for, so the chain is judged at the
 * moment its newest certificate became valid (when the whole chain first held); a leaked attestation key
 * is caught only by the revocation list. What the attestation shows is that secure hardware made a key
 * for this media at this app's request on a device in the stated boot state; it does not show that the
 * key signed the proof (the app deletes it), nor when the photo was taken.
 */
final class KeyAttestationChecks {
    /** Largest chain file read; the app's are 3 to 5 certificates, under 8 KiB. */
    static final int MAX_FILE_BYTES = 64 * 1024;
    /** Most certificates in a chain. */
    static final int MAX_CHAIN = 8;
    /** The bundled roots: Google's hardware attestation roots. */
    static final String ROOTS_RESOURCE = "google-key-attestation-roots.pem";

    private KeyAttestationChecks() {
    }

    /** Google's key attestation roots as bundled (see the README beside them). */
    static List<X509Certificate> googleRoots() {
        try (InputStream in = KeyAttestationChecks.class.getResourceAsStream(ROOTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(ROOTS_RESOURCE + " is missing from the build");
            }
            return certificates(in.readAllBytes());
        } catch (IOException | CertificateException e) {
            throw new IllegalStateException(ROOTS_RESOURCE + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Checks one chain file.
     *
     * @param roots the roots the chain must lead to
     * @param status the revoked and suspended certificates
     * @param apps the apps whose attestations are accepted
     */
    static List<Check> check(String name, byte[] bytes, Optional<String> mediaSha256, List<X509Certificate> roots,
            AttestationStatus status, List<DeviceIntegrityChecks.AcceptedApp> apps) {
        if (bytes.length > MAX_FILE_BYTES) {
            return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED, name, "larger than " + MAX_FILE_BYTES
                    + " bytes: not a key attestation chain"));
        }
        List<X509Certificate> chain;
        KeyDescription kd;
        try {
            chain = certificates(bytes);
            if (chain.isEmpty() || chain.size() > MAX_CHAIN) {
                throw new IllegalArgumentException(chain.size() + " certificates, not 1 to " + MAX_CHAIN);
            }
            kd = KeyDescription.of(chain.get(0)).orElseThrow(() -> new IllegalArgumentException(
                    "the first certificate carries no key attestation (extension " + KeyDescription.OID + ")"));
        } catch (CertificateException | IllegalArgumentException e) {
            return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED, name, "not a readable key attestation chain ("
                    + SafetyNetToken.clip(String.valueOf(e.getMessage())) + ")"));
        }
        Instant at = chainTime(chain);
        if (roots.isEmpty()) {
            return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID, name, "no trusted roots to check the chain against"));
        }
        try {
            CertificatePaths.requirePathToKeys(chain.get(0), chain, roots, at, OptionalInt.of(MAX_CHAIN));
        } catch (GeneralSecurityException e) {
            return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID, name, "the certificate chain does not lead to"
                    + " Google's attestation root at " + at + ", when its newest certificate became valid ("
                    + SafetyNetToken.clip(e.getMessage()) + "): this key attestation is not Google-rooted"));
        }
        for (X509Certificate c : chain) {
            Optional<String> s = status.of(c.getSerialNumber());
            if (s.isPresent()) {
                return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_REVOKED, name, "certificate " + c.getSerialNumber().toString(16)
                        + " of the chain is " + s.get() + " in Google's attestation status list: its attestations are not to be trusted"));
            }
        }
        Optional<String> named = DeviceIntegrityChecks.nonceHash(kd.challenge());
        if (mediaSha256.isEmpty() || named.isEmpty() || !named.get().equalsIgnoreCase(mediaSha256.get())) {
            return List.of(fail(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH, name, mediaSha256.isEmpty()
                    ? "the proof names no media hash for the attestation's challenge to be compared with"
                    : named.isEmpty() ? "the attestation's challenge names no media hash: it is not bound to this proof"
                    : "the attestation's challenge names media " + named.get() + ", not this proof's " + mediaSha256.get()));
        }
        return KeyAttestationWords.results(name, kd, at, apps);
    }

    /** The moment the newest certificate of the chain (roots aside) became valid. */
    static Instant chainTime(List<X509Certificate> chain) {
        return chain.stream().filter(c -> !c.getSubjectX500Principal().equals(c.getIssuerX500Principal()))
                .map(c -> c.getNotBefore().toInstant()).max(Comparator.naturalOrder())
                .orElse(chain.get(0).getNotBefore().toInstant());
    }

    private static List<X509Certificate> certificates(byte[] bytes) throws CertificateException {
        List<X509Certificate> out = new ArrayList<>();
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
            out.add((X509Certificate) c);
            if (out.size() > MAX_CHAIN) {
                break;
            }
        }
        return out;
    }

    private static Check fail(String code, String name, String message) {
        return new Check(code, Status.FAIL, name, message);
    }
}
