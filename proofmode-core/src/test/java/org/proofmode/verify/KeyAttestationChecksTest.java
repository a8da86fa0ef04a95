// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.proofmode.verify.KeyAttestations.Made;
import org.proofmode.verify.KeyAttestations.Spec;
import org.proofmode.verify.KeyDescription.BootState;
import org.proofmode.verify.KeyDescription.SecurityLevel;

class KeyAttestationChecksTest {
    private static final String MEDIA = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final List<DeviceIntegrityChecks.AcceptedApp> APPS = List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID);

    @TempDir
    Path tmp;

    private static List<Check> check(Made m, String media) {
        return DeviceIntegrityChecks.of(List.of(m.root()), APPS).keyAttestation("x.attest.pem", m.pem(), Optional.of(media));
    }

    static List<String> codes(List<Check> checks) {
        return checks.stream().map(Check::code).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "akita-sdk34-TEE_EC_NONE.pem, TRUSTED_ENVIRONMENT, false, UNVERIFIED, challenge, com.google.wireless.android.security.attestationverifier.collector",
        "blueline-sdk28-SB_RSA_NONE.pem, STRONG_BOX, false, UNVERIFIED, challenge, com.google.wireless.android.security.attestationverifier.collector",
        "caiman-sdk36-TEE_EC_RKP.pem, TRUSTED_ENVIRONMENT, true, VERIFIED, d688d763-6118-4ca6-94b2-e6cd9ed7e4e4, com.google.android.attestation",
        "tegu-sdk36-SB_EC_2026_ROOT.pem, STRONG_BOX, true, VERIFIED, 90578e1d-f5bf-4ccf-a27f-a4f4d89ee21f, com.google.android.attestation",
    })
    void keyAttestation_chainHoldsChallengeOther_googlePublishedDeviceChains(String file, SecurityLevel level, boolean locked,
            BootState boot, String challenge, String pkg) throws Exception {
        byte[] pem = KeyAttestations.sample(file);
        X509Certificate leaf = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(pem));
        KeyDescription kd = KeyDescription.of(leaf).orElseThrow();
        assertThat(kd.attestationSecurityLevel()).isEqualTo(level);
        assertThat(kd.rootOfTrust().orElseThrow().deviceLocked()).isEqualTo(locked);
        assertThat(kd.rootOfTrust().orElseThrow().state()).isEqualTo(boot);
        assertThat(kd.rootOfTrustHardware()).isTrue();
        assertThat(new String(kd.challenge(), StandardCharsets.US_ASCII)).isEqualTo(challenge);
        assertThat(kd.packages()).containsExactly(pkg);

        // Google's bundled roots accept the chain; the challenge ("challenge", a UUID) names no media.
        List<Check> r = DeviceIntegrityChecks.systemDefault().keyAttestation(file, pem, Optional.of(MEDIA));
        assertThat(codes(r)).as(r.toString()).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH);
        assertThat(r.get(0).status()).isEqualTo(Status.FAIL);
        assertThat(r.get(0).message()).contains("names no media hash");
    }

    @Test
    void keyAttestation_chainInvalid_softwareAttestationRoot() {
        List<Check> r = DeviceIntegrityChecks.systemDefault().keyAttestation("m.attest.pem",
                KeyAttestations.sample("marlin-sdk29-TEE_EC_NONE.pem"), Optional.of(MEDIA));
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID);
        assertThat(r.get(0).message()).contains("not Google-rooted");
    }

    @Test
    void keyAttestation_revoked_intermediateListedInStatusFile() throws Exception {
        byte[] pem = KeyAttestations.sample("caiman-sdk36-TEE_EC_RKP.pem");
        List<X509Certificate> chain = new ArrayList<>();
        java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(new java.io.ByteArrayInputStream(pem))
                .forEach(c -> chain.add((X509Certificate) c));
        String serial = chain.get(1).getSerialNumber().toString(16);
        Path status = Files.writeString(tmp.resolve("status.json"), "{\"entries\": {\"" + serial.toUpperCase(java.util.Locale.ROOT)
                + "\": {\"status\": \"REVOKED\", \"reason\": \"KEY_COMPROMISE\"}, \"abcdef1234\": {\"status\": \"SUSPENDED\"}}}");
        List<Check> r = DeviceIntegrityChecks.systemDefault().withAttestationStatus(AttestationStatus.read(status))
                .keyAttestation("c.attest.pem", pem, Optional.of(MEDIA));
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_REVOKED);
        assertThat(r.get(0).message()).contains(serial).contains("REVOKED (KEY_COMPROMISE)");
    }

    @Test
    void keyAttestation_valid_teeLockedVerifiedProofModeApp() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID);
        assertThat(r.get(0).message()).startsWith("A key was made inside the phone's secure hardware (TEE) for this media, on a device"
                + " with a locked bootloader and verified boot, at the request of the ProofMode app (org.witness.proofmode, signed with"
                + " its publisher's key)").contains("It does not show that this key signed the proof");
    }

    @Test
    void keyAttestation_valid_strongBoxNamedAsSeparateChip() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA).level(SecurityLevel.STRONG_BOX)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID);
        assertThat(r.get(0).message()).startsWith("A key was made inside the phone's separate security chip (StrongBox) for this media")
                .doesNotContain("(TEE)");
    }

    @Test
    void keyAttestation_chainInvalid_otherRoot() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        Made other = KeyAttestations.chain(Spec.good(MEDIA));
        List<Check> r = DeviceIntegrityChecks.of(List.of(other.root()), APPS).keyAttestation("x.attest.pem", m.pem(), Optional.of(MEDIA));
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID);
        assertThat(codes(DeviceIntegrityChecks.systemDefault().keyAttestation("x.attest.pem", m.pem(), Optional.of(MEDIA))))
                .containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID);
    }

    @Test
    void keyAttestation_chainInvalid_extensionTamperedAfterSigning() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        String pem = new String(m.pem(), StandardCharsets.US_ASCII);
        byte[] leaf = m.chain().get(0).getEncoded();
        byte[] changed = leaf.clone();
        int at = indexOf(changed, MEDIA.getBytes(StandardCharsets.US_ASCII));
        changed[at] = (byte) '1';
        String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(leaf);
        String tampered = pem.replace(b64, Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(changed));
        assertThat(tampered).isNotEqualTo(pem);
        List<Check> r = DeviceIntegrityChecks.of(List.of(m.root()), APPS).keyAttestation("x.attest.pem",
                tampered.getBytes(StandardCharsets.US_ASCII), Optional.of("1" + MEDIA.substring(1)));
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID);
    }

    @Test
    void keyAttestation_challengeMismatch_otherMedia() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA)), "2".repeat(64));
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH);
        assertThat(r.get(0).message()).contains("names media " + MEDIA + ", not this proof's " + "2".repeat(64));
    }

    @Test
    void keyAttestation_challengeMismatch_proofNamesNoMedia() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        assertThat(codes(DeviceIntegrityChecks.of(List.of(m.root()), APPS).keyAttestation("x", m.pem(), Optional.empty())))
                .containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH);
    }

    @Test
    void keyAttestation_warnsSoftware_softwareLevel() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA).level(SecurityLevel.SOFTWARE)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, CheckCodes.INTEGRITY_KEY_ATTESTATION_SOFTWARE);
        assertThat(r.get(0).message()).startsWith("A key was made for this media by Android's software key store, not inside secure"
                + " hardware, as the phone's software reports it, on a device with a locked bootloader and verified boot")
                .doesNotContain("secure hardware (TEE)");
    }

    @Test
    void keyAttestation_warnsBoot_unlockedBootloader() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA).boot(false, BootState.UNVERIFIED)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, CheckCodes.INTEGRITY_KEY_ATTESTATION_BOOT_UNVERIFIED);
        assertThat(r.get(0).message()).contains("on a device with an unlocked bootloader and an unverified operating system")
                .doesNotContain("locked bootloader and verified boot");
        assertThat(r.get(1).status()).isEqualTo(Status.WARN);
    }

    @Test
    void keyAttestation_warnsBoot_lockedButSelfSigned() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA).boot(true, BootState.SELF_SIGNED)), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, CheckCodes.INTEGRITY_KEY_ATTESTATION_BOOT_UNVERIFIED);
        assertThat(r.get(0).message()).contains("signed by its owner's key, not the maker's");
    }

    @Test
    void keyAttestation_warnsApp_otherPackage() throws Exception {
        List<Check> r = check(KeyAttestations.chain(Spec.good(MEDIA).app("org.example.camera")), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, CheckCodes.INTEGRITY_KEY_ATTESTATION_APP_UNKNOWN);
        assertThat(r.get(0).message()).contains("an app named org.example.camera (signed with a key the verifier does not accept)")
                .doesNotContain("the ProofMode app");
    }

    @Test
    void keyAttestation_malformed_notPem() {
        assertThat(codes(DeviceIntegrityChecks.systemDefault().keyAttestation("x", "hello".getBytes(StandardCharsets.US_ASCII),
                Optional.of(MEDIA)))).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
    }

    @Test
    void keyAttestation_malformed_leafWithoutExtension() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        byte[] rootOnly = Made.pem(List.of(m.root()));
        assertThat(codes(DeviceIntegrityChecks.of(List.of(m.root()), APPS).keyAttestation("x", rootOnly, Optional.of(MEDIA))))
                .containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
    }

    @Test
    void keyAttestation_malformed_garbledExtension() throws Exception {
        Made m = KeyAttestations.chain(new byte[] {0x30, 0x03, 0x02, 0x01, 0x05});
        List<Check> r = check(m, MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
        assertThat(r.get(0).message()).contains("cannot be read");
    }

    @Test
    void keyAttestation_malformed_tenTimesTheLargestFile() {
        byte[] big = new byte[KeyAttestationChecks.MAX_FILE_BYTES * 10];
        assertThat(codes(DeviceIntegrityChecks.systemDefault().keyAttestation("x", big, Optional.of(MEDIA))))
                .containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
    }

    @Test
    void keyAttestation_malformed_tenTimesTheLongestChain() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        List<X509Certificate> longChain = new ArrayList<>();
        for (int i = 0; i < KeyAttestationChecks.MAX_CHAIN * 10; i++) {
            longChain.add(m.chain().get(i % 3));
        }
        byte[] pem = Made.pem(longChain);
        assertThat(pem.length).isLessThan(KeyAttestationChecks.MAX_FILE_BYTES);
        List<Check> r = check(new Made(m.root(), longChain), MEDIA);
        assertThat(codes(r)).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
        assertThat(r.get(0).message()).contains("not 1 to " + KeyAttestationChecks.MAX_CHAIN);
    }

    @Test
    void keyAttestation_malformed_tenTimesTheMostPackages() throws Exception {
        Made m = KeyAttestations.chain(KeyAttestations.keyDescription(Spec.good(MEDIA), KeyDescription.MAX_PACKAGES * 10));
        assertThat(codes(check(m, MEDIA))).containsExactly(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
    }

    @Test
    void chainTime_isNewestNotBefore_rootsAside() throws Exception {
        Made m = KeyAttestations.chain(Spec.good(MEDIA));
        assertThat(KeyAttestationChecks.chainTime(m.chain())).isEqualTo(m.chain().get(0).getNotBefore().toInstant());
    }

    @Test
    void googleRoots_twoPublishedRoots_bundled() {
        assertThat(DeviceIntegrityChecks.googleKeyAttestationRoots()).extracting(c -> c.getSerialNumber().toString(16))
                .containsExactly("f1c172a699eaf51d", "84a9d0297b0eb58ae7ff0e80de760605");
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("not found");
    }
}
