// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.util.Hex;

/**
 * Checks the device-integrity files the ProofMode Android app writes beside a proof: a Google SafetyNet
 * attestation ({@code <h>.gst}, a JWS signed RS256 by {@code attest.android.com}). Offline: the signature
 * with the leaf certificate, the chain at the attestation's own time against the trusted roots, the leaf's
 * name, the nonce's binding to this proof's media, the app against a list of accepted apps, and the device
 * verdicts as Google gave them. A Play Integrity token (encrypted to the app's server) is recognised and
 * said to be uncheckable offline. An Android key attestation ({@code <h>.attest.pem}, the attested key's
 * certificate chain) is checked by {@link #keyAttestation}: its chain to Google's attestation roots (bundled,
 * {@link #googleKeyAttestationRoots()}), a revocation list when one is given, its challenge naming this
 * proof's media, the security level, the boot state and the app.
 *
 * <p>Security: revocation is not checked (offline); the chain is judged at the token's {@code timestampMs},
 * which is inside the signed payload, so a genuine old token verifies as what it was then. The texts say
 * only what the token says.
 */
public final class DeviceIntegrityChecks {
    /** Largest token read; the app's are about 8 KiB. */
    static final int MAX_TOKEN_BYTES = 64 * 1024;
    /** Most certificates in a token's {@code x5c}. */
    static final int MAX_CHAIN = 5;
    /** Deepest JSON nesting in a token's header or payload. */
    static final int MAX_JSON_DEPTH = 16;
    /** The name SafetyNet's signing certificate carries. */
    static final String ATTEST_HOST = "attest.android.com";

    /**
     * An app whose attestations are accepted.
     *
     * @param packageName the Android package name
     * @param signingCertSha256 the SHA-256 of its signing certificate, base64 as SafetyNet writes it
     * @param source where the digest was taken from, for the reader
     */
    public record AcceptedApp(String packageName, String signingCertSha256, String source) {
        /** Validates the fields. */
        public AcceptedApp {
            Objects.requireNonNull(packageName, "packageName");
            Objects.requireNonNull(source, "source");
            if (Base64.getDecoder().decode(Objects.requireNonNull(signingCertSha256, "signingCertSha256")).length != 32) {
                throw new IllegalArgumentException("not a base64 SHA-256: " + signingCertSha256);
            }
        }
    }

    /**
     * The ProofMode Android app (Guardian Project). The digest is the one Google attested for the app in
     * the SafetyNet token of the starlinglab-integrity-preprocessor sample bundle ({@code good.zip},
     * 2022-11-30): hex {@code f006a20481c71a690de02e385ab0c9fa4ac1245240f681026827033ba065867a}.
     */
    public static final AcceptedApp PROOFMODE_ANDROID = new AcceptedApp("org.witness.proofmode",
            "8AaiBIHHGmkN4C44WrDJ+krBJFJA9oECaCcDugZWhno=", "Google's SafetyNet attestation of the app, 2022-11-30");

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_JSON_DEPTH)
                    .maxStringLength(MAX_TOKEN_BYTES).build())
            .build());
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd 'at' HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Supplier<List<X509Certificate>> roots;
    private final Supplier<List<X509Certificate>> keyRoots;
    private final AttestationStatus status;
    private final List<AcceptedApp> apps;

    private DeviceIntegrityChecks(Supplier<List<X509Certificate>> roots, Supplier<List<X509Certificate>> keyRoots,
            AttestationStatus status, List<AcceptedApp> apps) {
        this.roots = roots;
        this.keyRoots = keyRoots;
        this.status = Objects.requireNonNull(status, "status");
        this.apps = List.copyOf(apps);
    }

    /**
     * Checks SafetyNet attestations against the system's trust store ({@link TrustRoots#system()}) and key
     * attestations against Google's roots ({@link #googleKeyAttestationRoots()}), and accepts the ProofMode app.
     */
    public static DeviceIntegrityChecks systemDefault() {
        return new DeviceIntegrityChecks(TrustRoots.systemOnce(), DeviceIntegrityChecks::googleKeyAttestationRoots, AttestationStatus.empty(),
                List.of(PROOFMODE_ANDROID));
    }

    /**
     * Checks both kinds of attestation against these roots only (pinned) and accepts these apps.
     *
     * @param roots the root certificates a SafetyNet or key attestation chain must end at
     * @param apps the apps whose attestations are accepted
     */
    public static DeviceIntegrityChecks of(List<X509Certificate> roots, List<AcceptedApp> apps) {
        List<X509Certificate> copy = List.copyOf(roots);
        return new DeviceIntegrityChecks(() -> copy, () -> copy, AttestationStatus.empty(), apps);
    }

    /**
     * A copy that takes key attestation certificates listed in {@code status} for revoked.
     *
     * @param status Google's attestation status list, saved
     */
    public DeviceIntegrityChecks withAttestationStatus(AttestationStatus status) {
        return new DeviceIntegrityChecks(roots, keyRoots, status, apps);
    }

    /**
     * Google's hardware attestation roots, bundled with this software (their source and date are in the
     * README beside them, {@code org/proofmode/verify/README.md}).
     */
    public static List<X509Certificate> googleKeyAttestationRoots() {
        return GoogleRoots.ROOTS;
    }

    /** Google's roots, read from the jar once, on first use. */
    private static final class GoogleRoots {
        static final List<X509Certificate> ROOTS = KeyAttestationChecks.googleRoots();
    }

    /**
     * Checks one {@code .attest.pem} file, an Android key attestation chain (PEM, leaf first). Never throws on
     * bad input: each defect is a check.
     *
     * @param name the file's name in the bundle
     * @param bytes its bytes
     * @param mediaSha256 the media hash the proof names, if any
     * @return one check on the attestation, and warnings for software keys, an unverified boot or an unknown app
     */
    public List<Check> keyAttestation(String name, byte[] bytes, Optional<String> mediaSha256) {
        return KeyAttestationChecks.check(name, bytes, mediaSha256, keyRoots.get(), status, apps);
    }

    /** The apps whose attestations are accepted. */
    public List<AcceptedApp> acceptedApps() {
        return apps;
    }

    /**
     * Checks one {@code .gst} file. Never throws on bad input: each defect is a check.
     *
     * @param name the file's name in the bundle
     * @param bytes its bytes
     * @param mediaSha256 the media hash the proof names, if any
     * @return one check on the token, and warnings for an unknown app or a failed device
     */
    public List<Check> safetyNet(String name, byte[] bytes, Optional<String> mediaSha256) {
        if (bytes.length > MAX_TOKEN_BYTES) {
            return List.of(fail(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED, name, "larger than " + MAX_TOKEN_BYTES
                    + " bytes: not a SafetyNet attestation"));
        }
        String text = new String(bytes, StandardCharsets.US_ASCII).strip();
        String[] parts = text.split("\\.", -1);
        if (parts.length == 5) {
            return List.of(new Check(CheckCodes.INTEGRITY_PLAY_UNVERIFIABLE, Status.INFO, name,
                    "an encrypted Play Integrity token: only Google or the app's server can decrypt and check it, not an offline verifier"));
        }
        SafetyNetToken t;
        try {
            t = SafetyNetToken.parse(parts, JSON);
        } catch (IllegalArgumentException | IOException | GeneralSecurityException e) {
            return List.of(fail(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED, name, "not a readable SafetyNet attestation ("
                    + SafetyNetToken.clip(e.getMessage()) + ")"));
        }
        if (!signatureValid(t)) {
            return List.of(fail(CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID, name,
                    "the signature does not verify with the attestation's certificate: the token was changed or forged"));
        }
        Optional<String> chainProblem = IntegrityChains.problem(t.chain(), roots.get(), t.time(), ATTEST_HOST);
        if (chainProblem.isPresent()) {
            return List.of(fail(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID, name, chainProblem.get()));
        }
        Optional<String> named = nonceHash(t.nonce());
        if (mediaSha256.isEmpty() || named.isEmpty() || !named.get().equalsIgnoreCase(mediaSha256.get())) {
            return List.of(fail(CheckCodes.INTEGRITY_SAFETYNET_NONCE_MISMATCH, name, mediaSha256.isEmpty()
                    ? "the proof names no media hash for the attestation's nonce to be compared with"
                    : named.isEmpty() ? "the attestation's nonce names no media hash: it is not bound to this proof"
                    : "the attestation's nonce names media " + named.get() + ", not this proof's " + mediaSha256.get()));
        }
        return results(name, t);
    }

    private List<Check> results(String name, SafetyNetToken t) {
        List<Check> out = new ArrayList<>();
        boolean known = apps.stream().anyMatch(a -> a.packageName().equals(t.packageName())
                && t.certDigests().contains(a.signingCertSha256()));
        boolean device = t.ctsProfileMatch() && t.basicIntegrity();
        String app = known ? "the ProofMode app (" + t.packageName() + ", signed with its publisher's key)"
                : "an app named " + t.packageName() + " (signed with a key the verifier does not accept)";
        String facts = "ctsProfileMatch " + t.ctsProfileMatch() + ", basicIntegrity " + t.basicIntegrity()
                + ", evaluation " + t.evaluationType();
        out.add(new Check(CheckCodes.INTEGRITY_SAFETYNET_VALID, Status.PASS, name, "Google attested on "
                + WHEN.format(t.time()) + " that " + app + " on a device "
                + (device ? "passing" : "failing") + " Google's integrity checks (" + facts + ") requested this attestation for this media"
                + " (Google SafetyNet, since replaced by Play Integrity: this speaks for that time)"));
        if (!known) {
            out.add(new Check(CheckCodes.INTEGRITY_SAFETYNET_APP_UNKNOWN, Status.WARN, name, "the attested app is "
                    + t.packageName() + " with signing certificates " + String.join(", ", t.certDigests())
                    + ": not one the verifier accepts"));
        }
        if (!device) {
            out.add(new Check(CheckCodes.INTEGRITY_SAFETYNET_DEVICE_FAILED, Status.WARN, name,
                    "Google found the device failing its integrity checks (" + facts + ")"));
        }
        return out;
    }

    private static boolean signatureValid(SafetyNetToken t) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(t.chain().get(0).getPublicKey());
            s.update(t.signedPart());
            return s.verify(t.signature());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * The media hash a nonce names: the app writes random bytes, then the hash in hex; raw hash bytes at
     * the end are read too.
     */
    static Optional<String> nonceHash(byte[] nonce) {
        if (nonce.length >= 64) {
            String tail = new String(nonce, nonce.length - 64, 64, StandardCharsets.ISO_8859_1);
            if (Hex.isSha256(tail.toLowerCase(Locale.ROOT))) {
                return Optional.of(tail.toLowerCase(Locale.ROOT));
            }
        }
        if (nonce.length == 32) {
            return Optional.of(HexFormat.of().formatHex(nonce));
        }
        return Optional.empty();
    }

    private static Check fail(String code, String name, String message) {
        return new Check(code, Status.FAIL, name, message);
    }
}
