// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The encrypted store, read by Debian's {@code age}: every object of a stored set decrypts with the
 * exported identity to exactly the proof files {@code export} gives; the exported sealed identity opens
 * with the passphrase; after proving a photo with location and camera details, no name or byte in the home
 * holds the media hash, the camera's make or model or the coordinates; a wrong passphrase is exit 67, a
 * damaged object its own error (exit 41) while the other proofs still verify, and after
 * {@code wipe --keys} nothing can be read.
 */
class EncryptedStoreIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void encryptedHome_hidesWhatWasProved_andAgeReadsEveryObject() throws IOException {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        assertOk(pm.run("keys", "create"));
        assertOk(pm.run("settings", "set", "gpsd.port", "1"));
        ProcessResult enc = pm.run("keys", "encrypt-store");
        assertOk(enc);
        assertThat(enc.stdout()).matches("(?s)recipient: +age1[0-9a-z]{58}\\n");
        Path photo = taggedPhoto("market.jpg", 1);
        Path other = taggedPhoto("harbour.jpg", 2);
        String h = TestMedia.sha256(photo);

        assertOk(pm.run("prove", "--location", "--device-ids", photo.toString(), other.toString()));

        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(pm.home())) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            assertThat(p.getFileName().toString()).as(p.toString()).doesNotContain(h).doesNotContain("market");
            if (Files.isRegularFile(p)) {
                String raw = Files.readString(p, StandardCharsets.ISO_8859_1);
                assertThat(raw).as(p.toString()).doesNotContain(h).doesNotContain(h.toUpperCase(java.util.Locale.ROOT))
                        .doesNotContain("Zeiss Testcam").doesNotContain("XQ-77 Mark II").doesNotContain("52.5162").doesNotContain("13.3777")
                        .doesNotContain("market.jpg");
            }
        }

        ProcessResult verified = pm.run("verify", photo.toString());
        assertThat(verified.exitCode()).as(verified.describe()).isZero();
        assertThat(verified.stdout()).contains("Zeiss Testcam");

        Path zip = dir.resolve("export.zip");
        assertOk(pm.run("export", "--proof-only", "-o", zip.toString(), photo.toString()));
        Map<String, byte[]> exported = unzip(zip);
        assertThat(exported).containsKeys(h + ".proof.json", h + ".asc", "pubkey.asc");

        Path identity = dir.resolve("identity.txt");
        ProcessResult plain = pm.run("keys", "export-identity", "--plain", "-o", identity.toString());
        assertOk(plain);
        assertThat(plain.stderr()).contains("WARNING").contains("in the clear");
        Path age = ExternalTool.require("age");
        int matched = 0;
        Map<String, byte[]> decrypted = new HashMap<>();
        for (Path p : all) {
            if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".age") && p.startsWith(pm.home().resolve("proofs"))) {
                Path out = dir.resolve("out-" + decrypted.size());
                ProcessResult r = ExternalTool.run(List.of(age.toString(), "-d", "-i", identity.toString(), "-o", out.toString(), p.toString()),
                        Map.of(), TIMEOUT);
                assertThat(r.exitCode()).as(r.describe()).isZero();
                decrypted.put(p.toString(), Files.readAllBytes(out));
            }
        }
        for (Map.Entry<String, byte[]> e : exported.entrySet()) {
            if (!e.getKey().equals("HowToVerifyProofData.txt")) {
                assertThat(decrypted.values()).as(e.getKey()).anySatisfy(d -> assertThat(d).isEqualTo(e.getValue()));
                matched++;
            }
        }
        assertThat(matched).isGreaterThanOrEqualTo(6);
        assertThat(decrypted.values()).anySatisfy(d -> assertThat(new String(d, StandardCharsets.UTF_8)).startsWith("proofmode-sealed-set 1\nsha256 " + h));

        Path sealed = dir.resolve("store-identity.age");
        assertOk(pm.run("keys", "export-identity", "-o", sealed.toString()));
        Path opened = dir.resolve("opened.txt");
        ProcessResult withPassphrase = ExternalTool.run(List.of("sh", "-c", "printf '%s\\n' \"$PASS\" | " + ExternalTool.require("script")
                + " -qec \"" + age + " -d -o " + opened + " " + sealed + "\" /dev/null"), Map.of("PASS", ProofModeJar.PASSPHRASE), TIMEOUT);
        assertThat(withPassphrase.exitCode()).as(withPassphrase.describe()).isZero();
        // The same identity; only the comment saying when the text was written differs.
        assertThat(Files.readString(opened).replaceFirst("# created: \\S+\n", ""))
                .isEqualTo(Files.readString(identity).replaceFirst("# created: \\S+\n", ""))
                .contains("AGE-SECRET-KEY-1");
    }

    @Test
    void wrongPassphrase_damagedObject_andWipedKeys_eachSayWhatHappened() throws IOException {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        assertOk(pm.run("keys", "create"));
        assertOk(pm.run("keys", "encrypt-store"));
        Path photo = taggedPhoto("a.jpg", 3);
        Path other = taggedPhoto("b.jpg", 4);
        assertOk(pm.run("prove", photo.toString()));

        ProcessResult stamped = pm.run("prove", "--timestamp", other.toString());
        assertThat(stamped.exitCode()).as(stamped.describe()).isEqualTo(13);
        assertThat(stamped.stderr()).contains("timestamps of proofs in an encrypted store are not supported yet");

        ProcessResult wrong = pm.withPassphrase("not the passphrase").run("verify", photo.toString());
        assertThat(wrong.exitCode()).as(wrong.describe()).isEqualTo(67);
        assertThat(wrong.stderr()).contains("store-identity.age: wrong passphrase");

        Path set;
        try (Stream<Path> s = Files.list(pm.home().resolve("proofs"))) {
            set = s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertOk(pm.run("prove", other.toString()));
        Path object = set.resolve("0.age");
        byte[] b = Files.readAllBytes(object);
        b[b.length - 3] ^= 0x40;
        Files.write(object, b);
        ProcessResult damaged = pm.run("verify", photo.toString());
        assertThat(damaged.exitCode()).as(damaged.describe()).isEqualTo(41);
        assertThat(damaged.stderr()).contains(object + ": damaged age object");
        assertOk(pm.run("verify", other.toString()));

        ProcessResult wipe = pm.run("wipe", "--keys", "--yes");
        assertOk(wipe);
        assertThat(wipe.stderr()).contains("every proof stored in").contains("is unreadable from now on");
        ProcessResult after = pm.run("verify", other.toString());
        assertThat(after.exitCode()).as(after.describe()).isEqualTo(67);
        assertThat(after.stderr()).contains("keys were wiped");
    }

    private static void assertOk(ProcessResult r) {
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }

    private static Map<String, byte[]> unzip(Path zip) throws IOException {
        Map<String, byte[]> out = new HashMap<>();
        try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                out.put(e.getName(), z.readAllBytes());
            }
        }
        return out;
    }

    private Path taggedPhoto(String name, int seed) throws IOException {
        BufferedImage img = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(new Color(40 * seed, 120, 255 - 40 * seed));
        g.fillRect(0, 0, 320, 200);
        g.setColor(Color.YELLOW);
        g.fillOval(20 * seed, 40, 120, 120);
        g.dispose();
        Path photo = dir.resolve(name);
        ImageIO.write(img, "jpeg", photo.toFile());
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("exiftool").toString(), "-q", "-overwrite_original",
                "-Make=Zeiss Testcam", "-Model=XQ-77 Mark II", "-GPSLatitude=52.5162", "-GPSLatitudeRef=N", "-GPSLongitude=13.3777",
                "-GPSLongitudeRef=E", photo.toString()), Map.of(), TIMEOUT);
        assertOk(r);
        return photo;
    }
}
