// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerCommandTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home);
    }

    @Test
    void tokenCreate_printsTheTokenOnce_andKeepsOnlyItsHash() throws Exception {
        Cli.Result r = cli.run("server", "token", "create", "desk-anna");

        assertThat(r.exit()).as(r.err()).isZero();
        String token = r.out().strip();
        assertThat(token).matches("pm_[A-Za-z0-9_-]{43}");
        assertThat(r.err()).contains("desk-anna").contains("shown only now");
        byte[] db = Files.readAllBytes(home.resolve("server/evidence.db"));
        assertThat(new String(db, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(token).contains("desk-anna");
    }

    @Test
    void tokenCreate_scopeUploadByDefault_listShowsScopesAndWarnsOfUnscoped() throws Exception {
        Cli.Result field = cli.run("server", "token", "create", "field-anna");
        assertThat(field.exit()).as(field.err()).isZero();
        assertThat(field.err()).contains("(scope upload)");
        assertThat(cli.run("server", "token", "create", "desk-ben", "--scope", "read").exit()).isZero();
        Cli.Result bad = cli.run("server", "token", "create", "x", "--scope", "everything");
        assertThat(bad.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(bad.err()).contains("upload, read or admin");
        assertThat(cli.run("server", "token", "create", "--help").out()).contains("The default scope is upload");

        Cli.Result scoped = cli.run("server", "token", "list");
        assertThat(scoped.out()).contains("  field-anna  upload  created ", "  desk-ben  read  created ");
        assertThat(scoped.err()).doesNotContain("warning");

        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + home.resolve("server/evidence.db"));
             java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO tokens (id, name, token_hash, created_at) VALUES ('old00001', 'old-desk', 'h', "
                    + "'2025-01-01T00:00:00.000Z')");
        }
        Cli.Result withOld = cli.run("server", "token", "list");
        assertThat(withOld.exit()).isZero();
        assertThat(withOld.out()).contains("old00001  old-desk  unscoped  created ");
        assertThat(withOld.err()).contains("warning: 1 live token(s) made before scopes", "--scope upload");
    }

    @Test
    void tokenRevoke_marksTheTokenRevoked_inTheList() {
        cli.run("server", "token", "create", "leaver");
        String id = cli.run("server", "token", "list").out().strip().split("\\s+")[0];

        Cli.Result revoke = cli.run("server", "token", "revoke", id);

        assertThat(revoke.exit()).isZero();
        assertThat(cli.run("server", "token", "list").out()).contains(id + "  leaver").contains("revoked ");
        Cli.Result again = cli.run("server", "token", "revoke", id);
        assertThat(again.exit()).isEqualTo(61);
        assertThat(again.err()).contains("no live token with id " + id);
    }

    @Test
    void serve_exitsWithDocumentedCodes_badArguments() {
        assertThat(cli.run("serve", "--port", "70000").exit()).isEqualTo(37);
        Cli.Result missing = cli.run("serve", "--port", "0", "--trust", tmp.resolve("nope.asc").toString());
        assertThat(missing.exit()).isEqualTo(61);
        assertThat(missing.err()).contains("nope.asc: no such key file");
        Cli.Result db = cli.run("serve", "--port", "0", "--db", "jdbc:mysql://db/x");
        assertThat(db.exit()).isEqualTo(37);
        assertThat(db.err()).contains("unsupported database URL");
        assertThat(cli.run("server", "token", "create", " ").exit()).isEqualTo(37);
        Cli.Result days = cli.run("serve", "--port", "0", "--report-days", "0");
        assertThat(days.exit()).isEqualTo(37);
        assertThat(days.err()).contains("--report-days");
        Cli.Result logCopy = cli.run("serve", "--port", "0", "--log-to-bucket");
        assertThat(logCopy.exit()).isEqualTo(83);
        assertThat(logCopy.err()).contains("--log-to-bucket goes with --blobs s3://");
        Cli.Result events = cli.run("serve", "--port", "0", "--log-format", "xml");
        assertThat(events.exit()).isEqualTo(37);
        assertThat(events.err()).contains("--log-format is text, json or none");
        Cli.Result instance = cli.run("serve", "--port", "0", "--instance", "a\nb");
        assertThat(instance.exit()).isEqualTo(37);
        assertThat(instance.err()).contains("--instance");
    }

    @Test
    void serve_bucket_failsInOneLine_withDocumentedCodes() throws Exception {
        Cli.Result bucket = cli.run("serve", "--port", "0", "--blobs", "s3://Not_A_Bucket/x");
        assertThat(bucket.exit()).isEqualTo(37);
        assertThat(bucket.err()).contains("--blobs s3://Not_A_Bucket/x: not a bucket name");
        Cli.Result sseWithoutBucket = cli.run("serve", "--port", "0", "--s3-sse", "AES256");
        assertThat(sseWithoutBucket.exit()).isEqualTo(83);
        Cli.Result lockWithoutDays = cli.run("serve", "--port", "0", "--blobs", "s3://evidence", "--s3-object-lock", "COMPLIANCE");
        assertThat(lockWithoutDays.exit()).isEqualTo(37);
        assertThat(lockWithoutDays.err()).contains("--s3-object-lock and --s3-retention-days go together");
        Cli.Result halfKeys = cli.env("AWS_ACCESS_KEY_ID", "AKIDTEST").run("serve", "--port", "0", "--blobs", "s3://evidence");
        assertThat(halfKeys.exit()).isEqualTo(37);
        assertThat(halfKeys.err()).contains("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together");

        // a store that cannot be reached: the same exit code as a blob folder that cannot be used, in one line
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Cli.Result away = cli.env("AWS_SECRET_ACCESS_KEY", "never-printed").env("AWS_ENDPOINT_URL", "http://127.0.0.1:" + closed)
                .env("AWS_REGION", "us-east-1").run("serve", "--port", "0", "--blobs", "s3://evidence/intake", "--s3-path-style");
        assertThat(away.exit()).isEqualTo(1);
        assertThat(away.err().strip()).startsWith("proofmode: cannot start the server on 127.0.0.1:0: cannot use s3://evidence/intake: ")
                .doesNotContain("never-printed").doesNotContain("\n");
        assertThat(away.err().strip().lines().count()).isEqualTo(1);
    }

    @Test
    void help_teachesServeAndTokens() {
        Cli.Result serve = cli.run("serve", "--help");
        assertThat(serve.exit()).isZero();
        assertThat(serve.out()).contains("--bind", "--db", "PROOFMODE_DB_URL", "Exit codes:", "token create");
        assertThat(serve.out()).contains("--blobs s3://evidence/intake --s3-path-style", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE",
                "AbortIncompleteMultipartUpload", "--s3-sse", "--s3-object-lock");
        assertThat(cli.run("server", "token", "--help").out().replaceAll("\\s+", " ")).contains("Authorization: Bearer TOKEN");
    }
}
