// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL database for tests. CI starts PostgreSQL and passes its JDBC URL in
 * {@code PROOFMODE_TEST_POSTGRES_URL} (or the system property {@code proofmode.test.postgres}); in CI a
 * missing URL fails the test. Elsewhere, when PostgreSQL 15 is installed, a private cluster is made
 * with {@code initdb} in a temporary folder and started on a free loopback port. Every call gives a fresh
 * schema, so runs never see each other's rows.
 */
public final class PostgresFixture {
    static final String ENV = "PROOFMODE_TEST_POSTGRES_URL";
    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static String baseUrl;

    private PostgresFixture() {}

    /** A JDBC URL for a new, empty schema. */
    public static synchronized String freshSchemaUrl() throws Exception {
        if (baseUrl == null) {
            baseUrl = locate();
        }
        String schema = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        try (Connection c = DriverManager.getConnection(baseUrl); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        }
        return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    private static String locate() throws Exception {
        String url = System.getProperty("proofmode.test.postgres", System.getenv(ENV));
        if (url != null && !url.isBlank()) {
            return url;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            return fail(ENV + " is not set: .ci/run starts PostgreSQL and sets it; the PostgreSQL tests cannot run");
        }
        if (!Files.isExecutable(BIN.resolve("initdb"))) {
            return fail("PostgreSQL 15 is not installed (apt-get install postgresql) and " + ENV + " is not set");
        }
        return startPrivateCluster();
    }

    private static String startPrivateCluster() throws IOException, InterruptedException, SQLException {
        Path dir = Files.createTempDirectory("proofmode-pg");
        Path data = dir.resolve("data");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            run(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        }
        run(as(root, List.of(BIN.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "--no-sync", "-E", "UTF8")));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        run(as(root, List.of(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(),
                "-w", "-o", "-c listen_addresses=127.0.0.1 -c port=" + port + " -c unix_socket_directories=" + dir
                        + " -c fsync=off", "start")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                run(as(root, List.of(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop")));
                try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                    for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                        Files.deleteIfExists(p);
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the cluster dies with the machine's temp folder
            }
        }));
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    private static List<String> as(boolean root, List<String> cmd) {
        if (!root) {
            return cmd;
        }
        List<String> out = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        out.addAll(cmd);
        return out;
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", cmd).toLowerCase(Locale.ROOT) + " failed: " + out);
        }
    }
}
