// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.CalendarStub;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.OpensslTsa;
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

    /**
     * Everything that adds to stored sets or queues work, in an encrypted home: {@code prove --tsa} while the
     * authority is down (queued, sealed, without unlocking the store), {@code timestamp sync} once it is up,
     * {@code timestamp --calendar}, {@code prove --tsa} online, {@code redact}, {@code notarize},
     * {@code publish} to a real evidence server and, with it away, queued; {@code log keep} of the server's
     * receipt. Then no name or byte in the home holds a media hash (hex or base64), the camera's make or
     * model, the coordinates or a file name; every sealed object and queue item opens with Debian's
     * {@code age}, and the proof files {@code export} gives (tokens, OpenTimestamps proof, receipt,
     * redaction record) are among them byte for byte; and the proofs verify with their timestamps and receipt.
     */
    @Test
    void encryptedHome_timestampsRedactionNotarizationPublishingAndReceipts_staySealed() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        assertOk(pm.run("keys", "create", "--encrypt-store"));
        assertOk(pm.run("settings", "set", "gpsd.port", "1"));
        Path market = taggedPhoto("market.jpg", 1);
        Path harbour = taggedPhoto("harbour.jpg", 2);
        Path street = taggedPhoto("street.jpg", 3);
        Path redacted = dir.resolve("redacted-copy.jpg");
        int tsaPort;
        try (ServerSocket s = new ServerSocket(0)) {
            tsaPort = s.getLocalPort();
        }
        String tsaUrl = "http://127.0.0.1:" + tsaPort + "/tsr";

        ProcessResult offline = pm.run("prove", "--location", "--device-ids", "--tsa", tsaUrl, market.toString(), harbour.toString());
        assertOk(offline);
        assertThat(offline.stderr()).contains("queued");
        Path stampQueue = pm.home().resolve("timestamp-queue");
        assertThat(sealedItems(stampQueue)).hasSize(2);

        Path tsaCa;
        try (OpensslTsa tsa = OpensslTsa.start(dir.resolve("tsa"), tsaPort); CalendarStub calendar = CalendarStub.start(0)) {
            tsaCa = tsa.caPem();
            ProcessResult sync = pm.run("timestamp", "sync", "--now");
            assertOk(sync);
            assertThat(sync.stdout()).contains(TestMedia.sha256(market) + "  rfc3161  stamped").contains(TestMedia.sha256(harbour) + "  rfc3161  stamped");
            assertThat(sealedItems(stampQueue)).isEmpty();
            ProcessResult ots = pm.run("timestamp", "--calendar", calendar.url().toString(), market.toString());
            assertOk(ots);
            assertThat(ots.stdout()).contains("ots  stamped");
            ProcessResult online = pm.run("prove", "--tsa", tsaUrl, street.toString());
            assertOk(online);
            // Stamped at once (its token is among the exported files below): the new set was read back without the identity.
            assertThat(online.stderr()).doesNotContain("queued");
            assertThat(sealedItems(stampQueue)).isEmpty();
        }

        assertOk(pm.run("redact", "--blur", "10,10,60,60", "-o", redacted.toString(), market.toString()));
        ProcessResult notarized = pm.run("notarize", harbour.toString());
        assertOk(notarized);
        assertThat(notarized.stdout()).contains(TestMedia.sha256(harbour));

        Path receipt = dir.resolve("market-receipt.tlog");
        String uploadToken;
        try (ProofServer server = ProofServer.start(ServerConfig.defaults(dir.resolve("server")).withListen("127.0.0.1", 0))) {
            String token = new TokenStore(server.database()).create("desk").secret();
            uploadToken = token;
            Path tokenFile = Files.writeString(dir.resolve("token"), token);
            assertOk(pm.run("publish", "login", "--token-file", tokenFile.toString(), "http://127.0.0.1:" + server.port()));
            ProcessResult published = pm.run("publish", "--proof-only", market.toString());
            assertOk(published);
            assertThat(published.stdout()).startsWith(TestMedia.sha256(market) + "  published  ");
            String bundle = published.stdout().substring(published.stdout().lastIndexOf('/') + 1).strip();
            server.integrateLog();
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/api/v1/evidence/" + bundle + "/receipt")).header("Authorization", "Bearer " + token).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            Files.write(receipt, r.body());
            Files.createDirectories(pm.home().resolve("log-keys"));
            Files.writeString(pm.home().resolve("log-keys").resolve("desk.key"), server.logKey() + "\n");
        }
        ProcessResult queued = pm.run("publish", "--proof-only", harbour.toString());
        assertOk(queued);
        assertThat(queued.stdout()).startsWith(TestMedia.sha256(harbour) + "  queued  ");
        assertThat(sealedItems(pm.home().resolve("publish-queue"))).hasSize(1);
        ProcessResult kept = pm.run("log", "keep", receipt.toString());
        assertOk(kept);
        assertThat(kept.stdout()).isEqualTo(TestMedia.sha256(market) + "  kept  " + receipt + "\n");

        Map<String, Path> media = Map.of("market", market, "harbour", harbour, "street", street, "redacted-copy", redacted);
        // the upload token is sealed to the store too (publish/token.age)
        List<String> secrets = new ArrayList<>(List.of("Zeiss Testcam", "XQ-77 Mark II", "52.5162", "13.3777", uploadToken.substring(3)));
        for (Map.Entry<String, Path> m : media.entrySet()) {
            byte[] digest = Digests.newSha256().digest(Files.readAllBytes(m.getValue()));
            String hex = TestMedia.sha256(m.getValue());
            secrets.addAll(List.of(m.getValue().getFileName().toString(), hex, hex.toUpperCase(Locale.ROOT), Base64.getEncoder().withoutPadding().encodeToString(digest),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(digest)));
        }
        List<Path> all = hidesAll(pm.home(), secrets);

        Path identity = dir.resolve("identity.txt");
        assertOk(pm.run("keys", "export-identity", "--plain", "-o", identity.toString()));
        Path age = ExternalTool.require("age");
        List<byte[]> opened = new ArrayList<>();
        for (Path p : all) {
            if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".age") && !p.startsWith(pm.home().resolve("keys"))) {
                Path out = dir.resolve("opened-" + opened.size());
                ProcessResult r = ExternalTool.run(List.of(age.toString(), "-d", "-i", identity.toString(), "-o", out.toString(), p.toString()),
                        Map.of(), TIMEOUT);
                assertThat(r.exitCode()).as(r.describe()).isZero();
                opened.add(Files.readAllBytes(out));
            }
        }
        String m = TestMedia.sha256(market);
        String c = TestMedia.sha256(redacted);
        Map<String, byte[]> exported = new HashMap<>();
        for (Path f : List.of(market, redacted, harbour, street)) {
            Path zip = dir.resolve("export-" + f.getFileName() + ".zip");
            assertOk(pm.run("export", "--proof-only", "-o", zip.toString(), f.toString()));
            exported.putAll(unzip(zip));
        }
        assertThat(exported).containsKeys(m + ".tsr", m + ".ots", m + ".tlog", c + ".redaction.json", c + ".redaction.json.asc",
                TestMedia.sha256(harbour) + ".tsr", TestMedia.sha256(street) + ".tsr");
        assertThat(exported.get(m + ".tlog")).isEqualTo(Files.readAllBytes(receipt));
        for (Map.Entry<String, byte[]> e : exported.entrySet()) {
            if (!e.getKey().equals("HowToVerifyProofData.txt")) {
                assertThat(opened).as(e.getKey()).anySatisfy(d -> assertThat(d).isEqualTo(e.getValue()));
            }
        }
        assertThat(opened).anySatisfy(d -> assertThat(new String(d, StandardCharsets.UTF_8)).contains("\"sha256\" : \"" + TestMedia.sha256(harbour))
                .contains("\"what\" : \"proof-only\""));

        ProcessResult verified = pm.run("verify", "--tsa-trust", tsaCa.toString(), market.toString());
        assertOk(verified);
        assertThat(verified.stdout()).contains("PASS  timestamp.rfc3161.valid").contains("PASS  tlog.inclusion.valid");
        ProcessResult copy = pm.run("verify", "--tsa-trust", tsaCa.toString(), redacted.toString());
        assertOk(copy);
        assertThat(copy.stdout()).contains("PASS  redaction.record.valid");
        assertOk(pm.run("verify", "--tsa-trust", tsaCa.toString(), street.toString()));
    }

    /** The sealed items of a queue folder, each named at random. */
    private static List<Path> sealedItems(Path queue) throws IOException {
        if (!Files.isDirectory(queue)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(queue)) {
            List<Path> items = s.toList();
            assertThat(items).allSatisfy(p -> assertThat(p.getFileName().toString()).matches("[0-9a-f]{32}\\.age"));
            return items;
        }
    }

    /** Checks that no name and no byte in the home holds any of the secrets; returns every path there. */
    private static List<Path> hidesAll(Path home, List<String> secrets) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(home)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            String raw = Files.isRegularFile(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
            for (String secret : secrets) {
                assertThat(p.getFileName().toString()).as(p.toString()).doesNotContain(secret);
                assertThat(raw).as(p + " holds " + secret).doesNotContain(secret);
            }
        }
        return all;
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
