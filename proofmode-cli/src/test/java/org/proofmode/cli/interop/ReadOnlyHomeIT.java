// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code proofmode status} only reads, so it works on a home that cannot be written: a watcher's home
 * (its database in WAL mode, its lock file) is bind-mounted read-only in a private mount namespace
 * ({@code unshare}, no privileges needed where user namespaces are allowed) and read there.
 */
class ReadOnlyHomeIT {
    @TempDir
    Path dir;

    @Test
    void status_readsTheWatcherState_readOnlyHome() throws Exception {
        Path home = dir.resolve("src").resolve("home");
        Path watched = Files.createDirectories(dir.resolve("watched"));
        TestMedia.jpeg(watched, "photo.jpg", 4242);
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC", "-jar",
                ProofModeJar.jar().toString());
        List<String> watch = new ArrayList<>(List.of("timeout", "-s", "TERM", "20"));
        watch.addAll(java);
        watch.addAll(List.of("watch", watched.toString()));
        ProcessResult w = ExternalTool.run(watch, Map.of("PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE", ProofModeJar.PASSPHRASE),
                Duration.ofSeconds(60));
        assertThat(home.resolve("watch.db")).as(w.describe()).isRegularFile();
        assertThat(home.resolve("watch.lock")).isRegularFile();

        Path ro = Files.createDirectories(dir.resolve("ro"));
        String inside = "mount --bind '" + dir.resolve("src") + "' '" + ro + "' && mount -o remount,bind,ro '" + ro + "' && "
                + "! touch '" + ro.resolve("home/probe") + "' 2>/dev/null && exec " + String.join(" ", java) + " status";
        ProcessResult r = ExternalTool.run(List.of("unshare", "--user", "--map-root-user", "--mount", "sh", "-c", inside),
                Map.of("PROOFMODE_HOME", ro.resolve("home").toString()), Duration.ofSeconds(60));

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("watcher:     not running (last started").contains("folders:     " + watched);
    }
}
