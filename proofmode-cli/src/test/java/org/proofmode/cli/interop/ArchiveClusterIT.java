// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.server.PostgresFixture;
import org.proofmode.server.store.LocalS3;
import org.proofmode.sign.StreamSigner;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.GoTlogCheck;
import org.proofmode.testkit.ProcessResult;

/**
 * An archive as an operator runs it: two {@code proofmode serve} processes (the shipped jar) on one PostgreSQL
 * database and one S3 bucket (s3proxy with SigV4), taking intakes at once; one killed with SIGKILL in the
 * middle of uploads; then a backup with {@code packaging/archive/backup.sh} and a restore with
 * {@code restore.sh} into a new database schema, a new bucket and a new server, which serves every item
 * and its chain of custody as before.
 */
class ArchiveClusterIT {
    private static final String PREFIX = "archive";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @TempDir
    static Path goDir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final List<Process> servers = new ArrayList<>();

    @AfterEach
    void stopServers() throws InterruptedException {
        for (Process p : servers) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A running {@code serve}: its process, base URL and event log. */
    private record Server(Process process, String base, Path events) {}

    @Test
    void twoServers_oneDatabaseOneBucket_killedMidUploadLoseNothingAcknowledged_andBackupRestoresEveryItem() throws Exception {
        ExternalTool.require("aws");
        ExternalTool.require("pg_dump");
        ExternalTool.require("pg_restore");
        String jdbc = PostgresFixture.freshSchemaUrl();
        List<Path> bundles = bundles(tmp.resolve("bundles"), 20);
        Map<String, byte[]> sent = new LinkedHashMap<>();
        for (Path b : bundles) {
            sent.put(Digests.sha256(b), Files.readAllBytes(b));
        }
        List<String> shas = new ArrayList<>(sent.keySet());

        Map<String, JsonNode> custodyBefore = new TreeMap<>();
        String checkpointBefore;
        Path backup = tmp.resolve("backup");
        try (LocalS3 s3 = LocalS3.start(tmp.resolve("s3-first"))) {
            Path homeA = tmp.resolve("home-a");
            Path homeB = tmp.resolve("home-b");
            Server a = start(homeA, "a", jdbc, s3);
            copyTree(homeA.resolve("server/log-key"), homeB.resolve("server/log-key")); // one log key for every instance
            Server b = start(homeB, "b", jdbc, s3);
            String token = token(homeA, jdbc, s3);

            // The same bundle sent to both at once, with others: stored once, every answer an acknowledgement.
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<HttpResponse<String>>> first = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String base = i % 2 == 0 ? a.base() : b.base();
                first.add(pool.submit(() -> post(base, sent.get(shas.get(0)), token, 0)));
            }
            for (int i = 1; i <= 6; i++) {
                String base = i % 2 == 0 ? a.base() : b.base();
                byte[] body = sent.get(shas.get(i));
                first.add(pool.submit(() -> post(base, body, token, 0)));
            }
            int createdSame = 0;
            for (int i = 0; i < first.size(); i++) {
                HttpResponse<String> r = first.get(i).get();
                assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
                if (i < 8) {
                    createdSame += r.statusCode() == 201 ? 1 : 0;
                } else {
                    assertThat(r.statusCode()).isEqualTo(201);
                }
            }
            assertThat(createdSame).as("the same bundle at once to both servers is stored once").isEqualTo(1);

            // Uploads to B, sent slowly so that some are under way, and more to A; B is killed with SIGKILL.
            Map<String, Future<HttpResponse<String>>> toB = new LinkedHashMap<>();
            for (int i = 7; i < 15; i++) {
                byte[] body = sent.get(shas.get(i));
                toB.put(shas.get(i), pool.submit(() -> post(b.base(), body, token, 400_000)));
            }
            Map<String, Future<HttpResponse<String>>> toA = new LinkedHashMap<>();
            for (int i = 15; i < 18; i++) {
                byte[] body = sent.get(shas.get(i));
                toA.put(shas.get(i), pool.submit(() -> post(a.base(), body, token, 400_000)));
            }
            waitForAnAcknowledgement(toB);
            b.process().destroyForcibly(); // SIGKILL
            assertThat(b.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            Set<String> acknowledged = new TreeSet<>();
            Set<String> cut = new TreeSet<>();
            for (Map.Entry<String, Future<HttpResponse<String>>> e : toB.entrySet()) {
                try {
                    HttpResponse<String> r = e.getValue().get(2, TimeUnit.MINUTES);
                    assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
                    acknowledged.add(e.getKey());
                } catch (java.util.concurrent.ExecutionException failed) {
                    cut.add(e.getKey()); // the connection died with the server
                }
            }
            assertThat(acknowledged).as("some uploads to B were answered before it was killed").isNotEmpty();
            assertThat(cut).as("some uploads to B were under way when it was killed").isNotEmpty();
            for (Future<HttpResponse<String>> f : toA.values()) {
                assertThat(f.get(2, TimeUnit.MINUTES).statusCode()).as("A takes intakes while B dies").isEqualTo(201);
            }

            // Nothing acknowledged is lost; nothing cut off is half there: absent, or whole.
            for (String sha : acknowledged) {
                assertThat(download(a.base(), sha, token)).as(sha).isEqualTo(sent.get(sha));
            }
            for (String sha : cut) {
                HttpResponse<byte[]> r = get(a.base(), "/api/v1/evidence/" + sha + "/bundle", token);
                assertThat(r.statusCode()).as(sha).isIn(200, 404);
                if (r.statusCode() == 200) {
                    assertThat(r.body()).isEqualTo(sent.get(sha));
                }
            }
            // In the bucket: whole objects only, each one's bytes hashing to its name; those no row names
            // (an upload cut between the object and its commit) count for nothing until the bundle is sent again.
            Map<String, Long> objects = objects(s3);
            Map<String, Long> rows = rows(jdbc);
            assertThat(objects.keySet()).containsAll(rows.keySet());
            for (String sha : objects.keySet()) {
                assertThat(Digests.sha256Hex(s3.read(key(sha)))).isEqualTo(sha);
            }
            // The cut-off bundles sent again, to A, and the last two to a restarted B.
            for (String sha : cut) {
                assertThat(post(a.base(), sent.get(sha), token, 0).statusCode()).isIn(200, 201);
            }
            Server b2 = start(homeB, "b", jdbc, s3);
            for (int i = 18; i < shas.size(); i++) {
                assertThat(post(b2.base(), sent.get(shas.get(i)), token, 0).statusCode()).isEqualTo(201);
            }
            // Counts and bytes reconcile exactly: one row and one object per bundle sent, of its size.
            rows = rows(jdbc);
            objects = objects(s3);
            assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(sent.keySet());
            assertThat(objects).isEqualTo(rows);
            for (String sha : shas) {
                assertThat(rows.get(sha)).isEqualTo(sent.get(sha).length);
            }
            assertThat(s3.incompleteUploads()).isEmpty();

            // One linear transparency log: both servers serve the same checkpoint, which Go's reference reads.
            String key = text(get(a.base(), "/api/v1/log/key", null)).strip();
            checkpointBefore = settledCheckpoint(jdbc, a.base());
            assertThat(text(get(b2.base(), "/log/checkpoint", null))).isEqualTo(checkpointBefore);
            GoTlogCheck checker = GoTlogCheck.build(goDir);
            ProcessResult go = checker.remote(a.base(), key, null, List.of());
            assertThat(go.exitCode()).as(go.describe()).isZero();
            // The log copied to the bucket (--log-to-bucket) is the same log, served by a plain static file server.
            Path copy = tmp.resolve("log-copy");
            for (int i = 0; i < 100 && !bucketCheckpoint(s3).equals(checkpointBefore); i++) {
                Thread.sleep(200);
            }
            assertThat(bucketCheckpoint(s3)).isEqualTo(checkpointBefore);
            ProcessResult synced = ExternalTool.run(List.of("aws", "s3", "sync", "--only-show-errors",
                    "s3://" + LocalS3.BUCKET + "/" + PREFIX + "/log/", copy.resolve("log").toString()),
                    archiveEnvironment(jdbc, s3, homeA), Duration.ofMinutes(2));
            assertThat(synced.exitCode()).as(synced.describe()).isZero();
            ProcessResult fromStatic = staticallyServed(copy, base -> checker.remote(base, key, null, List.of()));
            assertThat(fromStatic.exitCode()).as(fromStatic.describe()).isZero();

            for (String sha : shas) {
                JsonNode item = JSON.readTree(text(get(a.base(), "/api/v1/evidence/" + sha, token)));
                assertThat(item.at("/custodyChain/intact").asBoolean()).as(item.get("custodyChain").toString()).isTrue();
                custodyBefore.put(sha, item.get("custody"));
            }
            // Every event line of both servers parses and names its instance; B's killed run ends without a stop line.
            assertThat(events(a.events())).allSatisfy(e -> assertThat(e.get("instance").asText()).isEqualTo("a"));
            List<JsonNode> killed = events(b.events());
            assertThat(killed).allSatisfy(e -> assertThat(e.get("instance").asText()).isEqualTo("b"));
            assertThat(killed.get(0).get("event").asText()).isEqualTo("start");
            assertThat(killed).noneMatch(e -> e.get("event").asText().equals("stop"))
                    .anyMatch(e -> e.get("event").asText().equals("request") && e.get("status").asInt() == 201);

            // Backup while the servers run: database first, then the bucket, then the log key.
            ProcessResult made = ExternalTool.run(List.of("bash", script("backup.sh").toString(), backup.toString()),
                    archiveEnvironment(jdbc, s3, homeA), Duration.ofMinutes(5));
            assertThat(made.exitCode()).as(made.describe()).isZero();
            assertThat(backup.resolve("MANIFEST")).isNotEmptyFile();
            stopServers();
            servers.clear();
        }

        // Disaster: the database schema and the bucket are gone. Restore into new ones and a new home.
        dropSchema(jdbc);
        try (LocalS3 s3 = LocalS3.start(tmp.resolve("s3-restored"))) {
            Path homeC = tmp.resolve("home-c");
            ProcessResult restored = ExternalTool.run(List.of("bash", script("restore.sh").toString(), backup.toString()),
                    archiveEnvironment(jdbc, s3, homeC), Duration.ofMinutes(5));
            assertThat(restored.exitCode()).as(restored.describe()).isZero();
            Server c = start(homeC, "c", jdbc, s3);
            String token = token(homeC, jdbc, s3);
            assertThat(text(get(c.base(), "/log/checkpoint", null))).isEqualTo(checkpointBefore);
            for (String sha : shas) {
                JsonNode item = JSON.readTree(text(get(c.base(), "/api/v1/evidence/" + sha, token)));
                assertThat(item.get("custody")).as(sha).isEqualTo(custodyBefore.get(sha));
                assertThat(item.at("/custodyChain/intact").asBoolean()).isTrue();
                assertThat(download(c.base(), sha, token)).isEqualTo(sent.get(sha));
            }
            assertThat(objects(s3)).isEqualTo(rows(jdbc));
        }

        // A damaged backup is refused before anything is restored.
        Path blob = Files.walk(backup.resolve("blobs")).filter(Files::isRegularFile).findFirst().orElseThrow();
        byte[] bytes = Files.readAllBytes(blob);
        bytes[bytes.length / 2] ^= 1;
        Files.write(blob, bytes);
        try (LocalS3 s3 = LocalS3.start(tmp.resolve("s3-damaged"))) {
            ProcessResult refused = ExternalTool.run(List.of("bash", script("restore.sh").toString(), backup.toString()),
                    archiveEnvironment(jdbc, s3, tmp.resolve("home-d")), Duration.ofMinutes(5));
            assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(3);
            assertThat(refused.stderr()).contains("does not match its MANIFEST");
            assertThat(objects(s3)).isEmpty();
        }
    }

    /** Share zips of distinct photo-sized files (1 to 4 MB, JPEG-headed random bytes) proved by one fresh key. */
    private static List<Path> bundles(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        ProofMode pm = ProofMode.at(dir.resolve("signer"));
        pm.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("archive test".toCharArray())));
        SigningKey key = pm.keys().unlock(Passphrase.adopt("archive test".toCharArray()));
        Prover prover = pm.prover(key, pm.store(), List.of());
        Random random = new Random(42);
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] media = new byte[(1 << 20) + random.nextInt(3 << 20)];
            random.nextBytes(media);
            media[0] = (byte) 0xFF;
            media[1] = (byte) 0xD8;
            media[2] = (byte) 0xFF;
            Path file = Files.write(dir.resolve("photo-" + i + ".jpg"), media);
            ProveResult r = prover.prove(file, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
            Path zip = dir.resolve("bundle-" + i + ".zip");
            BundleWriter.write(List.of(new BundleWriter.Item(r.proofFolder().orElseThrow(), Optional.of(file))), zip, false);
            out.add(zip);
        }
        return out;
    }

    /** Starts {@code proofmode serve} from the jar on the shared database and bucket, and waits for its address. */
    private Server start(Path home, String instance, String jdbc, LocalS3 s3) throws IOException {
        Files.createDirectories(home);
        Path events = home.resolve("events-" + servers.size() + ".jsonl");
        List<String> cmd = new ArrayList<>(List.of("java", "-Xmx256m", "-jar", ProofModeJar.jar().toString(), "serve", "--port", "0",
                "--blobs", "s3://" + LocalS3.BUCKET + "/" + PREFIX, "--s3-path-style", "--log-to-bucket", "--log-format", "json",
                "--instance", instance));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(events.toFile());
        pb.environment().putAll(serverEnvironment(home, jdbc, s3));
        Process p = pb.start();
        servers.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(line));
        assertThat(m.find()).as(line + "\n" + Files.readString(events)).isTrue();
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException e) {
                // the server ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return new Server(p, "http://127.0.0.1:" + m.group(1), events);
    }

    /** What a server process is given: its home, the database and the bucket's endpoint and keys, nothing of this machine. */
    private static Map<String, String> serverEnvironment(Path home, String jdbc, LocalS3 s3) {
        Map<String, String> env = new HashMap<>(s3.awsCliEnvironment());
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ENDPOINT_URL", s3.endpoint().toString());
        env.put("PROOFMODE_HOME", home.toString());
        env.put("PROOFMODE_DB_URL", jdbc);
        return env;
    }

    /** {@code backup.sh} and {@code restore.sh}'s environment: the database as a libpq URI, its schema, the bucket, a home. */
    private static Map<String, String> archiveEnvironment(String jdbc, LocalS3 s3, Path home) {
        Map<String, String> env = new HashMap<>(s3.awsCliEnvironment());
        env.put("AWS_ENDPOINT_URL", s3.endpoint().toString());
        env.put("PROOFMODE_PG", libpq(jdbc));
        env.put("PROOFMODE_PG_SCHEMA", query(jdbc).get("currentSchema"));
        env.put("PROOFMODE_BUCKET", "s3://" + LocalS3.BUCKET + "/" + PREFIX);
        env.put("PROOFMODE_HOME", home.toString());
        return env;
    }

    /** A token made with {@code proofmode server token create} on the shared database. */
    private static String token(Path home, String jdbc, LocalS3 s3) {
        ProcessResult r = ExternalTool.run(List.of("java", "-jar", ProofModeJar.jar().toString(), "server", "token", "create", "desk", "--scope", "admin"),
                serverEnvironment(home, jdbc, s3), Duration.ofMinutes(2));
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout().strip();
    }

    /**
     * {@code POST /api/v1/evidence}; with {@code bytesPerSecond} above 0 the body is sent at about that rate, in
     * 64 KiB pieces, so that the upload is under way for a while.
     */
    private HttpResponse<String> post(String base, byte[] body, String token, int bytesPerSecond) throws Exception {
        HttpRequest.BodyPublisher publisher = bytesPerSecond <= 0 ? HttpRequest.BodyPublishers.ofByteArray(body)
                : new SlowBody(body, bytesPerSecond);
        return http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence")).header("Content-Type", "application/zip")
                .header("Authorization", "Bearer " + token).timeout(Duration.ofMinutes(2)).POST(publisher).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<byte[]> get(String base, String path, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(1));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private byte[] download(String base, String sha, String token) throws Exception {
        HttpResponse<byte[]> r = get(base, "/api/v1/evidence/" + sha + "/bundle", token);
        assertThat(r.statusCode()).as(sha).isEqualTo(200);
        return r.body();
    }

    private static String text(HttpResponse<byte[]> r) {
        assertThat(r.statusCode()).as(r.uri().toString()).isEqualTo(200);
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static void waitForAnAcknowledgement(Map<String, Future<HttpResponse<String>>> uploads) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            if (uploads.values().stream().anyMatch(Future::isDone)) {
                return;
            }
            Thread.sleep(50);
        }
    }

    /** The checkpoint once the log's queue is empty (the sequencers integrate every second). */
    private String settledCheckpoint(String jdbc, String base) throws Exception {
        for (int i = 0; i < 300; i++) {
            try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM log_queue")) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    String first = text(get(base, "/log/checkpoint", null));
                    Thread.sleep(1500);
                    String second = text(get(base, "/log/checkpoint", null));
                    if (first.equals(second)) {
                        return second;
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the transparency log's queue did not empty");
    }

    /** The checkpoint the bucket holds under {@code PREFIX/log/checkpoint}, or "" before the first copy. */
    private static String bucketCheckpoint(LocalS3 s3) {
        try {
            return new String(s3.read(PREFIX + "/log/checkpoint"), StandardCharsets.UTF_8);
        } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
            return "";
        }
    }

    /** Runs {@code check} with the base URL of Python's static file server over {@code root}. */
    private static ProcessResult staticallyServed(Path root, java.util.function.Function<String, ProcessResult> check) throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process server = new ProcessBuilder("python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root.toString(),
                String.valueOf(port)).redirectErrorStream(true).redirectOutput(root.resolve("..").resolve("http.log").toFile()).start();
        try {
            for (int i = 0; i < 100; i++) {
                try {
                    new java.net.Socket("127.0.0.1", port).close();
                    break;
                } catch (IOException notYet) {
                    Thread.sleep(100);
                }
            }
            return check.apply("http://127.0.0.1:" + port);
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The evidence rows: SHA-256 to size. */
    private static Map<String, Long> rows(String jdbc) throws Exception {
        Map<String, Long> rows = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sha256, size FROM evidence")) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getLong(2));
            }
        }
        return rows;
    }

    /** The bundle objects in the bucket: SHA-256 (from the key) to size; the only other objects are the log's copy. */
    private static Map<String, Long> objects(LocalS3 s3) {
        Map<String, Long> objects = new TreeMap<>();
        Pattern blob = Pattern.compile(Pattern.quote(PREFIX) + "/[0-9a-f]{2}/[0-9a-f]{2}/([0-9a-f]{64})");
        s3.client().listObjectsV2Paginator(b -> b.bucket(LocalS3.BUCKET).prefix(PREFIX + "/")).contents().forEach(o -> {
            Matcher m = blob.matcher(o.key());
            if (m.matches()) {
                objects.put(m.group(1), o.size());
            } else {
                assertThat(o.key()).as("only bundles and the log's copy").startsWith(PREFIX + "/log/");
            }
        });
        return objects;
    }

    private static String key(String sha) {
        return PREFIX + "/" + sha.substring(0, 2) + "/" + sha.substring(2, 4) + "/" + sha;
    }

    private static List<JsonNode> events(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    private static void dropSchema(String jdbc) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbc); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA " + query(jdbc).get("currentSchema") + " CASCADE");
        }
    }

    /** The query parameters of a JDBC URL. */
    private static Map<String, String> query(String jdbc) {
        Map<String, String> q = new HashMap<>();
        int at = jdbc.indexOf('?');
        for (String kv : jdbc.substring(at + 1).split("&")) {
            int eq = kv.indexOf('=');
            q.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    /** {@code jdbc:postgresql://HOST:PORT/DB?user=U&password=P&...} as the libpq URI {@code postgresql://U:P@HOST:PORT/DB}. */
    private static String libpq(String jdbc) {
        Map<String, String> q = query(jdbc);
        String hostAndDb = jdbc.substring("jdbc:postgresql://".length(), jdbc.indexOf('?'));
        String user = java.net.URLEncoder.encode(q.get("user"), StandardCharsets.UTF_8);
        String password = q.containsKey("password") ? ":" + java.net.URLEncoder.encode(q.get("password"), StandardCharsets.UTF_8) : "";
        return "postgresql://" + user + password + "@" + hostAndDb;
    }

    private static Path script(String name) {
        Path p = Path.of(System.getProperty("proofmode.root", "..")).resolve("packaging/archive").resolve(name);
        assertThat(p).as("the archive scripts in packaging/archive").isRegularFile();
        return p;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
    }

    /** A request body sent at a bounded rate. */
    private static final class SlowBody implements HttpRequest.BodyPublisher {
        private final byte[] body;
        private final int bytesPerSecond;

        SlowBody(byte[] body, int bytesPerSecond) {
            this.body = body;
            this.bytesPerSecond = bytesPerSecond;
        }

        @Override
        public long contentLength() {
            return body.length;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            long[] demand = {0};
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    synchronized (demand) {
                        demand[0] += n;
                        demand.notifyAll();
                    }
                }

                @Override
                public void cancel() {
                    synchronized (demand) {
                        demand[0] = -1;
                        demand.notifyAll();
                    }
                }
            });
            Thread t = new Thread(() -> {
                int piece = 64 << 10;
                try {
                    for (int off = 0; off < body.length; off += piece) {
                        synchronized (demand) {
                            while (demand[0] == 0) {
                                demand.wait();
                            }
                            if (demand[0] < 0) {
                                return;
                            }
                            demand[0]--;
                        }
                        subscriber.onNext(ByteBuffer.wrap(body, off, Math.min(piece, body.length - off)));
                        Thread.sleep(piece * 1000L / bytesPerSecond);
                    }
                    subscriber.onComplete();
                } catch (InterruptedException e) {
                    subscriber.onError(e);
                }
            }, "slow-body");
            t.setDaemon(true);
            t.start();
        }
    }
}
