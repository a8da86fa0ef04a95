// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.verify.SafetyNetTokens.MEDIA;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.bundle.BundleLimits;

class DeviceIntegrityChecksTest {
    private static final DeviceIntegrityChecks SYSTEM = DeviceIntegrityChecks.systemDefault();
    private static final Instant T = Instant.parse("2022-06-01T00:00:00Z");
    private static final SafetyNetTokens.Chain MINE = made("attest.android.com");
    private static final DeviceIntegrityChecks PINNED = DeviceIntegrityChecks.of(List.of(MINE.root()),
            List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID));

    private static SafetyNetTokens.Chain made(String cn) {
        try {
            return SafetyNetTokens.chain(cn, T.minusSeconds(3600), T.plusSeconds(3600));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Check> check(DeviceIntegrityChecks checks, String token, String media) {
        return checks.safetyNet("x.gst", token.getBytes(StandardCharsets.US_ASCII), Optional.of(media));
    }

    private static List<String> codes(List<Check> checks) {
        return checks.stream().map(Check::code).toList();
    }

    @Test
    void safetyNet_valid_appSampleToken() {
        List<Check> r = check(SYSTEM, SafetyNetTokens.sample(), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_VALID);
        assertThat(r.get(0).status()).isEqualTo(Status.PASS);
        assertThat(r.get(0).message()).startsWith("Google attested on 2022-11-30 at 14:50:05 UTC that the ProofMode app")
                .contains("org.witness.proofmode", "passing", "ctsProfileMatch true", "basicIntegrity true",
                        "BASIC,HARDWARE_BACKED", "replaced by Play Integrity");
    }

    @Test
    void safetyNet_signatureInvalid_payloadChanged() throws Exception {
        assertThat(codes(check(SYSTEM, SafetyNetTokens.payloadChanged(), MEDIA)))
                .containsExactly(CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID);
    }

    @Test
    void safetyNet_signatureInvalid_signatureCut() {
        assertThat(codes(check(SYSTEM, SafetyNetTokens.signatureCut(), MEDIA)))
                .containsExactly(CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID);
    }

    @Test
    void safetyNet_chainInvalid_chainSwapped() throws Exception {
        List<Check> r = check(SYSTEM, SafetyNetTokens.chainSwapped(), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID);
        assertThat(r.get(0).status()).isEqualTo(Status.FAIL);
    }

    @Test
    void safetyNet_nonceMismatch_otherMedia() {
        String other = "1".repeat(64);
        List<Check> r = check(SYSTEM, SafetyNetTokens.sample(), other);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_NONCE_MISMATCH);
        assertThat(r.get(0).message()).contains(MEDIA, other);
    }

    @Test
    void safetyNet_nonceMismatch_noMediaHash() {
        assertThat(codes(SYSTEM.safetyNet("x.gst", SafetyNetTokens.sample().getBytes(StandardCharsets.US_ASCII), Optional.empty())))
                .containsExactly(CheckCodes.INTEGRITY_SAFETYNET_NONCE_MISMATCH);
    }

    @Test
    void safetyNet_chainInvalid_pinnedRootsExcludeGoogle() throws Exception {
        assertThat(codes(check(PINNED, SafetyNetTokens.sample(), MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID);
    }

    @Test
    void safetyNet_valid_madeChainPinned() throws Exception {
        String token = MINE.sign(SafetyNetTokens.payload(T, MEDIA, "org.witness.proofmode", true));
        assertThat(codes(check(PINNED, token, MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_VALID);
    }

    @Test
    void safetyNet_chainInvalid_timeOutsideValidity() throws Exception {
        String token = MINE.sign(SafetyNetTokens.payload(T.plusSeconds(7200), MEDIA, "org.witness.proofmode", true));
        assertThat(codes(check(PINNED, token, MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID);
    }

    @Test
    void safetyNet_chainInvalid_leafNotAttestHost() throws Exception {
        SafetyNetTokens.Chain other = made("attest.example.org");
        DeviceIntegrityChecks otherRoots = DeviceIntegrityChecks.of(List.of(other.root()), List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID));
        List<Check> r = check(otherRoots, other.sign(SafetyNetTokens.payload(T, MEDIA, "org.witness.proofmode", true)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID);
        assertThat(r.get(0).message()).contains("attest.example.org");
    }

    @Test
    void safetyNet_appUnknownAndDeviceFailed_warnedAsFound() throws Exception {
        List<Check> r = check(PINNED, MINE.sign(SafetyNetTokens.payload(T, MEDIA, "org.example.repack", false)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_VALID, CheckCodes.INTEGRITY_SAFETYNET_APP_UNKNOWN,
                CheckCodes.INTEGRITY_SAFETYNET_DEVICE_FAILED);
        assertThat(r.get(0).message()).contains("an app named org.example.repack", "failing", "ctsProfileMatch false")
                .doesNotContain("ProofMode app");
        assertThat(r.get(1).status()).isEqualTo(Status.WARN);
        assertThat(r.get(2).status()).isEqualTo(Status.WARN);
    }

    @Test
    void safetyNet_malformed_tokenTenTimesTheSizeBound() {
        String big = "a".repeat(DeviceIntegrityChecks.MAX_TOKEN_BYTES * 10);
        assertThat(codes(check(SYSTEM, big, MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
    }

    @Test
    void safetyNet_malformed_chainTenTimesTheLengthBound() throws Exception {
        String t = SafetyNetTokens.sample();
        ObjectNode h = SafetyNetTokens.json(t, 0);
        var x5c = h.putArray("x5c");
        for (int i = 0; i < DeviceIntegrityChecks.MAX_CHAIN * 10; i++) {
            x5c.add("MA==");
        }
        List<Check> r = check(SYSTEM, SafetyNetTokens.enc(h) + "." + SafetyNetTokens.part(t, 1) + "." + SafetyNetTokens.part(t, 2), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
        assertThat(r.get(0).message()).contains("50 certificates");
    }

    @Test
    void safetyNet_malformed_jsonTenTimesTheDepthBound() {
        int depth = DeviceIntegrityChecks.MAX_JSON_DEPTH * 10;
        String deep = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
        String t = SafetyNetTokens.sample();
        String token = SafetyNetTokens.part(t, 0) + "." + SafetyNetTokens.b64url(deep.getBytes(StandardCharsets.US_ASCII)) + "."
                + SafetyNetTokens.part(t, 2);
        assertThat(codes(check(SYSTEM, token, MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
    }

    @Test
    void safetyNet_malformed_algorithmNone() throws Exception {
        String t = SafetyNetTokens.sample();
        ObjectNode h = SafetyNetTokens.json(t, 0).put("alg", "none");
        List<Check> r = check(SYSTEM, SafetyNetTokens.enc(h) + "." + SafetyNetTokens.part(t, 1) + ".", MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
        assertThat(r.get(0).message()).contains("not RS256");
    }

    @Test
    void safetyNet_malformed_notAToken() {
        assertThat(codes(check(SYSTEM, "hello", MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
        assertThat(codes(check(SYSTEM, "a.b.c", MEDIA))).containsExactly(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED);
    }

    @Test
    void safetyNet_playIntegrityUnverifiable_encryptedToken() {
        List<Check> r = check(SYSTEM, "eyJhbGciOiJBMjU2S1cifQ.a.b.c.d", MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_PLAY_UNVERIFIABLE);
        assertThat(r.get(0).status()).isEqualTo(Status.INFO);
    }

    @Test
    void nonceHash_readsHexTailAndRawHash() {
        byte[] raw = new byte[32];
        raw[0] = 1;
        assertThat(DeviceIntegrityChecks.nonceHash(raw)).contains("01" + "0".repeat(62));
        assertThat(DeviceIntegrityChecks.nonceHash(("xyz" + MEDIA.toUpperCase()).getBytes(StandardCharsets.US_ASCII))).contains(MEDIA);
        assertThat(DeviceIntegrityChecks.nonceHash(Base64.getDecoder().decode("aGVsbG8="))).isEmpty();
    }

    @Test
    void verify_reportsSafetyNetValid_appGoodZip() {
        VerificationReport r = new Verifier(List.of(), BundleLimits.DEFAULT).verify(SafetyNetTokens.GOOD_ZIP, Optional.empty());
        assertThat(r.find(CheckCodes.INTEGRITY_SAFETYNET_VALID).orElseThrow().subject()).endsWith(MEDIA + ".gst");
        assertThat(r.allChecks()).noneMatch(c -> c.code().equals(CheckCodes.BUNDLE_FILE_UNCHECKED) && c.subject().endsWith(".gst"));
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
    }
}
