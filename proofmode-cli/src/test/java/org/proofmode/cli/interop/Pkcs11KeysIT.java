// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftHsm;
import org.proofmode.testkit.Sqv;

/**
 * Device keys inside a real PKCS#11 token (SoftHSM2, a token of each test's own): made there, never
 * extractable, signing proofs that GnuPG, sqv and our verify accept, and nothing secret in the home or the
 * bundles.
 */
class Pkcs11KeysIT {
    private static final String PIN = "246810";
    private static final Pattern KEY_ID = Pattern.compile("key id (proofmode-[0-9a-f]{8})");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"p256, ECDSA, EC", "rsa3072, RSA, RSA"})
    void createProveExport_verifiesWithGpgSqvAndOurVerify_keyOfType(String keyType, String gpgAlgorithm, String tokenType)
            throws IOException {
        SoftHsm hsm = SoftHsm.create(dir, "proofmode", PIN);
        ProofModeJar pm = jar(hsm, "home");
        Path pinFile = Files.writeString(dir.resolve("pin.txt"), PIN + "\n");

        ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString(), "--token", "proofmode",
                "--key-type", keyType, "--pin-file", pinFile.toString());

        assertThat(created.exitCode()).as(created.describe()).isZero();
        assertThat(created.stdout()).contains("storage:     pkcs11: SoftHSM project SoftHSM v2 (token \"proofmode\"");
        String objects = hsm.objects();
        assertThat(objects).contains("Private Key Object; " + tokenType);
        String privateKey = objects.substring(objects.indexOf("Private Key Object"));
        assertThat(privateKey.lines().filter(l -> l.strip().startsWith("Access:")).findFirst().orElseThrow())
                .contains("sensitive", "always sensitive", "never extractable", "local");
        assertThat(pm.home().resolve("keys/secret.asc")).doesNotExist();
        assertThat(pm.home().resolve("keys/token.json")).isRegularFile();

        ProofSet proof = ProofSet.prove(pm.withEnv("PROOFMODE_PIN", PIN), TestMedia.jpeg(dir, "photo.jpg", 7));
        assertThat(Files.readString(proof.json())).contains("\"Proof.KeyStorage\":\"pkcs11: SoftHSM project SoftHSM v2\"");
        Path zip = dir.resolve("bundle.zip");
        ProcessResult exported = pm.run("export", "--with-media", "-o", zip.toString(), proof.media().toString());
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        ProofSet shared = ProofSet.unzip(zip, dir.resolve("shared"), proof.sha256(), "photo.jpg");

        try (Gpg gpg = Gpg.create(dir)) {
            assertGpgAndSqvAccept(gpg, shared, gpgAlgorithm);
            ProcessResult packets = gpg.run("--list-packets", shared.pubkey().toString());
            assertThat(packets.stdout()).contains(":public key packet:", ":signature packet:");
            assertNoSecretKeyIn(gpg, pm.home());
            assertNoSecretKeyIn(gpg, dir.resolve("shared"));
        }
        ProcessResult verified = jar(hsm, "stranger").run("verify", "--trust", shared.pubkey().toString(), zip.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("TRUSTED", "key storage:      pkcs11: SoftHSM project SoftHSM v2");
    }

    @Test
    void use_adoptsTheTokensKey_sameFingerprintInAnotherHome() throws IOException {
        SoftHsm hsm = SoftHsm.create(dir, "shared", PIN);
        ProofModeJar first = jar(hsm, "first").withEnv("PROOFMODE_PIN", PIN);
        ProcessResult created = first.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString());
        assertThat(created.exitCode()).as(created.describe()).isZero();
        String keyId = keyId(created.stdout());

        ProofModeJar second = jar(hsm, "second").withEnv("PROOFMODE_PIN", PIN);
        ProcessResult used = second.run("keys", "use", "--pkcs11", SoftHsm.MODULE.toString(), "--key-id", keyId);

        assertThat(used.exitCode()).as(used.describe()).isZero();
        assertThat(fingerprint(used.stdout())).isEqualTo(fingerprint(created.stdout()));
        ProofSet proof = ProofSet.prove(second, TestMedia.jpeg(dir, "other.jpg", 8));
        ProcessResult q = Sqv.verify(first.home().resolve("keys/public").resolve(fingerprint(created.stdout()) + ".asc"),
                proof.mediaSig(), proof.media());
        assertThat(q.exitCode()).as(q.describe()).isZero();
    }

    @Test
    void rotate_fileToTokenToFile_keepsEveryPublicKeyAndOldProofsVerify() throws IOException {
        SoftHsm hsm = SoftHsm.create(dir, "rotate", PIN);
        ProofModeJar pm = jar(hsm, "home").withEnv("PROOFMODE_PIN", PIN);
        ProofSet byFile = ProofSet.prove(pm, TestMedia.jpeg(dir, "a.jpg", 1));

        ProcessResult toToken = pm.run("keys", "rotate", "--pkcs11", SoftHsm.MODULE.toString(), "--token", "rotate");
        assertThat(toToken.exitCode()).as(toToken.describe()).isZero();
        assertThat(pm.home().resolve("keys/secret.asc")).doesNotExist();
        ProofSet byToken = ProofSet.prove(pm, TestMedia.jpeg(dir, "b.jpg", 2));

        ProcessResult toFile = pm.run("keys", "rotate", "--key-type", "ed25519");
        assertThat(toFile.exitCode()).as(toFile.describe()).isZero();
        assertThat(pm.home().resolve("keys/token.json")).doesNotExist();
        assertThat(toFile.stdout()).contains("storage:     file");

        try (Stream<Path> kept = Files.list(pm.home().resolve("keys/public"))) {
            assertThat(kept.count()).isEqualTo(3);
        }
        for (ProofSet p : List.of(byFile, byToken)) {
            ProcessResult v = pm.run("verify", p.media().toString());
            assertThat(v.exitCode()).as(v.describe()).isZero();
            assertThat(v.stdout()).contains("TRUSTED");
        }
    }

    @Test
    void wipeKeys_removesTheReference_andSaysTheKeyStaysInTheToken() {
        SoftHsm hsm = SoftHsm.create(dir, "wipe", PIN);
        ProofModeJar pm = jar(hsm, "home").withEnv("PROOFMODE_PIN", PIN);
        ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString());
        assertThat(created.exitCode()).as(created.describe()).isZero();

        ProcessResult wiped = pm.run("wipe", "--keys", "--yes");

        assertThat(wiped.exitCode()).as(wiped.describe()).isZero();
        assertThat(pm.home().resolve("keys")).doesNotExist();
        assertThat(wiped.stderr()).contains("the key itself stays in the token \"wipe\"",
                "pkcs11-tool --module " + SoftHsm.MODULE + " --token-label wipe --login --delete-object --type privkey --label " + keyId(created.stdout()));
        assertThat(hsm.objects()).contains("Private Key Object");
    }

    /** GnuPG and sqv both accept every signature of the proof with its own public key, of this algorithm; gives the key's fingerprint. */
    static String assertGpgAndSqvAccept(Gpg gpg, ProofSet shared, String gpgAlgorithm) {
        String fingerprint = gpg.fingerprintsOf(shared.pubkey()).get(0);
        gpg.importKey(shared.pubkey());
        for (ProofSet.Signed s : shared.signed()) {
            ProcessResult r = gpg.verify(s.signature(), s.data());
            assertThat(r.exitCode()).as(s.subject() + ": " + r.describe()).isZero();
            assertThat(r.stderr()).as(s.subject()).contains("Good signature", "using " + gpgAlgorithm + " key " + fingerprint);
            ProcessResult q = Sqv.verify(shared.pubkey(), s.signature(), s.data());
            assertThat(q.exitCode()).as(s.subject() + ": " + q.describe()).isZero();
            assertThat(q.stdout()).isEqualTo(fingerprint + "\n");
        }
        return fingerprint;
    }

    private ProofModeJar jar(SoftHsm hsm, String home) {
        ProofModeJar pm = ProofModeJar.at(dir.resolve(home));
        for (Map.Entry<String, String> e : hsm.env().entrySet()) {
            pm = pm.withEnv(e.getKey(), e.getValue());
        }
        return pm;
    }

    static String keyId(String keysOutput) {
        Matcher m = KEY_ID.matcher(keysOutput);
        assertThat(m.find()).as(keysOutput).isTrue();
        return m.group(1);
    }

    static String fingerprint(String keysOutput) {
        return keysOutput.lines().filter(l -> l.startsWith("fingerprint:")).findFirst().orElseThrow().substring(12).strip();
    }

    /**
     * No file under {@code folder} holds an OpenPGP secret key: no armored private key block anywhere, and
     * no secret key packet in any OpenPGP file as GnuPG reads it.
     */
    static void assertNoSecretKeyIn(Gpg gpg, Path folder) throws IOException {
        int openPgpFiles = 0;
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain("PRIVATE KEY");
                if (f.toString().endsWith(".asc")) {
                    ProcessResult packets = gpg.run("--list-packets", f.toString());
                    assertThat(packets.stdout()).as(f.toString()).containsPattern(":(public key|signature) packet:").doesNotContain("secret");
                    openPgpFiles++;
                }
            }
        }
        assertThat(openPgpFiles).as("OpenPGP files under " + folder).isPositive();
    }
}
