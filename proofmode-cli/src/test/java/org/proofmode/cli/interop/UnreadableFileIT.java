// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * A file the watcher may not read is retried with backoff, then reported as failed (log line and
 * {@code status --json}), while other files are proved; after a restart, once it is readable, it is
 * proved. Permissions do not stop root, so as root the watcher runs as {@code nobody} (setpriv).
 */
class UnreadableFileIT {
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    @TempDir
    Path dir;

    @Test
    void watch_retriesThenReportsFailed_unreadableFile() throws Exception {
        Path home = dir.resolve("home");
        Path media = Files.createDirectories(dir.resolve("media"));
        Files.createDirectories(home);
        if (ROOT) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            for (Path p : List.of(home, media)) {
                Files.setOwner(p, users.lookupPrincipalByName("nobody"));
            }
        }
        Path good = TestMedia.jpeg(media, "good.jpg", 1);
        Path bad = TestMedia.jpeg(media, "bad.jpg", 2);
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("---------"));
        ProcessResult key = run(home, "keys", "create");
        assertThat(key.exitCode()).as(key.describe()).isZero();

        Path log = dir.resolve("watch.log");
        Process p = start(home, log, media);
        Daemon.await(log, " failed path=" + bad);
        String text = Files.readString(log);
        assertThat(text).contains(" proved path=" + good).contains(" retry path=" + bad + " attempt=1")
                .contains(" retry path=" + bad + " attempt=2");
        JsonNode status = new ObjectMapper().readTree(run(home, "status", "--json").stdout());
        assertThat(status.path("files").path("failed").asLong()).isEqualTo(1);
        assertThat(status.path("errors").get(0).path("path").asText()).isEqualTo(bad.toString());
        assertThat(status.path("errors").get(0).path("error").asText()).contains("denied");
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rw-r--r--"));
        Path again = dir.resolve("watch-again.log");
        Process q = start(home, again, media);
        Daemon.await(again, " proved path=" + bad);
        q.destroy();
        assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(again)).doesNotContain(" proved path=" + good);
        assertThat(home.resolve("proofs").resolve(TestMedia.sha256(bad))).isDirectory();
    }

    private static List<String> asNobody() {
        return ROOT ? List.of(ExternalTool.require("setpriv").toString(), "--reuid=nobody", "--regid=nogroup", "--clear-groups")
                : List.of();
    }

    private static Process start(Path home, Path log, Path media) throws IOException {
        return Daemon.start(home, log, asNobody(), "watch", "--settle-ms", "100", "--attempts", "3", media.toString());
    }

    private static ProcessResult run(Path home, String... args) {
        return ExternalTool.run(Daemon.command(asNobody(), args), Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE",
                ProofModeJar.PASSPHRASE), java.time.Duration.ofSeconds(120));
    }
}
