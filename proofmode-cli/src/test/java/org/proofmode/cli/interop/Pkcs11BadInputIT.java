// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.SoftHsm;

/**
 * What goes wrong with a token says so in one line, with its documented exit code, and leaves nothing
 * half-written in the home: a missing module, a file that is no module, an absent token, a wrong or
 * missing PIN, Ed25519, a key deleted from the token after set-up, a token removed, a full token.
 */
class Pkcs11BadInputIT {
    private static final String PIN = "135790";

    @TempDir
    Path dir;

    @Test
    void create_refusesEachBadInputInOneLine_homeKeepsNoKey() throws IOException {
        SoftHsm hsm = SoftHsm.create(dir, "bad", PIN);
        ProofModeJar pm = jar(hsm).withEnv("PROOFMODE_PIN", PIN);
        String module = SoftHsm.MODULE.toString();

        expect(pm.run("keys", "create", "--pkcs11", dir.resolve("no-such-module.so").toString()), 61, "no PKCS#11 module at");
        expect(pm.run("keys", "create", "--pkcs11", Files.writeString(dir.resolve("not-a-module.so"), "text").toString()), 41,
                "is not a usable PKCS#11 module");
        expect(pm.run("keys", "create", "--pkcs11", module, "--token", "elsewhere"), 61,
                "no token labelled \"elsewhere\" is present in " + module + " (present: \"bad\")");
        expect(pm.withEnv("PROOFMODE_PIN", "000000").run("keys", "create", "--pkcs11", module), 67, "wrong PIN");
        expect(ProofModeJar.withoutPassphrase(pm.home()).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                .run("keys", "create", "--pkcs11", module), 67, "needs its PIN: set PROOFMODE_PIN or use --pin-file");
        expect(pm.run("keys", "create", "--pkcs11", module, "--key-type", "ed25519"), 13, "Java's PKCS#11 provider cannot sign with EdDSA");
        hsm.initToken("second", PIN);
        expect(pm.run("keys", "create", "--pkcs11", module), 37, "has 2 tokens (\"bad\", \"second\"); choose one with --token LABEL");

        assertNoKey(pm.home());
        assertThat(hsm.objects()).doesNotContain("Private Key Object");
    }

    @Test
    void prove_saysWhatBecameOfTheKey_wrongPinDeletedKeyRemovedToken() throws IOException {
        SoftHsm hsm = SoftHsm.create(dir, "gone", PIN);
        ProofModeJar pm = jar(hsm).withEnv("PROOFMODE_PIN", PIN);
        ProcessResult created = pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString());
        assertThat(created.exitCode()).as(created.describe()).isZero();
        String keyId = Pkcs11KeysIT.keyId(created.stdout());
        Path photo = TestMedia.jpeg(dir, "photo.jpg", 3);

        expect(pm.withEnv("PROOFMODE_PIN", "999999").run("prove", photo.toString()), 67, "wrong PIN");
        ProcessResult deleted = hsm.pkcs11Tool("--login", "--pin", PIN, "--delete-object", "--type", "privkey", "--label", keyId);
        assertThat(deleted.exitCode()).as(deleted.describe()).isZero();
        expect(pm.run("prove", photo.toString()), 61, "holds no key with ID " + keyId + " (was it deleted from the token?)");
        ProcessResult removed = hsm.util("--delete-token", "--token", "gone");
        assertThat(removed.exitCode()).as(removed.describe()).isZero();
        expect(pm.run("prove", photo.toString()), 61, "(\"gone\") is present in " + SoftHsm.MODULE);

        assertThat(pm.home().resolve("proofs")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
        assertThat(pm.home().resolve("keys/token.json")).isRegularFile();
    }

    @Test
    void create_saysTheTokenFailed_whenItsStorageIsFull() throws IOException {
        Path disk = Files.createDirectories(dir.resolve("disk"));
        ProcessResult m = ExternalTool.run(List.of(ExternalTool.require("mount").toString(), "-t", "tmpfs", "-o", "size=1m,mode=0700",
                "tmpfs", disk.toString()), Map.of(), Duration.ofSeconds(30));
        assertThat(m.exitCode()).as("this test mounts a small tmpfs and needs root (the CI runs as root): " + m.describe()).isZero();
        try {
            SoftHsm hsm = SoftHsm.create(disk, "full", PIN);
            ProofModeJar pm = ProofModeJar.at(dir.resolve("home")).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"))
                    .withEnv("PROOFMODE_PIN", PIN);
            fill(disk);

            expect(pm.run("keys", "create", "--pkcs11", SoftHsm.MODULE.toString()), 1, "it may be full: delete keys it no longer needs");

            assertNoKey(pm.home());
        } finally {
            ExternalTool.run(List.of("umount", "-l", disk.toString()), Map.of(), Duration.ofSeconds(30));
        }
    }

    private ProofModeJar jar(SoftHsm hsm) {
        return ProofModeJar.at(dir.resolve("home")).withEnv("SOFTHSM2_CONF", hsm.env().get("SOFTHSM2_CONF"));
    }

    private static void expect(ProcessResult r, int exit, String message) {
        assertThat(r.exitCode()).as(r.describe()).isEqualTo(exit);
        assertThat(r.stderr().lines().toList()).as(r.describe()).hasSize(1);
        assertThat(r.stderr()).as(r.describe()).startsWith("proofmode: ").contains(message);
        assertThat(r.stdout()).as(r.describe()).isEmpty();
    }

    /** Nothing of a key in the home: no key files at all, or only an empty keys folder. */
    private static void assertNoKey(Path home) throws IOException {
        Path keys = home.resolve("keys");
        if (Files.exists(keys)) {
            try (Stream<Path> files = Files.walk(keys)) {
                assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
            }
        }
    }

    /** Writes until the disk refuses. */
    private static void fill(Path disk) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(disk.resolve("filler"))) {
            while (true) {
                out.write(block);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
    }
}
