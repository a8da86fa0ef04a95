// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.server.service.EventLog;
import org.proofmode.server.store.Database;
import org.proofmode.server.store.TokenStore;

/** A real server on 127.0.0.1 with a free port, a fresh home and blob folder, and an HTTP client for it. */
final class TestServer implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final ServerConfig config;
    final ProofServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private TestServer(ServerConfig config, EventLog events) {
        this.config = config;
        this.server = ProofServer.start(config, events);
    }

    /** Starts a server with default bounds on the given database (empty: SQLite in the home). */
    static TestServer start(Path home, Optional<String> jdbcUrl) {
        return start(ServerConfig.defaults(home).withListen("127.0.0.1", 0).withJdbcUrl(jdbcUrl));
    }

    /** Starts a server with a configuration. */
    static TestServer start(ServerConfig config) {
        return new TestServer(config, EventLog.OFF);
    }

    /** Starts a server with a configuration, telling what happens on {@code events}. */
    static TestServer start(ServerConfig config, EventLog events) {
        return new TestServer(config, events);
    }

    /** A config with small bounds for abuse tests. */
    static ServerConfig small(Path home, long maxUpload, int rate) {
        return ServerConfig.defaults(home).withListen("127.0.0.1", 0)
                .withBounds(maxUpload, BundleLimits.DEFAULT, Duration.ofSeconds(20), rate);
    }

    /** Creates a token in this server's database. */
    String token(String name) {
        return new TokenStore(server.database()).create(name).secret();
    }

    Database db() {
        return server.database();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, Optional<String> token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET();
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return send(b);
    }

    HttpResponse<String> postZip(String path, byte[] zip, Optional<String> token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/zip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(zip));
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return send(b);
    }

    HttpResponse<String> postFiles(String path, Map<String, byte[]> files, Optional<String> token)
            throws IOException, InterruptedException {
        List<Map.Entry<String, Map.Entry<String, byte[]>>> parts = new java.util.ArrayList<>();
        files.forEach((name, bytes) -> parts.add(Map.entry("file", Map.entry(name, bytes))));
        return postMultipart(path, parts, token);
    }

    /** A multipart form with one file in each named part: part name, then file name and bytes. */
    HttpResponse<String> postParts(String path, Map<String, Map.Entry<String, byte[]>> parts, Optional<String> token)
            throws IOException, InterruptedException {
        return postMultipart(path, List.copyOf(parts.entrySet()), token);
    }

    private HttpResponse<String> postMultipart(String path, List<Map.Entry<String, Map.Entry<String, byte[]>>> parts,
            Optional<String> token) throws IOException, InterruptedException {
        String boundary = "----pm" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, Map.Entry<String, byte[]>> p : parts) {
            body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + p.getKey() + "\"; filename=\""
                    + p.getValue().getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.write(p.getValue().getValue());
            body.write("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.write(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return send(b);
    }

    /** Runs one SQL statement with one text parameter straight on the database; expects one row changed. */
    void update(String statement, String arg) throws java.sql.SQLException {
        try (java.sql.Connection c = db().connection(); java.sql.PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setString(1, arg);
            assertThat(ps.executeUpdate()).as(statement).isEqualTo(1);
        }
    }

    /** The rows of a table. */
    long count(String table) throws java.sql.SQLException {
        try (java.sql.Connection c = db().connection(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static JsonNode json(HttpResponse<String> r) throws IOException {
        return JSON.readTree(r.body());
    }

    /** Asserts a problem document with a status and type slug. */
    static JsonNode assertProblem(HttpResponse<String> r, int status, String slug) throws IOException {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode p = json(r);
        assertThat(p.get("type").asText()).isEqualTo("urn:proofmode:problem:" + slug);
        assertThat(p.get("status").asInt()).isEqualTo(status);
        return p;
    }

    /**
     * Waits, when needed, until enough of the current minute remains, so that a test of the per-minute
     * rate is not split over two windows.
     */
    static void awayFromMinuteBoundary(int secondsNeeded) throws InterruptedException {
        long intoMinute = System.currentTimeMillis() % 60_000;
        if (intoMinute > 60_000 - secondsNeeded * 1000L) {
            Thread.sleep(60_000 - intoMinute + 200);
        }
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }

    @Override
    public void close() {
        server.close();
    }
}
