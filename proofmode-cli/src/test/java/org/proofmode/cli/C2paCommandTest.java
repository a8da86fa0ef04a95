// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ValidationState;
import org.proofmode.testkit.OwnMedia;

class C2paCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "c2pa test passphrase");
    }

    private C2paReport read(Path f) throws Exception {
        return new C2paReader(LocalCa.anchorsInHome(home), List.of()).read(f).orElseThrow();
    }

    @Test
    void sign_trustedCredentials_thenVerifyReadsThem() throws Exception {
        Path out = tmp.resolve("signed.jpg");
        Cli.Result r = cli.run("c2pa", "sign", OwnMedia.examplePhoto().toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        C2paReport report = read(out);
        assertThat(report.state()).isEqualTo(ValidationState.TRUSTED);
        assertThat(report.assertions()).contains("c2pa.actions.v2", "c2pa.hash.data", "c2pa.metadata", "org.proofmode.proof");
        assertThat(Files.readString(home.resolve("c2pa/ca.key"), StandardCharsets.US_ASCII)).contains("ENCRYPTED PRIVATE KEY");

        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).as(v.out() + v.err()).isZero();
        assertThat(v.out()).contains("TRUSTED", "c2pa.claimSignature.validated", "c2pa.signingCredential.trusted",
                "c2pa.assertion.dataHash.match");
    }

    @Test
    void verify_invalid_flippedImageByte() throws Exception {
        Path out = tmp.resolve("signed.png");
        assertThat(cli.run("c2pa", "sign", OwnMedia.png(tmp.resolve("drawn.png"), 320, 240, 1).toString(), "-o", out.toString()).exit()).isZero();
        byte[] b = Files.readAllBytes(out);
        b[b.length - 20] ^= 1;
        Files.write(out, b);
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(v.out()).contains("INVALID", "c2pa.assertion.dataHash.mismatch");
    }

    @Test
    void verify_exit13Incomplete_bindingThisVersionCannotCheck() throws Exception {
        assertThat(cli.run("c2pa", "ca").exit()).isZero();
        org.proofmode.c2pa.C2paSigner signer = new LocalCa(home)
                .signer(org.proofmode.keys.Passphrase.adopt("c2pa test passphrase".toCharArray()));
        com.fasterxml.jackson.databind.node.ObjectNode boxes = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        boxes.putArray("boxes").addObject().put("hash", new byte[32]).putArray("names").add("SOI");
        Path out = tmp.resolve("boxhash.jpg");
        Files.write(out, new org.proofmode.c2pa.ManifestBuilder().created(org.proofmode.c2pa.ManifestBuilder.DIGITAL_CAPTURE)
                .cborAssertion("c2pa.hash.collection.data", boxes)
                .sign(Files.readAllBytes(OwnMedia.examplePhoto()), signer, java.util.Optional.empty()));
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.exit()).as(v.out() + v.err()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(v.out()).contains("INCOMPLETE", "NOT CHECKED whether the content is unchanged", "WARN  c2pa.assertion.hardBinding.unchecked");
        assertThat(v.err()).contains("incomplete");
    }

    @Test
    void verify_bmffHashChecked_videoOfOthersValidThenInvalid() throws Exception {
        Cli.Result ok = cli.run("verify", Cli.sample("c2pa-conformance/video1.mp4").toString());
        assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("VALID", "c2pa.assertion.bmffHash.match").doesNotContain("hardBinding.unchecked");
        Cli.Result bad = cli.run("verify", Cli.sample("c2pa-conformance/truepic-20230212-camera.jpg").toString());
        assertThat(bad.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(bad.out()).contains("c2pa.assertion.dataHash.mismatch");
    }

    /** An X.509 identity in one PEM file (chain and encrypted key): a second local CA's device certificate. */
    private Path identityPem(String name) {
        Path other = tmp.resolve("identity-" + name);
        new LocalCa(other).create(org.proofmode.keys.Passphrase.adopt("c2pa test passphrase".toCharArray()), name, false);
        Path dir = other.resolve(LocalCa.FOLDER);
        Path pem = tmp.resolve(name + ".pem");
        try {
            Files.writeString(pem, Files.readString(dir.resolve("signer.pem")) + Files.readString(dir.resolve("signer.key")));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return pem;
    }

    @Test
    void sign_identityNamedByVerify_identityPem() throws Exception {
        Path out = tmp.resolve("with-identity.jpg");
        Cli.Result r = cli.run("c2pa", "sign", "--identity", identityPem("REPORTER").toString(), OwnMedia.examplePhoto().toString(),
                "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();

        Cli.Result v = cli.run("verify", out.toString());

        assertThat(v.exit()).as(v.out() + v.err()).isZero();
        assertThat(v.out()).contains("TRUSTED", "identity O=ProofMode,CN=ProofMode device REPORTER (not certified by an authority",
                "c2pa.cawg.x509.signature.validated", "WARN  c2pa.cawg.x509.credential.untrusted");
    }

    @Test
    void sign_exit41_identityPemWithoutKey() throws Exception {
        Path pem = identityPem("NOKEY");
        Files.writeString(pem, Files.readString(pem).replaceAll("(?s)-----BEGIN ENCRYPTED PRIVATE KEY-----.*", ""));
        Cli.Result r = cli.run("c2pa", "sign", "--identity", pem.toString(), OwnMedia.examplePhoto().toString(),
                "-o", tmp.resolve("x.jpg").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("holds no private key");
        assertThat(Files.exists(tmp.resolve("x.jpg"))).isFalse();
        assertThat(home.resolve(LocalCa.FOLDER)).as("nothing created before the identity was read").doesNotExist();
    }

    @Test
    void sign_exit59_outputExists() throws Exception {
        Path out = tmp.resolve("exists.jpg");
        Files.writeString(out, "x");
        Cli.Result r = cli.run("c2pa", "sign", OwnMedia.examplePhoto().toString(), "-o", out.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.OUTPUT_EXISTS);
        assertThat(r.err()).contains("exists");
    }

    @Test
    void sign_exit13_notJpegOrPng() throws Exception {
        Path in = tmp.resolve("a.txt");
        Files.writeString(in, "not an image");
        Cli.Result r = cli.run("c2pa", "sign", in.toString(), "-o", tmp.resolve("b.txt").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.UNSUPPORTED);
    }

    @Test
    void sign_onTopOfTheChain_alreadyCredentialed() throws Exception {
        Path out = tmp.resolve("c.jpg");
        Cli.Result r = cli.run("c2pa", "sign", Cli.sample("c2pa/CA.jpg").toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        org.proofmode.c2pa.ManifestChain chain = org.proofmode.c2pa.ManifestChain.of(Files.readAllBytes(out)).orElseThrow();
        assertThat(chain.labels()).hasSize(2).containsAll(
                org.proofmode.c2pa.ManifestChain.of(Files.readAllBytes(Cli.sample("c2pa/CA.jpg"))).orElseThrow().labels());
        assertThat(chain.report().state()).isEqualTo(ValidationState.VALID);
    }

    @Test
    void update_addsUpdateManifestAndVerifyListsTheChain_credentialedJpeg() throws Exception {
        Path out = tmp.resolve("updated.jpg");
        Cli.Result r = cli.run("c2pa", "update", Cli.sample("c2pa/CA.jpg").toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        C2paReport report = new C2paReader(List.of(), List.of()).read(out).orElseThrow();
        assertThat(report.state()).as(report.statuses().toString()).isEqualTo(ValidationState.VALID);
        assertThat(report.chain()).hasSize(2);
        Cli.Result v = cli.run("verify", out.toString());
        assertThat(v.out()).contains("manifest 1 of 2", "manifest 2 of 2 (active)", "signed by");
    }

    @Test
    void update_exit41_noCredentials() throws Exception {
        Cli.Result r = cli.run("c2pa", "update", OwnMedia.examplePhoto().toString(), "-o", tmp.resolve("u.jpg").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_DATA);
        assertThat(r.err()).contains("JPEG with content credentials only");
    }

    @Test
    void ca_exit59_secondTimeWithoutForce() {
        Cli.Result first = cli.run("c2pa", "ca");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out().trim()).endsWith("ca.pem");
        assertThat(cli.run("c2pa", "ca").exit()).isEqualTo(ExitCodes.OUTPUT_EXISTS);
    }

    @Test
    void prove_c2pa_provesTheCredentialedCopy() throws Exception {
        Path photo = tmp.resolve("IMG.jpg");
        Files.copy(OwnMedia.examplePhoto(), photo);
        Cli.Result r = cli.run("prove", "--c2pa", photo.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path copy = tmp.resolve("IMG.c2pa.jpg");
        assertThat(r.out()).contains(copy.toString());
        assertThat(read(copy).state()).isEqualTo(ValidationState.TRUSTED);
        Cli.Result v = cli.run("verify", copy.toString());
        assertThat(v.exit()).as(v.out() + v.err()).isZero();
        assertThat(v.out()).contains("TRUSTED", "signature.media.valid", "c2pa.claimSignature.validated",
                "c2pa.proofmode.signer.match");
    }

    @Test
    void prove_c2pa_provesACopySignedOnTop_credentialedPhoto() throws Exception {
        Path photo = tmp.resolve("phone.jpg");
        Files.copy(Cli.sample("c2pa/CA.jpg"), photo);
        Cli.Result r = cli.run("prove", "--c2pa", photo.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path copy = tmp.resolve("phone.c2pa.jpg");
        assertThat(r.out()).contains(copy.toString());
        assertThat(r.err()).doesNotContain("proved as it is");
        C2paReport report = read(copy);
        assertThat(report.state()).as("our signer trusted, the earlier one merely untrusted").isEqualTo(ValidationState.TRUSTED);
        assertThat(report.chain()).hasSize(2);
        assertThat(report.chain().get(0).signer()).hasValueSatisfying(s -> assertThat(s).contains("C2PA Signer"));
        Cli.Result v = cli.run("verify", copy.toString());
        assertThat(v.out()).contains("manifest 1 of 2", "make_test_images", "manifest 2 of 2 (active)", "c2pa.proofmode.signer.match");
    }

    @Test
    void verify_sameVerdictAsReference_referenceSamples() {
        assertThat(cli.run("verify", Cli.sample("c2pa/C.jpg").toString()).exit()).isZero();
        assertThat(cli.run("verify", Cli.sample("c2pa/CA.jpg").toString()).exit()).isZero();
        assertThat(cli.run("verify", Cli.sample("c2pa/E-sig-CA.jpg").toString()).exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(cli.run("verify", Cli.sample("c2pa/no_manifest.jpg").toString()).exit()).isEqualTo(ExitCodes.INPUT_MISSING);
    }
}
