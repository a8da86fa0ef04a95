// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.media.Digests;
import org.proofmode.prove.Notarization;
import org.proofmode.testkit.GoTlogCheck;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.tlog.Checkpoint;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.Merkle;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.tlog.Tiles;
import org.proofmode.tlog.TlogProof;
import org.proofmode.tlog.Witness;

/**
 * The evidence server's transparency log, read as an outsider reads it: over HTTP, knowing only the log
 * key, by our own checker and by Go's reference implementation ({@code tlog-check -url}); and rewritten
 * behind the server's back, which both must catch.
 */
class TransparencyLogTest {
    @TempDir
    static Path goDir;

    @TempDir
    Path tmp;

    private static GoTlogCheck go;

    @BeforeAll
    static void buildChecker() {
        go = GoTlogCheck.build(goDir);
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static HttpResponse<byte[]> raw(TestServer srv, String path) throws IOException, InterruptedException {
        return srv.http.send(HttpRequest.newBuilder(srv.uri(path)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static NoteKey key(TestServer srv) throws Exception {
        HttpResponse<byte[]> r = raw(srv, "/api/v1/log/key");
        assertThat(r.statusCode()).isEqualTo(200);
        return NoteKey.parse(text(r).strip());
    }

    /** The current checkpoint, opened with the log key. */
    private static Checkpoint checkpoint(TestServer srv, NoteKey key) throws Exception {
        SignedNote.Opened n = SignedNote.open(raw(srv, "/log/checkpoint").body(), List.of(key));
        assertThat(n.trusted()).isTrue();
        return Checkpoint.parse(n.text());
    }

    private ProcessResult goCheck(TestServer srv, NoteKey key, Path old, Path... receipts) {
        return go.remote("http://127.0.0.1:" + srv.server.port(), key.verifierKey(), old, List.of(receipts));
    }

    @Test
    void intakeCustodyAndNotarization_appendEntries_andAReceiptConvincesACheckerThatKnowsOnlyTheKey() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            String token = srv.token("desk");
            NoteKey key = key(srv);
            assertThat(checkpoint(srv, key).size()).isZero();

            Path zip = TestBundles.good(tmp.resolve("good"));
            JsonNode stored = json(srv.postZip("/api/v1/evidence", TestBundles.read(zip), Optional.of(token)));
            String sha = stored.get("sha256").asText();
            assertThat(stored.at("/log/state").asText()).isEqualTo("queued");
            assertProblem(srv.get("/api/v1/evidence/" + sha + "/receipt", Optional.of(token)), 404, "not-found");

            srv.server.integrateLog();
            JsonNode item = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
            assertThat(item.at("/log/state").asText()).isEqualTo("included");
            assertThat(item.at("/log/index").asLong()).isZero();
            HttpResponse<String> receiptAnswer = srv.get("/api/v1/evidence/" + sha + "/receipt", Optional.of(token));
            assertThat(receiptAnswer.statusCode()).isEqualTo(200);
            assertThat(receiptAnswer.body()).isEqualTo(item.at("/log/receipt").asText());

            // Offline, with nothing but the log key: the receipt's entry is in the signed tree.
            TlogProof receipt = TlogProof.parse(receiptAnswer.body().getBytes(StandardCharsets.UTF_8));
            LogEntry entry = LogEntry.parse(receipt.extra().orElseThrow());
            assertThat(receipt.check(entry.leafHash(), List.of(key)).outcome()).isEqualTo(TlogProof.Outcome.VALID);
            assertThat(entry.kind()).isEqualTo("intake");
            assertThat(entry.bundle()).contains(sha);
            assertThat(entry.verdict()).contains(stored.get("verdict").asText());
            assertThat(entry.media()).containsExactly(item.at("/proofs/0/mediaSha256").asText());
            assertThat(entry.custody()).contains(item.at("/custodyChain/head").asText());
            assertThat(new String(entry.encoded(), StandardCharsets.UTF_8)).doesNotContain("bundle-1.zip", "desk", "127.0.0.1");
            // Another log's key proves nothing.
            NoteKey stranger = LogKey.forLog(tmp.resolve("other-home")).create(key.name(), Optional.empty());
            assertThat(receipt.check(entry.leafHash(), List.of(stranger)).outcome()).isEqualTo(TlogProof.Outcome.UNTRUSTED);
            Path receiptFile = Files.write(tmp.resolve(sha + ".tlog"), receiptAnswer.body().getBytes(StandardCharsets.UTF_8));
            Path firstCheckpoint = Files.write(tmp.resolve("checkpoint-1"), raw(srv, "/log/checkpoint").body());

            // Custody events and a notarization text append entries too; a checkpoint covers them.
            assertThat(srv.get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token)).statusCode()).isEqualTo(200);
            assertThat(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/reverify"))
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(200);
            String note = Notarization.text("c".repeat(64), ProofMode.at(tmp.resolve("good").resolve("signer-home")).keys().info().fingerprint(),
                    Instant.now());
            assertThat(srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/notarizations")).header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(note))).statusCode()).isEqualTo(201);
            srv.server.integrateLog();
            Checkpoint now = checkpoint(srv, key);
            assertThat(now.size()).isEqualTo(4);
            byte[] bundle = raw(srv, "/log/tile/entries/000.p/4").body();
            List<LogEntry> entries = Tiles.readEntryBundle(bundle, 4).stream().map(TransparencyLogTest::entry).toList();
            assertThat(entries).extracting(LogEntry::kind).containsExactly("intake", "download", "reverify", "notarization");
            assertThat(entries.get(3).notarization()).contains(Digests.sha256Hex(note.strip().getBytes(StandardCharsets.UTF_8)));
            assertThat(entries.get(3).media()).containsExactly("c".repeat(64));
            JsonNode after = json(srv.get("/api/v1/evidence/" + sha, Optional.of(token)));
            assertThat(entries.get(2).custody()).contains(after.at("/custodyChain/head").asText());

            // Our own reading of the tiles gives the signed root.
            Merkle.Nodes fromTiles = Tiles.nodes(now.size(), t -> {
                try {
                    return raw(srv, "/log/" + t.path()).body();
                } catch (IOException | InterruptedException e) {
                    throw new UncheckedIOException(new IOException(e));
                }
            });
            assertThat(Merkle.root(now.size(), fromTiles)).isEqualTo(now.rootHash());

            // Go's reference: the tree from the tiles, every entry, the first checkpoint and the receipt.
            ProcessResult r = goCheck(srv, key, firstCheckpoint, receiptFile);
            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(r.stdout()).isEqualTo("ok 4\n");
        }
    }

    private static LogEntry entry(byte[] b) {
        try {
            return LogEntry.parse(b);
        } catch (org.proofmode.tlog.NoteFormatException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void logApi_isPublicImmutableAndBounded() throws Exception {
        try (TestServer srv = TestServer.start(tmp.resolve("home"), Optional.empty())) {
            String token = srv.token("desk");
            srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(tmp.resolve("good"))), Optional.of(token));
            srv.server.integrateLog();

            HttpResponse<byte[]> tile = raw(srv, "/log/tile/0/000.p/1");
            assertThat(tile.statusCode()).isEqualTo(200);
            assertThat(tile.body()).hasSize(32);
            assertThat(tile.headers().firstValue("Cache-Control")).contains("public, max-age=31536000, immutable");
            assertThat(raw(srv, "/log/checkpoint").headers().firstValue("Cache-Control")).contains("public, max-age=2");
            assertThat(raw(srv, "/log/tile/entries/000.p/1").statusCode()).isEqualTo(200);
            for (String missing : List.of("/log/tile/0/000.p/2", "/log/tile/0/000", "/log/tile/1/000.p/1", "/log/tile/entries/001.p/1",
                    "/log/tile/0/0", "/log/tile/9/000", "/log/nothing", "/log/tile/0/000.p/1/../../checkpoint",
                    "/log/tile/0/x999/x999/x999/x999/x999/999", "/log/tile/entries/x999/x999/x999/x999/x999/999.p/1",
                    "/log/timestamp/0", "/log/timestamp/-1", "/log/timestamp/99999999999999999999", "/log/timestamp/9999999999999999999")) {
                HttpResponse<String> r = srv.get(missing, Optional.empty());
                assertThat(r.statusCode()).as(missing).isEqualTo(404);
            }
        }
    }

    @Test
    void rewritingHistory_isCaught_byTheReferenceCheckerAndByReceipts() throws Exception {
        Path home = tmp.resolve("home");
        try (TestServer srv = TestServer.start(home, Optional.empty())) {
            String token = srv.token("desk");
            String sha = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(tmp.resolve("good"))),
                    Optional.of(token))).get("sha256").asText();
            srv.get("/api/v1/evidence/" + sha + "/bundle", Optional.of(token));
            srv.server.integrateLog();
            NoteKey key = key(srv);
            Path receipt = Files.write(tmp.resolve("receipt.tlog"), srv.get("/api/v1/evidence/" + sha + "/receipt",
                    Optional.of(token)).body().getBytes(StandardCharsets.UTF_8));
            Path before = Files.write(tmp.resolve("before"), raw(srv, "/log/checkpoint").body());
            assertThat(goCheck(srv, key, before, receipt).exitCode()).isZero();

            // An entry edited in the database no longer is the leaf the tree holds.
            srv.update("UPDATE log_entries SET entry = REPLACE(entry, 'kind download', 'kind reverify') WHERE idx = ?", "1");
            ProcessResult edited = goCheck(srv, key, before);
            assertThat(edited.exitCode()).as(edited.describe()).isEqualTo(1);
            assertThat(edited.stdout()).contains("entry 1 is not the tree's leaf 1");
            srv.update("UPDATE log_entries SET entry = REPLACE(entry, 'kind reverify', 'kind download') WHERE idx = ?", "1");

            // The operator rewrites the log whole: drops the download, puts a made-up entry in its place and
            // signs the new tree with the real key. The tree is well formed, but not consistent with what a
            // client saw before: the older checkpoint and the receipt's both give it away.
            try (Connection c = srv.db().connection(); Statement st = c.createStatement()) {
                String intake;
                try (ResultSet rs = st.executeQuery("SELECT entry FROM log_entries WHERE idx = 0")) {
                    rs.next();
                    intake = rs.getString(1);
                }
                st.executeUpdate("DELETE FROM log_entries");
                st.executeUpdate("DELETE FROM log_hashes");
                st.executeUpdate("DELETE FROM log_checkpoints WHERE size > 0");
                st.executeUpdate("UPDATE log_state SET size = 0, root = '" + Digests.sha256Hex(new byte[0])
                        + "', checkpoint = (SELECT note FROM log_checkpoints WHERE size = 0)");
                LogEntry forged = new LogEntry("notarization", Optional.empty(), Optional.of("d".repeat(64)), List.of(), List.of(),
                        Optional.empty(), "2020-01-01T00:00:00.000Z", Optional.empty());
                for (String e : List.of(intake, new String(forged.encoded(), StandardCharsets.UTF_8))) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_queue (entry) VALUES (?)")) {
                        ps.setString(1, e);
                        ps.executeUpdate();
                    }
                }
            }
            srv.server.integrateLog();
            assertThat(checkpoint(srv, key).size()).isEqualTo(2);
            ProcessResult alone = goCheck(srv, key, null);
            assertThat(alone.exitCode()).as("a rewritten log is well formed on its own: " + alone.describe()).isZero();
            ProcessResult seen = goCheck(srv, key, before);
            assertThat(seen.exitCode()).as(seen.describe()).isEqualTo(1);
            assertThat(seen.stdout()).contains("the older checkpoint is not consistent with the current checkpoint");
            ProcessResult held = goCheck(srv, key, null, receipt);
            assertThat(held.exitCode()).as(held.describe()).isEqualTo(1);
            assertThat(held.stdout()).contains("receipt.tlog's checkpoint is not consistent with the current checkpoint");
        }
    }

    @Test
    void anInstanceWithAnotherLogKey_refusesTheDatabase() throws Exception {
        Path shared = tmp.resolve("shared.db");
        ServerConfig first = ServerConfig.defaults(tmp.resolve("a")).withListen("127.0.0.1", 0).withJdbcUrl(Optional.of("jdbc:sqlite:" + shared));
        try (TestServer a = TestServer.start(first)) {
            assertThat(a.server.port()).isPositive();
        }
        ServerConfig second = ServerConfig.defaults(tmp.resolve("b")).withListen("127.0.0.1", 0).withJdbcUrl(Optional.of("jdbc:sqlite:" + shared));
        assertThatThrownBy(() -> TestServer.start(second)).isInstanceOf(ProofModeException.class)
                .hasMessageContaining("every instance on one database needs the same log key")
                .extracting(e -> ((ProofModeException) e).failure()).isEqualTo(Failure.BAD_ARGUMENT);
    }

    @Test
    void aChosenPassphrase_protectsTheLogKey_andAWrongOneIsRefused() throws Exception {
        Path pass = Files.writeString(tmp.resolve("log-pass"), "correct horse battery staple\n");
        ServerConfig config = ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0)
                .withLog(new LogPolicy(Optional.of("evidence.example.org/log"), Optional.of(pass), java.time.Duration.ofSeconds(1)));
        try (TestServer srv = TestServer.start(config)) {
            assertThat(key(srv).name()).isEqualTo("evidence.example.org/log");
        }
        assertThat(LogKey.forLog(tmp.resolve("home")).dir().resolve("passphrase")).doesNotExist();
        assertThat(Files.readString(LogKey.forLog(tmp.resolve("home")).dir().resolve("key.pem"))).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        Files.writeString(pass, "wrong\n");
        assertThatThrownBy(() -> TestServer.start(config)).isInstanceOf(ProofModeException.class)
                .extracting(e -> ((ProofModeException) e).failure()).isEqualTo(Failure.KEY_LOCKED);
        assertThatThrownBy(() -> LogKey.forLog(tmp.resolve("home")).unlock(Optional.empty())).isInstanceOf(ProofModeException.class)
                .extracting(e -> ((ProofModeException) e).failure()).isEqualTo(Failure.KEY_LOCKED);
        assertThat(LogKey.forLog(tmp.resolve("home")).unlock(Optional.of(Passphrase.adopt("correct horse battery staple".toCharArray())))
                .key().name()).isEqualTo("evidence.example.org/log");
    }

    @Test
    void witnessedLog_servesOnlyCosignedCheckpoints_andReceiptsCarryTheCosignature() throws Exception {
        Path home = tmp.resolve("home");
        NoteKey logKey = LogKey.forLog(home).create("desk.example/log", Optional.empty());
        LogKey witnessFiles = LogKey.forWitness(tmp.resolve("witness-home"));
        NoteKey witnessKey = witnessFiles.create("witness.example/w1", Optional.empty());
        Witness witness = new Witness(witnessFiles.unlock(Optional.empty()), List.of(logKey), tmp.resolve("witness-state"),
                java.time.Clock.systemUTC());
        WitnessServer w = WitnessServer.start(witness, "127.0.0.1", 0);
        int witnessPort = w.port();
        LogPolicy policy = new LogPolicy(Optional.empty(), Optional.empty(), java.time.Duration.ofHours(1),
                List.of(new LogPolicy.WitnessRef(witnessKey, java.net.URI.create("http://127.0.0.1:" + witnessPort))), 1, Optional.empty());
        try (TestServer srv = TestServer.start(ServerConfig.defaults(home).withListen("127.0.0.1", 0).withLog(policy))) {
            String token = srv.token("desk");
            String first = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(tmp.resolve("a"))),
                    Optional.of(token))).get("sha256").asText();
            srv.server.integrateLog();
            byte[] served = raw(srv, "/log/checkpoint").body();
            SignedNote.Opened opened = SignedNote.open(served, List.of(logKey, witnessKey));
            assertThat(opened.cosigners()).containsExactly(witnessKey);
            assertThat(Checkpoint.parse(opened.text()).size()).isEqualTo(1);
            TlogProof receipt = TlogProof.parse(srv.get("/api/v1/evidence/" + first + "/receipt", Optional.of(token)).body()
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(SignedNote.open(receipt.checkpoint(), List.of(witnessKey)).cosigners()).containsExactly(witnessKey);
            assertThat(receipt.check(LogEntry.parse(receipt.extra().orElseThrow()).leafHash(), List.of(logKey, witnessKey)).outcome())
                    .isEqualTo(TlogProof.Outcome.VALID);

            // The witness goes away: the log goes on, but serves and proves only what was cosigned.
            w.close();
            String second = json(srv.postZip("/api/v1/evidence", TestBundles.read(TestBundles.good(tmp.resolve("b"))),
                    Optional.of(token))).get("sha256").asText();
            srv.server.integrateLog();
            assertThat(checkpoint(srv, logKey).size()).isEqualTo(1);
            assertThat(srv.get("/api/v1/evidence/" + second + "/receipt", Optional.of(token)).statusCode()).isEqualTo(404);
            assertThat(json(srv.get("/api/v1/evidence/" + second, Optional.of(token))).at("/log/state").asText()).isEqualTo("queued");
            assertThat(json(srv.get("/api/v1/health", Optional.empty())).get("log").asText()).isEqualTo("behind");

            // Back (a new process, the same state): it cosigns the grown log, after a consistency proof.
            w = WitnessServer.start(new Witness(witnessFiles.unlock(Optional.empty()), List.of(logKey), tmp.resolve("witness-state"),
                    java.time.Clock.systemUTC()), "127.0.0.1", witnessPort);
            srv.server.integrateLog();
            assertThat(checkpoint(srv, logKey).size()).isEqualTo(2);
            assertThat(srv.get("/api/v1/evidence/" + second + "/receipt", Optional.of(token)).statusCode()).isEqualTo(200);
            assertThat(witness.latest("desk.example/log")).map(Checkpoint::size).contains(2L);
            assertThat(json(srv.get("/api/v1/health", Optional.empty())).get("log").asText()).isEqualTo("ok");

            // History rewritten behind the server's back (same size, another entry): the witness refuses it,
            // the server keeps serving what was cosigned, and says the log is behind.
            try (Connection c = srv.db().connection(); Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM log_entries");
                st.executeUpdate("DELETE FROM log_hashes");
                st.executeUpdate("UPDATE log_state SET size = 0, root = '" + Digests.sha256Hex(new byte[0])
                        + "', checkpoint = (SELECT note FROM log_checkpoints WHERE size = 0)");
                st.executeUpdate("DELETE FROM log_checkpoints WHERE size > 0");
                for (int i = 0; i < 2; i++) {
                    LogEntry forged = new LogEntry("notarization", Optional.empty(), Optional.of(String.valueOf(i).repeat(64)),
                            List.of(), List.of(), Optional.empty(), "2020-01-01T00:00:00.000Z", Optional.empty());
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_queue (entry) VALUES (?)")) {
                        ps.setString(1, new String(forged.encoded(), StandardCharsets.UTF_8));
                        ps.executeUpdate();
                    }
                }
            }
            srv.server.integrateLog();
            assertThat(json(srv.get("/api/v1/health", Optional.empty())).get("log").asText()).isEqualTo("behind");
            assertThat(witness.latest("desk.example/log")).map(Checkpoint::size).contains(2L);
            assertThat(SignedNote.open(raw(srv, "/log/checkpoint").body(), List.of(witnessKey)).cosigners()).isEmpty();
        } finally {
            w.close();
        }
    }
}
