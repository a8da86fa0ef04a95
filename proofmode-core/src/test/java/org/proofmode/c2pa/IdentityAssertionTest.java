// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** CAWG X.509 identity assertions: written by {@link ManifestBuilder#identity}, read by {@link CawgIdentity}. */
class IdentityAssertionTest {
    private static Path identityHome;
    private static Path identityPem;
    private static C2paSigner identity;

    @BeforeAll
    static void identityCertificate(@TempDir Path dir) throws Exception {
        identityHome = dir;
        new LocalCa(dir.resolve("reporter")).create(C2paFixtures.passphrase(), "REPORTER", false); // its device certificate is the identity
        Path ca = dir.resolve("reporter").resolve(LocalCa.FOLDER);
        identityPem = dir.resolve("identity.pem");
        Files.writeString(identityPem, Files.readString(ca.resolve("signer.pem")) + Files.readString(ca.resolve("signer.key")));
        identity = C2paSigner.fromPem(identityPem, Optional.of(C2paFixtures.passphrase()));
    }

    private static C2paReport read(byte[] signed, List<java.security.cert.X509Certificate> anchors) throws Exception {
        return new C2paReader(anchors, List.of()).read(signed).orElseThrow();
    }

    /** The failure codes, except the two that mean "no trust anchor" (the signer's and the identity's). */
    private static List<String> failures(C2paReport r) {
        return r.statuses().stream().filter(s -> s.outcome() == Outcome.FAILURE)
                .filter(s -> !s.code().equals(Codes.SIGNING_CREDENTIAL_UNTRUSTED) && !s.code().equals(Codes.CAWG_X509_CREDENTIAL_UNTRUSTED))
                .map(C2paStatus::code).sorted().toList();
    }

    @Test
    void read_identitySubjectNamed_manifestSignedWithIdentity() throws Exception {
        byte[] signed = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).identity(identity)
                .sign(Files.readAllBytes(C2paFixtures.JPEG), C2paFixtures.shared(), Optional.empty());

        C2paReport r = read(signed, List.of());

        assertThat(r.state()).as(r.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(r.statuses()).filteredOn(s -> s.code().equals(Codes.CAWG_X509_SIGNATURE_VALIDATED)).singleElement()
                .satisfies(s -> assertThat(s.explanation()).contains("CN=ProofMode device REPORTER"));
        assertThat(failures(r)).isEmpty();
        assertThat(r.statuses()).filteredOn(s -> s.outcome() == Outcome.FAILURE).extracting(C2paStatus::code)
                .containsExactlyInAnyOrder(Codes.SIGNING_CREDENTIAL_UNTRUSTED, Codes.CAWG_X509_CREDENTIAL_UNTRUSTED);
    }

    @Test
    void alone_manifestCheckNamesWhoSigned_verifyReportAndPageShowIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("signed.jpg");
        Files.write(file, new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).identity(identity)
                .sign(Files.readAllBytes(C2paFixtures.JPEG), C2paFixtures.shared(), Optional.empty()));

        org.proofmode.verify.VerificationReport r = new org.proofmode.verify.C2paChecks(new C2paReader(List.of(), List.of()))
                .alone(file).orElseThrow();

        assertThat(r.checks()).filteredOn(c -> c.code().equals(org.proofmode.verify.CheckCodes.C2PA_MANIFEST_PRESENT)).singleElement()
                .satisfies(c -> assertThat(c.message()).contains("identity O=ProofMode,CN=ProofMode device REPORTER (not certified"));
        assertThat(r.checks()).filteredOn(c -> c.code().equals(org.proofmode.verify.CheckCodes.C2PA_CAWG_X509_CREDENTIAL_UNTRUSTED))
                .extracting(org.proofmode.verify.Check::status).containsExactly(org.proofmode.verify.Status.WARN);
    }

    @Test
    void read_identityTrusted_identityCaAmongAnchors() throws Exception {
        byte[] signed = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).identity(identity)
                .sign(Files.readAllBytes(C2paFixtures.JPEG), C2paFixtures.shared(), Optional.empty());
        List<java.security.cert.X509Certificate> anchors = Pem.certificates(identityHome.resolve("reporter").resolve(LocalCa.FOLDER)
                .resolve(LocalCa.CA_CERT));

        C2paReport r = read(signed, anchors);

        assertThat(r.has(Codes.CAWG_X509_CREDENTIAL_TRUSTED)).isTrue();
        assertThat(r.has(Codes.CAWG_X509_CREDENTIAL_UNTRUSTED)).isFalse();
        assertThat(failures(r)).isEmpty();
    }

    /** A manifest with an identity assertion made here from {@code referenced}, then changed by {@code change}. */
    private static C2paReport withCraftedIdentity(List<JsonNode> referenced, java.util.function.Consumer<ObjectNode> change)
            throws Exception {
        JumbfBox.Super box = IdentityAssertion.x509(identity, referenced);
        ObjectNode cbor = (ObjectNode) AssertionData.cbor(box).orElseThrow();
        change.accept(cbor);
        byte[] signed = new ManifestBuilder().created(ManifestBuilder.DIGITAL_CAPTURE).cborAssertion(CawgIdentity.LABEL, cbor)
                .sign(Files.readAllBytes(C2paFixtures.JPEG), C2paFixtures.shared(), Optional.empty());
        return read(signed, List.of());
    }

    private static ObjectNode ref(String label, byte[] hash) {
        ObjectNode u = Cbor.map();
        u.put("url", ManifestStore.SELF + Manifest.ASSERTIONS + "/" + label);
        u.put("hash", hash);
        return u;
    }

    @Test
    void read_invalidAssertionMismatch_referencedHashDiffersFromClaim() throws Exception {
        C2paReport r = withCraftedIdentity(List.of(ref(DataHash.LABEL, new byte[32])), c -> {});

        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.CAWG_IDENTITY_ASSERTION_MISMATCH);
    }

    @Test
    void read_invalidHardBindingMissing_noAssertionReferenced() throws Exception {
        C2paReport r = withCraftedIdentity(List.of(), c -> {});

        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.CAWG_IDENTITY_HARD_BINDING_MISSING);
    }

    @Test
    void read_signatureMismatch_payloadChangedAfterSigning() throws Exception {
        C2paReport r = withCraftedIdentity(List.of(), c -> ((ObjectNode) c.get("signer_payload")).putArray("role").add("cawg.creator"));

        assertThat(failures(r)).containsExactly(Codes.CAWG_IDENTITY_HARD_BINDING_MISSING, Codes.CAWG_X509_SIGNATURE_MISMATCH);
        assertThat(r.has(Codes.CAWG_X509_SIGNATURE_VALIDATED)).isFalse();
    }

    @Test
    void read_sigTypeUnknownAndCborInvalid_otherTypeOrNoSignature() throws Exception {
        C2paReport other = withCraftedIdentity(List.of(), c -> ((ObjectNode) c.get("signer_payload")).put("sig_type", "example.other"));
        C2paReport none = withCraftedIdentity(List.of(), c -> c.remove("signature"));

        assertThat(failures(other)).containsExactly(Codes.CAWG_IDENTITY_HARD_BINDING_MISSING, Codes.CAWG_IDENTITY_SIG_TYPE_UNKNOWN);
        assertThat(failures(none)).containsExactly(Codes.CAWG_IDENTITY_CBOR_INVALID);
    }

    @Test
    void read_padInvalid_nonZeroPadding() throws Exception {
        C2paReport r = withCraftedIdentity(List.of(), c -> c.put("pad1", new byte[] {1}));

        assertThat(r.state()).isEqualTo(ValidationState.INVALID);
        assertThat(failures(r)).containsExactly(Codes.CAWG_IDENTITY_PAD_INVALID);
    }

    @Test
    void fromPem_badData_keyOfAnotherCertificate(@TempDir Path dir) throws Exception {
        Path ca = C2paFixtures.sharedHome().resolve(LocalCa.FOLDER);
        Path mixed = dir.resolve("mixed.pem");
        Files.writeString(mixed, Files.readString(identityHome.resolve("reporter").resolve(LocalCa.FOLDER).resolve("signer.pem"))
                + Files.readString(ca.resolve("signer.key")));

        assertThatThrownBy(() -> C2paSigner.fromPem(mixed, Optional.of(C2paFixtures.passphrase())))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining("not the first certificate's");
    }

    @Test
    void fromPem_refused_deviceOrTenTimesTheBound(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.pem");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(10 * org.proofmode.util.InputFiles.CERTIFICATE_BYTES);
        }
        assertThatThrownBy(() -> C2paSigner.fromPem(Path.of("/dev/zero"), Optional.of(C2paFixtures.passphrase())))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.UNSUPPORTED))
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> C2paSigner.fromPem(big, Optional.of(C2paFixtures.passphrase())))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
    }

    @Test
    void fromPem_keyLocked_encryptedKeyWithoutPassphrase() {
        assertThatThrownBy(() -> C2paSigner.fromPem(identityPem, Optional.empty()))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED))
                .hasMessageContaining("PROOFMODE_PASSPHRASE");
    }
}
