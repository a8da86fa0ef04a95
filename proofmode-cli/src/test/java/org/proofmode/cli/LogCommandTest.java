// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.server.LogPolicy;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.OpensslTsa;

/**
 * The transparency log as its users meet it on the command line: the server's key ({@code server log-key}),
 * a receipt checked offline by {@code verify --log-key}, and {@code log monitor} catching a log that
 * shrinks or changes an entry, against a real server on loopback.
 */
class LogCommandTest {
    @TempDir
    Path tmp;

    private Path home;
    private Cli cli;
    private ProofServer server;
    private String token;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        home = tmp.resolve("home");
        cli = new Cli(home);
        server = ProofServer.start(ServerConfig.defaults(home).withListen("127.0.0.1", 0));
        token = new TokenStore(server.database()).create("desk").secret();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url() {
        return "http://127.0.0.1:" + server.port();
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(b.header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Stores a bundle on the server, has it logged, and returns the bundle with its receipt added as {@code <h>.tlog}. */
    private Path logged(Path zip) throws Exception {
        return logged(server, token, zip, tmp);
    }

    /**
     * Stores a bundle on a server (with an upload token), has it logged, and returns a copy of the bundle in
     * {@code dir} with its receipt added as {@code <h>.tlog}.
     */
    static Path logged(ProofServer server, String token, Path zip, Path dir) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String url = "http://127.0.0.1:" + server.port();
        HttpResponse<byte[]> stored = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/evidence"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/zip")
                .POST(HttpRequest.BodyPublishers.ofFile(zip)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(stored.statusCode()).isEqualTo(201);
        server.integrateLog();
        HttpResponse<byte[]> receipt = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/evidence/" + Digests.sha256(zip) + "/receipt"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(receipt.statusCode()).isEqualTo(200);
        return withReceipt(zip, receipt.body(), dir);
    }

    /** A copy of a bundle in {@code dir} with {@code receipt} added as its proof's {@code <h>.tlog}. */
    private static Path withReceipt(Path zip, byte[] receipt, Path dir) throws IOException {
        Path out = dir.resolve("with-receipt-" + zip.getFileName());
        try (ZipFile in = new ZipFile(zip.toFile()); OutputStream os = Files.newOutputStream(out); ZipOutputStream z = new ZipOutputStream(os)) {
            String media = null;
            for (Enumeration<? extends ZipEntry> es = in.entries(); es.hasMoreElements();) {
                ZipEntry e = es.nextElement();
                z.putNextEntry(new ZipEntry(e.getName()));
                in.getInputStream(e).transferTo(z);
                z.closeEntry();
                if (e.getName().endsWith(".proof.json")) {
                    media = e.getName().substring(0, 64);
                }
            }
            z.putNextEntry(new ZipEntry(media + ".tlog"));
            z.write(receipt);
            z.closeEntry();
        }
        return out;
    }

    private static byte[] entry(Path zip, String suffix) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            ZipEntry e = z.stream().filter(x -> x.getName().endsWith(suffix)).findFirst().orElseThrow();
            return z.getInputStream(e).readAllBytes();
        }
    }

    @Test
    void verify_receiptOfAnotherSignersProof_ofTheSameMedia_isNotThisProofs() throws Exception {
        Path anna = logged(Cli.othersBundle(tmp, "anna", 1));
        byte[] receipt = entry(anna, ".tlog");
        String loggedAt = new String(receipt, StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("extra ")).findFirst()
                .map(l -> new String(java.util.Base64.getDecoder().decode(l.substring(6)), StandardCharsets.UTF_8)).orElseThrow()
                .lines().filter(l -> l.startsWith("time ")).findFirst().orElseThrow().substring(5);
        // Mallory proves the very same photo later with her own key, and ships Anna's receipt beside her proof.
        Cli mallory = new Cli(tmp.resolve("home-mallory")).env("PROOFMODE_PASSPHRASE", "mallory passphrase");
        Path photo = tmp.resolve("media-anna/anna1.jpg");
        assertThat(mallory.run("prove", photo.toString()).exit()).isZero();
        Path resigned = tmp.resolve("mallory.zip");
        assertThat(mallory.run("export", "--with-media", "-o", resigned.toString(), photo.toString()).exit()).isZero();
        Path forged = withReceipt(resigned, receipt, tmp);
        Cli desk = new Cli(tmp.resolve("desk-home"));

        Cli.Result r = desk.run("verify", "--log-key", server.logKey(), forged.toString());
        assertThat(r.exit()).as(r.out()).isEqualTo(3);
        assertThat(r.out()).contains("FAIL  tlog.entry.other-proof").contains("another proof of this media")
                .doesNotContain("tlog.inclusion.valid").doesNotContain(loggedAt);
        Cli.Result json = desk.run("verify", "--json", "--log-key", server.logKey(), forged.toString());
        assertThat(json.out()).contains("tlog.entry.other-proof").doesNotContain(loggedAt);
        // Anna's own bundle keeps its receipt and its time.
        Cli.Result own = desk.run("verify", "--log-key", server.logKey(), anna.toString());
        assertThat(own.out()).contains("PASS  tlog.inclusion.valid").contains("logged at " + loggedAt);
    }

    @Test
    void serverLogKey_isTheKeyTheServerSignsWith() throws Exception {
        Cli.Result r = cli.run("server", "log-key");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo(server.logKey());
        HttpResponse<byte[]> api = send(HttpRequest.newBuilder(URI.create(url() + "/api/v1/log/key")));
        assertThat(new String(api.body(), StandardCharsets.UTF_8)).isEqualTo(r.out());
    }

    @Test
    void defaultLogOrigin_isUniquePerInstallation_andAnExistingLogKeepsItsOrigin() throws Exception {
        org.proofmode.tlog.NoteKey made = org.proofmode.tlog.NoteKey.parse(server.logKey());
        String prefix = LogPolicy.hostName() + "/proofmode-log/";
        assertThat(made.name()).isEqualTo(prefix + Digests.sha256Hex(made.publicKey()).substring(0, 8));
        // Another installation on a machine of the same name: another origin.
        Cli.Result other = new Cli(tmp.resolve("other-home")).run("server", "log-key");
        assertThat(other.exit()).as(other.err()).isZero();
        assertThat(org.proofmode.tlog.NoteKey.parse(other.out().strip()).name()).startsWith(prefix).isNotEqualTo(made.name());
        assertThat(new Cli(tmp.resolve("named")).run("server", "log-key", "--log-origin", "desk.example/log").out()).startsWith("desk.example/log+");
        // A log made under the former default origin keeps it: its receipts and its monitors stay valid.
        Path before = tmp.resolve("before");
        String old = org.proofmode.server.LogKey.forLog(before).create(LogPolicy.hostName() + "/proofmode-log", Optional.empty()).verifierKey();
        server.close();
        server = ProofServer.start(ServerConfig.defaults(before).withListen("127.0.0.1", 0));
        assertThat(server.logKey()).isEqualTo(old);
        assertThat(new Cli(before).run("server", "log-key").out().strip()).isEqualTo(old);
    }

    @Test
    void verifyRequireWitnesses_failsUnlessTheReceiptIsCosignedByEnoughTrustedWitnesses() throws Exception {
        server.close();
        org.proofmode.server.LogKey witnessFiles = org.proofmode.server.LogKey.forWitness(tmp.resolve("witness-home"));
        org.proofmode.tlog.NoteKey witnessKey = witnessFiles.create("witness.example/w1", Optional.empty());
        Path serverHome = tmp.resolve("witnessed-home");
        org.proofmode.tlog.NoteKey logKey = org.proofmode.server.LogKey.forLog(serverHome).create("desk.example/log", Optional.empty());
        org.proofmode.tlog.Witness witness = new org.proofmode.tlog.Witness(witnessFiles.unlock(Optional.empty()), List.of(logKey),
                tmp.resolve("witness-state"), java.time.Clock.systemUTC());
        try (org.proofmode.server.WitnessServer w = org.proofmode.server.WitnessServer.start(witness, "127.0.0.1", 0)) {
            URI witnessUrl = URI.create("http://127.0.0.1:" + w.port());
            server = ProofServer.start(ServerConfig.defaults(serverHome).withListen("127.0.0.1", 0).withLog(new LogPolicy(Optional.empty(),
                    Optional.empty(), Duration.ofHours(1), List.of(new LogPolicy.WitnessRef(witnessKey, witnessUrl)), 1, Optional.empty())));
            token = new TokenStore(server.database()).create("desk").secret();
            Path unlogged = Cli.othersBundle(tmp, "anna", 1);
            Path bundle = logged(unlogged);
            Path witnesses = Files.writeString(tmp.resolve("witnesses"), "# the desk's witnesses\n" + witnessKey.verifierKey() + " " + witnessUrl + "\n");
            Cli desk = new Cli(tmp.resolve("desk-home"));

            Cli.Result without = desk.run("verify", "--log-key", logKey.verifierKey(), bundle.toString());
            assertThat(without.exit()).as(without.out()).isZero();
            Cli.Result unknown = desk.run("verify", "--log-key", logKey.verifierKey(), "--require-witnesses", "1", bundle.toString());
            assertThat(unknown.exit()).as(unknown.out()).isEqualTo(3);
            assertThat(unknown.out()).contains("FAIL  tlog.witnesses.insufficient").contains("cosigned by 0 trusted witnesses");
            Cli.Result one = desk.run("verify", "--log-key", logKey.verifierKey(), "--witnesses", witnesses.toString(),
                    "--require-witnesses", "1", bundle.toString());
            assertThat(one.exit()).as(one.out()).isZero();
            assertThat(one.out()).contains("PASS  tlog.inclusion.valid").contains("cosigned by witness.example/w1");
            Cli.Result asLogKey = desk.run("verify", "--log-key", logKey.verifierKey(), "--log-key", witnessKey.verifierKey(),
                    "--require-witnesses", "1", bundle.toString());
            assertThat(asLogKey.exit()).as(asLogKey.out()).isZero();
            Cli.Result two = desk.run("verify", "--log-key", logKey.verifierKey(), "--witnesses", witnesses.toString(),
                    "--require-witnesses", "2", bundle.toString());
            assertThat(two.exit()).isEqualTo(3);
            assertThat(two.out()).contains("FAIL  tlog.witnesses.insufficient").contains("asks for 2");
            Cli.Result none = desk.run("verify", "--log-key", logKey.verifierKey(), "--witnesses", witnesses.toString(),
                    "--require-witnesses", "1", unlogged.toString());
            assertThat(none.exit()).isEqualTo(3);
            assertThat(none.out()).contains("FAIL  tlog.witnesses.insufficient").contains("no transparency-log receipt");
            assertThat(desk.run("verify", "--require-witnesses", "-1", bundle.toString()).exit()).isEqualTo(37);
            assertThat(desk.run("verify", "--witnesses", tmp.resolve("absent").toString(), bundle.toString()).exit()).isEqualTo(61);
        }
    }

    @Test
    void verify_checksAReceiptOffline_againstTheLogKeysItTrusts() throws Exception {
        Path bundle = logged(Cli.othersBundle(tmp, "anna", 1));
        Path keyFile = Files.writeString(tmp.resolve("desk.key"), server.logKey() + "\n");
        server.close();
        Cli desk = new Cli(tmp.resolve("desk-home"));

        Cli.Result trusted = desk.run("verify", "--log-key", keyFile.toString(), bundle.toString());
        assertThat(trusted.exit()).as(trusted.out() + trusted.err()).isZero();
        assertThat(trusted.out()).contains("PASS  tlog.inclusion.valid").contains("entry 0 of 1 in ").contains("intake of bundle");

        Cli.Result inline = desk.run("verify", "--log-key", server.logKey(), bundle.toString());
        assertThat(inline.out()).contains("PASS  tlog.inclusion.valid");

        Cli.Result untrusted = desk.run("verify", bundle.toString());
        assertThat(untrusted.exit()).isZero();
        assertThat(untrusted.out()).contains("WARN  tlog.inclusion.untrusted").contains("--log-key");

        // A log key kept in the home is trusted like --log-key.
        Files.createDirectories(tmp.resolve("desk-home/log-keys"));
        Files.copy(keyFile, tmp.resolve("desk-home/log-keys/desk.key"));
        assertThat(desk.run("verify", bundle.toString()).out()).contains("PASS  tlog.inclusion.valid");

        // A receipt changed on the way: the proof is INVALID, and says why.
        Path damaged = tmp.resolve("damaged.zip");
        try (ZipFile in = new ZipFile(bundle.toFile()); OutputStream os = Files.newOutputStream(damaged); ZipOutputStream z = new ZipOutputStream(os)) {
            for (Enumeration<? extends ZipEntry> es = in.entries(); es.hasMoreElements();) {
                ZipEntry e = es.nextElement();
                z.putNextEntry(new ZipEntry(e.getName()));
                byte[] b = in.getInputStream(e).readAllBytes();
                z.write(e.getName().endsWith(".tlog") ? new String(b, StandardCharsets.UTF_8).replace("index 0", "index 1")
                        .getBytes(StandardCharsets.UTF_8) : b);
                z.closeEntry();
            }
        }
        Cli.Result invalid = desk.run("verify", "--log-key", keyFile.toString(), damaged.toString());
        assertThat(invalid.exit()).isEqualTo(3);
        assertThat(invalid.out()).contains("FAIL  tlog.inclusion.invalid").contains("entry 1 is past the checkpoint's 1 entries");

        Cli.Result bad = desk.run("verify", "--log-key", "desk+1234", bundle.toString());
        assertThat(bad.exit()).isEqualTo(37);
        assertThat(bad.err()).contains("not a verifier key");
        assertThat(desk.run("verify", "--log-key", tmp.resolve("none.key").toString(), bundle.toString()).exit()).isEqualTo(61);
        Files.writeString(tmp.resolve("desk-home/log-keys/broken.key"), "not a key\n");
        Cli.Result broken = desk.run("verify", bundle.toString());
        assertThat(broken.exit()).isEqualTo(41);
        assertThat(broken.err()).contains("broken.key is not a log's verifier key");
    }

    @Test
    void logMonitor_followsTheLog_andCatchesARollbackAndAChangedEntry() throws Exception {
        Path key = Files.writeString(tmp.resolve("desk.key"), server.logKey() + "\n");
        Cli monitor = new Cli(tmp.resolve("monitor-home"));
        logged(Cli.othersBundle(tmp, "anna", 1));

        Cli.Result first = monitor.run("log", "monitor", url(), "--log-key", key.toString());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("1 entry, all matching the signed tree");
        logged(Cli.othersBundle(tmp, "anna", 2));
        Cli.Result grew = monitor.run("log", "monitor", url(), "--log-key", key.toString());
        assertThat(grew.out()).contains("2 entries, 1 new, consistent with the 1 seen before");
        assertThat(monitor.run("log", "monitor", url(), "--log-key", key.toString()).out()).contains("2 entries, as before");

        // An entry changed in the database: a monitor that reads it is not fooled.
        try (Connection c = server.database().connection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE log_entries SET entry = REPLACE(entry, 'verdict VALID', 'verdict TRUSTED') WHERE idx = 1");
        }
        Cli.Result changed = new Cli(tmp.resolve("other-monitor")).run("log", "monitor", url(), "--log-key", key.toString());
        assertThat(changed.exit()).isEqualTo(3);
        assertThat(changed.err()).contains("invalid: entry 1 is not the leaf the signed tree holds");

        // The log rolled back to its first checkpoint.
        try (Connection c = server.database().connection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE log_state SET size = 1, checkpoint = (SELECT note FROM log_checkpoints WHERE size = 1)");
        }
        Cli.Result shrank = monitor.run("log", "monitor", url(), "--log-key", key.toString());
        assertThat(shrank.exit()).isEqualTo(3);
        assertThat(shrank.err()).contains("shrank: the log has 1 entry, 1 fewer than the checkpoint seen before");
        assertThat(shrank.out()).contains("checkpoint seen before").contains("checkpoint served now").containsPattern("\\n2\\n")
                .containsPattern("\\n1\\n");
        // The alarm stays: the checkpoint seen before is kept.
        assertThat(monitor.run("log", "monitor", url(), "--log-key", key.toString()).exit()).isEqualTo(3);
    }

    @Test
    void anchoredLog_monitorChecksTheCheckpointsTimeStamp() throws Exception {
        server.close();
        try (OpensslTsa tsa = OpensslTsa.start(tmp.resolve("tsa"), 0)) {
            server = ProofServer.start(ServerConfig.defaults(home).withListen("127.0.0.1", 0).withLog(new LogPolicy(Optional.empty(),
                    Optional.empty(), Duration.ofHours(1), List.of(), 0, Optional.of(tsa.url()))));
            logged(Cli.othersBundle(tmp, "anna", 1));
            Path key = Files.writeString(tmp.resolve("desk.key"), server.logKey() + "\n");
            Cli monitor = new Cli(tmp.resolve("monitor-home"));

            Cli.Result untrusted = monitor.run("log", "monitor", url(), "--log-key", key.toString());
            assertThat(untrusted.exit()).as(untrusted.err()).isZero();
            assertThat(untrusted.out()).contains("time-stamped 20").contains("(authority not trusted: --tsa-trust)");
            Cli.Result trusted = monitor.run("log", "monitor", url(), "--log-key", key.toString(), "--tsa-trust", tsa.caPem().toString());
            assertThat(trusted.out()).contains("(trusted)");
            assertThat(tsa.requests()).hasSize(1);

            // A token of something else (the checkpoint before) is refused.
            logged(Cli.othersBundle(tmp, "anna", 2));
            try (Connection c = server.database().connection(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE log_checkpoints SET timestamp_token = (SELECT timestamp_token FROM log_checkpoints WHERE size = 1) "
                        + "WHERE size = 2");
            }
            Cli.Result wrong = monitor.run("log", "monitor", url(), "--log-key", key.toString(), "--tsa-trust", tsa.caPem().toString());
            assertThat(wrong.exit()).isEqualTo(3);
            assertThat(wrong.err()).contains("the time-stamp of the checkpoint is invalid").contains("imprint mismatch");
        }
    }

    @Test
    void logKeep_putsTheReceiptBesideTheStoredProof_whereExportAndVerifyFindIt() throws Exception {
        Path zip = Cli.othersBundle(tmp, "anna", 1);
        logged(zip);
        Path receipt = Files.write(tmp.resolve("receipt.tlog"), send(HttpRequest.newBuilder(
                URI.create(url() + "/api/v1/evidence/" + Digests.sha256(zip) + "/receipt"))).body());
        Cli anna = new Cli(tmp.resolve("home-anna")).env("PROOFMODE_PASSPHRASE", "anna passphrase");
        Path media = tmp.resolve("media-anna/anna1.jpg");
        String h = Digests.sha256(media);

        Cli.Result kept = anna.run("log", "keep", receipt.toString());
        assertThat(kept.exit()).as(kept.err()).isZero();
        assertThat(kept.out()).isEqualTo(h + "  kept  " + receipt + "\n");
        assertThat(kept.err()).contains("no trusted log key").contains("log-keys");
        assertThat(tmp.resolve("home-anna/proofs/" + h + "/" + h + ".tlog")).hasSameBinaryContentAs(receipt);

        Files.createDirectories(tmp.resolve("home-anna/log-keys"));
        Files.writeString(tmp.resolve("home-anna/log-keys/desk.key"), server.logKey() + "\n");
        Cli.Result verified = anna.run("verify", media.toString());
        assertThat(verified.exit()).as(verified.out()).isZero();
        assertThat(verified.out()).contains("PASS  tlog.inclusion.valid");
        Path exported = tmp.resolve("export.zip");
        assertThat(anna.run("export", "--with-media", "-o", exported.toString(), media.toString()).exit()).isZero();
        try (ZipFile z = new ZipFile(exported.toFile())) {
            assertThat(z.getEntry(h + ".tlog")).isNotNull();
        }
        assertThat(new Cli(tmp.resolve("desk")).run("verify", "--log-key", server.logKey(), exported.toString()).out())
                .contains("PASS  tlog.inclusion.valid");

        // The receipt kept is from a trusted log: one from a log this home does not trust does not replace it.
        assertThat(anna.run("log", "keep", receipt.toString()).exit()).isZero();
        Path otherReceipt;
        String otherKey;
        try (ProofServer other = ProofServer.start(ServerConfig.defaults(tmp.resolve("other-server")).withListen("127.0.0.1", 0))) {
            String otherToken = new TokenStore(other.database()).create("desk").secret();
            String base = "http://127.0.0.1:" + other.port();
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence")).header("Authorization", "Bearer " + otherToken)
                    .header("Content-Type", "application/zip").POST(HttpRequest.BodyPublishers.ofFile(zip)).build(),
                    HttpResponse.BodyHandlers.ofByteArray()).statusCode()).isEqualTo(201);
            other.integrateLog();
            otherKey = other.logKey();
            otherReceipt = Files.write(tmp.resolve("other.tlog"), http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence/"
                    + Digests.sha256(zip) + "/receipt")).header("Authorization", "Bearer " + otherToken).build(),
                    HttpResponse.BodyHandlers.ofByteArray()).body());
        }
        Cli.Result refused = anna.run("log", "keep", otherReceipt.toString());
        assertThat(refused.exit()).isEqualTo(59);
        assertThat(refused.err()).contains(h + ": not kept from").contains("signed by the trusted log").contains("by no trusted log");
        assertThat(tmp.resolve("home-anna/proofs/" + h + "/" + h + ".tlog")).hasSameBinaryContentAs(receipt);
        // Trusted too, but another log: not kept either.
        Files.writeString(tmp.resolve("home-anna/log-keys/other.key"), otherKey + "\n");
        Cli.Result otherLog = anna.run("log", "keep", otherReceipt.toString());
        assertThat(otherLog.exit()).isEqualTo(59);
        assertThat(otherLog.err()).contains("is of another log");
        assertThat(tmp.resolve("home-anna/proofs/" + h + "/" + h + ".tlog")).hasSameBinaryContentAs(receipt);

        assertThat(anna.run("log", "keep", Files.writeString(tmp.resolve("junk.tlog"), "junk").toString()).exit()).isEqualTo(41);
        Cli.Result none = new Cli(tmp.resolve("empty-home")).run("log", "keep", receipt.toString());
        assertThat(none.exit()).isEqualTo(61);
        assertThat(none.err()).contains("no stored proof of the media these receipts name");
    }

    @Test
    void logMonitor_aDeletedRow_leavesTheLogUnreadable_andTheMonitorSaysSo() throws Exception {
        Path key = Files.writeString(tmp.resolve("desk.key"), server.logKey() + "\n");
        logged(Cli.othersBundle(tmp, "anna", 1));
        logged(Cli.othersBundle(tmp, "anna", 2));
        try (Connection c = server.database().connection(); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM log_entries WHERE idx = 0");
        }
        Cli.Result r = new Cli(tmp.resolve("monitor-home")).run("log", "monitor", url(), "--log-key", key.toString());
        assertThat(r.exit()).isEqualTo(47);
        assertThat(r.err()).contains("log/tile/entries/000.p/2");
    }

    @Test
    void logMonitor_badInput_documentedExitCodes() throws Exception {
        Path key = Files.writeString(tmp.resolve("desk.key"), server.logKey() + "\n");
        assertThat(cli.run("log", "monitor", url()).exit()).isEqualTo(19);
        Cli.Result notUrl = cli.run("log", "monitor", "desk", "--log-key", key.toString());
        assertThat(notUrl.exit()).isEqualTo(37);
        assertThat(notUrl.err()).contains("not an http or https URL");
        Cli.Result down = cli.run("log", "monitor", "http://127.0.0.1:1", "--log-key", key.toString());
        assertThat(down.exit()).isEqualTo(47);
        Cli.Result otherKey = cli.run("log", "monitor", url(), "--log-key",
                org.proofmode.server.LogKey.forLog(tmp.resolve("elsewhere")).create("other.example/log", java.util.Optional.empty()).verifierKey());
        assertThat(otherKey.exit()).isEqualTo(3);
        assertThat(otherKey.err()).contains("not signed by the log key");
        assertThat(cli.run("log", "--help").out()).contains("monitor");
    }

    @Test
    void witnessKey_andWitnessOptions_badInputHaveDocumentedExitCodes() throws Exception {
        Cli witness = new Cli(tmp.resolve("witness-home"));
        Cli.Result key = witness.run("log", "witness", "--print-key", "--name", "witness.example/w1");
        assertThat(key.exit()).as(key.err()).isZero();
        org.proofmode.tlog.NoteKey k = org.proofmode.tlog.NoteKey.parse(key.out().strip());
        assertThat(k.cosigner()).isTrue();
        assertThat(k.name()).isEqualTo("witness.example/w1");
        assertThat(witness.run("log", "witness", "--print-key").out()).isEqualTo(key.out());
        assertThat(tmp.resolve("witness-home/witness/key/key.pem")).content().startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        Cli.Result nothing = witness.run("log", "witness", "--port", "0");
        assertThat(nothing.exit()).isEqualTo(19);
        assertThat(nothing.err()).contains("--follow KEY");
        assertThat(witness.run("log", "witness", "--port", "70000", "--follow", server.logKey()).exit()).isEqualTo(37);

        Path list = Files.writeString(tmp.resolve("witnesses"), "# the desk's witnesses\n" + key.out().strip() + " http://127.0.0.1:9/\n");
        Cli.Result quorum = cli.run("serve", "--port", "0", "--witnesses", list.toString(), "--witness-quorum", "2");
        assertThat(quorum.exit()).isEqualTo(37);
        assertThat(quorum.err()).contains("--witness-quorum is 0 to the number of witnesses (1)");
        assertThat(cli.run("serve", "--port", "0", "--witnesses", tmp.resolve("none").toString()).exit()).isEqualTo(61);
        Path logKeyAsWitness = Files.writeString(tmp.resolve("wrong"), server.logKey() + " http://127.0.0.1:9/\n");
        Cli.Result wrong = cli.run("serve", "--port", "0", "--witnesses", logKeyAsWitness.toString());
        assertThat(wrong.exit()).isEqualTo(41);
        assertThat(wrong.err()).contains("line 1").contains("witness cosignature key");
        assertThat(cli.run("serve", "--help").out()).contains("--witnesses", "--witness-quorum", "--log-origin");
    }
}
