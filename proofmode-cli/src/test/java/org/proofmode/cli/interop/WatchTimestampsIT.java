// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.OpensslTsa;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.timestamp.QueuedStamp;
import org.proofmode.timestamp.TimestampQueue;

/**
 * While it runs, the watcher retries the timestamp requests queued when their authority could not be
 * reached, and with {@code --tsa} stamps each new proof; against a loopback TSA ({@code openssl ts}).
 */
class WatchTimestampsIT {
    @TempDir
    Path dir;

    @Test
    void watch_stampsQueuedAndNewProofs_tsaBackUp() throws Exception {
        int port = freePort();
        String url = "http://127.0.0.1:" + port + "/tsr";
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path early = TestMedia.jpeg(dir.resolve("camera"), "early.jpg", 1);
        ProcessResult proved = pm.run("prove", "--tsa", url, early.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        String h = TestMedia.sha256(early);
        TimestampQueue queue = new TimestampQueue(pm.home().resolve(TimestampQueue.FOLDER));
        QueuedStamp q = queue.get(h).orElseThrow();
        // as if its backoff had run out
        queue.put(new QueuedStamp(q.sha256(), q.proofFolder(), q.tsaUrls(), q.calendars(), q.attempts(), q.queuedAt(),
                Instant.now().minusSeconds(1), q.lastError()));

        Path media = Files.createDirectories(dir.resolve("media"));
        try (OpensslTsa tsa = OpensslTsa.start(dir.resolve("tsa"), port)) {
            Path log = dir.resolve("watch.log");
            Process p = Daemon.start(pm.home(), log, List.of(), "watch", "--tsa", url, "--settle-ms", "100", media.toString());
            Daemon.await(log, " timestamp sha256=" + h + " kind=rfc3161 outcome=stamped for=sync");
            Path fresh = TestMedia.jpeg(media, "fresh.jpg", 2);
            String f = TestMedia.sha256(fresh);
            Daemon.await(log, " timestamp sha256=" + f + " kind=rfc3161 outcome=stamped for=new");
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(queue.list()).isEmpty();
            assertThat(pm.proofFolder(h).resolve(h + ".tsr")).isRegularFile();
            ProcessResult v = pm.run("verify", "--tsa-trust", tsa.caPem().toString(), fresh.toString());
            assertThat(v.exitCode()).as(v.describe()).isZero();
            assertThat(v.stdout()).contains("PASS  timestamp.rfc3161.valid");
        }
    }

    /**
     * In a home with an encrypted store the watcher, which never holds the store's identity, stamps each
     * new proof as it seals it; a request queued earlier stays sealed (it cannot tell what is due) until
     * {@code timestamp sync}, with the identity, stamps it.
     */
    @Test
    void watch_encryptedStore_stampsNewProofsWithoutTheIdentity_andSyncStampsTheSealedQueue() throws Exception {
        int port = freePort();
        String url = "http://127.0.0.1:" + port + "/tsr";
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        ProcessResult created = pm.run("keys", "create", "--encrypt-store");
        assertThat(created.exitCode()).as(created.describe()).isZero();
        Path early = TestMedia.jpeg(dir.resolve("camera"), "early.jpg", 3);
        ProcessResult proved = pm.run("prove", "--tsa", url, early.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        Path queue = pm.home().resolve(TimestampQueue.FOLDER);
        assertThat(queue.toFile().list()).singleElement().asString().matches("[0-9a-f]{32}\\.age");

        Path media = Files.createDirectories(dir.resolve("media"));
        try (OpensslTsa tsa = OpensslTsa.start(dir.resolve("tsa"), port)) {
            Path log = dir.resolve("watch.log");
            Process p = Daemon.start(pm.home(), log, List.of(), "watch", "--tsa", url, "--settle-ms", "100", media.toString());
            Path fresh = TestMedia.jpeg(media, "fresh.jpg", 4);
            // The store is encrypted: the journal's line says what happened, never which file or hash.
            Daemon.await(log, " timestamp kind=rfc3161 outcome=stamped for=new");
            assertThat(Files.readString(log)).doesNotContain(TestMedia.sha256(fresh)).doesNotContain("fresh.jpg");
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(log)).doesNotContain("timestamp sync: ").doesNotContain("publish sync: ");
            assertThat(queue.toFile().list()).hasSize(1);

            ProcessResult sync = pm.run("timestamp", "sync", "--now");
            assertThat(sync.exitCode()).as(sync.describe()).isZero();
            assertThat(sync.stdout()).contains(TestMedia.sha256(early) + "  rfc3161  stamped");
            assertThat(queue.toFile().list()).isEmpty();
            for (Path f : List.of(early, fresh)) {
                ProcessResult v = pm.run("verify", "--tsa-trust", tsa.caPem().toString(), f.toString());
                assertThat(v.exitCode()).as(v.describe()).isZero();
                assertThat(v.stdout()).contains("PASS  timestamp.rfc3161.valid");
            }
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
