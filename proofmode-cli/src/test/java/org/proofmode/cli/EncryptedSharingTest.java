// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.AgeTool;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code export --encrypt-to} and {@code verify --identity} against the reference tools: Debian's
 * {@code age} and {@code age-keygen}, and GnuPG in a fresh home.
 */
class EncryptedSharingTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path media;
    private Path identity;
    private String recipient;

    @BeforeEach
    void setUp() throws Exception {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        media = ProveCommandTest.jpeg(tmp, "IMG_0001.jpg", 3000, 21);
        assertThat(cli.run("prove", media.toString()).exit()).isZero();
        identity = tmp.resolve("desk.key");
        recipient = AgeTool.keygen(identity);
    }

    private Path export(String name, String... extra) {
        Path out = tmp.resolve(name);
        String[] args = Stream.concat(Stream.of("export", "--with-media", "-o", out.toString()),
                Stream.concat(Arrays.stream(extra), Stream.of(media.toString()))).toArray(String[]::new);
        Cli.Result r = cli.run(args);
        assertThat(r.exit()).as(r.err()).isZero();
        return out;
    }

    @Test
    void ourAgeExport_decryptsWithAge_toThePlainExportByteForByte_andVerifiesWithIdentity() throws Exception {
        Path plain = export("share.zip");
        Path encrypted = export("share.zip.age", "--encrypt-to", recipient);
        assertThat(new String(Files.readAllBytes(encrypted), 0, 21, StandardCharsets.US_ASCII)).isEqualTo("age-encryption.org/v1");
        Path decrypted = tmp.resolve("decrypted.zip");
        ProcessResult d = AgeTool.decrypt(identity, encrypted, decrypted);
        assertThat(d.succeeded()).as(d.describe()).isTrue();
        assertThat(Files.readAllBytes(decrypted)).isEqualTo(Files.readAllBytes(plain));

        Cli.Result v = cli.run("verify", "--identity", identity.toString(), encrypted.toString());
        assertThat(v.exit()).as(v.err()).isZero();
        assertThat(v.out()).contains("PASS  media.hash.match").contains(encrypted.toString());
        Cli.Result json = cli.run("verify", "--json", "--identity", identity.toString(), encrypted.toString());
        assertThat(json.out()).contains("\"source\" : \"" + encrypted);
    }

    @Test
    void aFolderOfBundles_takesTheEncryptedOnesToo() throws Exception {
        Path intake = Files.createDirectories(tmp.resolve("intake"));
        Path plain = export("intake/a.zip");
        Files.copy(export("sealed.zip.age", "--encrypt-to", recipient), intake.resolve("b.zip.age"));
        Cli.Result v = cli.run("verify", "--identity", identity.toString(), intake.toString());
        assertThat(v.exit()).as(v.err() + v.out()).isZero();
        assertThat(v.out()).contains(plain.toString()).contains(intake.resolve("b.zip.age").toString());
        Cli.Result without = cli.run("verify", intake.toString());
        assertThat(without.exit()).isEqualTo(67);
    }

    @Test
    void bundlesEncryptedByAge_binaryOrArmored_verifyWithIdentity_andMakeAReport() throws Exception {
        Path plain = export("share.zip");
        for (boolean armor : new boolean[] {false, true}) {
            Path encrypted = tmp.resolve(armor ? "share.zip.age.asc" : "share.zip.age");
            AgeTool.encrypt(recipient, armor, plain, encrypted);
            Cli.Result v = cli.run("verify", "--identity", identity.toString(), encrypted.toString());
            assertThat(v.exit()).as(v.err()).isZero();
            assertThat(v.out()).contains("PASS  media.hash.match");
        }
        Path html = tmp.resolve("report.html");
        Cli.Result r = cli.run("report", "--format", "html", "--no-sign", "-o", html.toString(), "--identity", identity.toString(),
                tmp.resolve("share.zip.age").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(html)).contains("share.zip.age");
    }

    @Test
    void openPgpExport_decryptsWithGpgInAFreshHome_toABundleThatVerifies() throws Exception {
        Path desk = Files.createDirectories(tmp.resolve("desk"));
        Path cert = tmp.resolve("desk.asc");
        Path secret = tmp.resolve("desk-secret.asc");
        try (Gpg gpg = Gpg.create(desk)) {
            String fpr = gpg.generateKey("Desk <desk@example.org>", Gpg.KeyAlgorithm.ED25519);
            gpg.addEncryptionSubkey(fpr);
            gpg.exportPublicKey(fpr, cert);
            gpg.exportSecretKey(fpr, "", secret);
        }
        Path plain = export("share.zip");
        Path encrypted = export("share.zip.gpg", "--encrypt-to", cert.toString());
        Path decrypted = tmp.resolve("decrypted.zip");
        try (Gpg reader = Gpg.create(Files.createDirectories(tmp.resolve("reader")))) {
            reader.importKey(secret);
            ProcessResult d = reader.decrypt(encrypted, decrypted);
            assertThat(d.succeeded()).as(d.describe()).isTrue();
        }
        assertThat(Files.readAllBytes(decrypted)).isEqualTo(Files.readAllBytes(plain));
        Cli.Result v = cli.run("verify", decrypted.toString());
        assertThat(v.exit()).as(v.err()).isZero();
    }

    @Test
    void badRecipients_failOnOneLine_andWriteNothing() throws Exception {
        Path out = tmp.resolve("share.zip.age");
        String badChecksum = recipient.substring(0, recipient.length() - 1) + (recipient.endsWith("q") ? "p" : "q");
        expectFailure(37, "not an age recipient", "export", "--with-media", "-o", out.toString(), "--encrypt-to", badChecksum, media.toString());
        expectFailure(37, "neither an age recipient", "export", "--with-media", "-o", out.toString(), "--encrypt-to", "desk@example.org", media.toString());
        // This installation's own certificate signs only: it has no subkey to encrypt to.
        Path own = tmp.resolve("own.asc");
        assertThat(cli.run("keys", "export", "-o", own.toString()).exit()).isZero();
        expectFailure(13, "cannot encrypt", "export", "--with-media", "-o", out.toString(), "--encrypt-to", own.toString(), media.toString());
        expectFailure(83, "cannot be mixed", "export", "--with-media", "-o", out.toString(), "--encrypt-to", recipient,
                "--encrypt-to", own.toString(), media.toString());
        Path garbage = Files.writeString(tmp.resolve("garbage.asc"), "not a key\n");
        expectFailure(41, "not an OpenPGP key file", "export", "--with-media", "-o", out.toString(), "--encrypt-to", garbage.toString(), media.toString());
        assertThat(out).doesNotExist();
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".tmp-"));
        }
    }

    @Test
    void encryptedBundles_withoutTheRightIdentity_orDamaged_failOnOneLine() throws Exception {
        Path encrypted = export("share.zip.age", "--encrypt-to", recipient);
        expectFailure(67, "--identity", "verify", encrypted.toString());
        Path someoneElse = tmp.resolve("someone.key");
        AgeTool.keygen(someoneElse);
        expectFailure(67, "another recipient", "verify", "--identity", someoneElse.toString(), encrypted.toString());
        Path garbled = Files.writeString(tmp.resolve("garbled.key"), "AGE-SECRET-KEY-1NOTAKEY\n");
        expectFailure(41, "not an age identity", "verify", "--identity", garbled.toString(), encrypted.toString());
        expectFailure(61, "no such identity file", "verify", "--identity", tmp.resolve("missing.key").toString(), encrypted.toString());
        byte[] bytes = Files.readAllBytes(encrypted);
        Path truncated = Files.write(tmp.resolve("truncated.zip.age"), Arrays.copyOf(bytes, bytes.length - 1000));
        expectFailure(41, "damaged or truncated", "verify", "--identity", identity.toString(), truncated.toString());
        bytes[bytes.length / 2] ^= 0x20;
        Path flipped = Files.write(tmp.resolve("flipped.zip.age"), bytes);
        expectFailure(41, "damaged or truncated", "verify", "--identity", identity.toString(), flipped.toString());
    }

    @Test
    void serverRecipient_namesTheIdentitysAge1_andServeRefusesAnIdentityOthersCanRead() throws Exception {
        Files.setPosixFilePermissions(identity, PosixFilePermissions.fromString("rw-------"));
        Cli.Result r = cli.run("server", "recipient", "--identity", identity.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo(recipient);
        Files.setPosixFilePermissions(identity, PosixFilePermissions.fromString("rw-r--r--"));
        expectFailure(37, "chmod 600", "server", "recipient", "--identity", identity.toString());
        expectFailure(37, "chmod 600", "serve", "--port", "0", "--identity", identity.toString());
    }

    private void expectFailure(int exit, String message, String... args) {
        Cli.Result r = cli.run(args);
        assertThat(r.exit()).as(r.err()).isEqualTo(exit);
        assertThat(r.err().strip()).contains(message).doesNotContain("\n").doesNotContain("Exception");
    }
}
