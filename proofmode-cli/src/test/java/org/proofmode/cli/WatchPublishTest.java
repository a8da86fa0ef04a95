// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.context.ContextSources;
import org.proofmode.context.SettingKey;
import org.proofmode.context.Settings;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.util.Http;
import org.proofmode.watch.WatchConfig;
import org.proofmode.watch.WatchEvent;
import org.proofmode.watch.Watcher;

/**
 * {@code watch --publish}: each new proof goes to the evidence server as it is made; while the server is
 * away it is queued, and the watcher's own sync sends it once the server is back.
 */
class WatchPublishTest {
    @TempDir
    Path tmp;

    private final ConcurrentLinkedQueue<WatchEvent> events = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();

    private void await(Predicate<WatchEvent> what, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            if (events.stream().anyMatch(what)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such event in " + timeout + ": " + List.copyOf(events), failed.get());
    }

    private static Predicate<WatchEvent> published(String sha, String outcome) {
        return e -> e.kind() == WatchEvent.Kind.PUBLISHED && sha.equals(e.fields().get("sha256")) && outcome.equals(e.fields().get("outcome"));
    }

    @Test
    void watch_publishesEachNewProof_andQueuesWhileTheServerIsAway() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProofMode pm = ProofMode.at(tmp.resolve("home"));
        SigningKey key;
        try (Passphrase p = Passphrase.adopt("watch passphrase".toCharArray())) {
            pm.keys().create(KeyType.ED25519, Optional.of(p));
        }
        try (Passphrase p = Passphrase.adopt("watch passphrase".toCharArray())) {
            key = pm.keys().unlock(p);
        }
        Path drop = Files.createDirectories(tmp.resolve("drop"));
        Settings settings = Settings.defaults().with(SettingKey.IMAGE_HASHES, false);
        WatchConfig config = new WatchConfig(List.of(drop), false, Duration.ofMillis(200), Duration.ofSeconds(2), 2, 3,
                Duration.ofMillis(200), Duration.ofSeconds(1), Optional.empty(), false);
        ServerConfig serverConfig = ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", port);
        String token;
        try (ProofServer first = ProofServer.start(serverConfig)) {
            token = new TokenStore(first.database()).create("watcher").secret();
        }
        Publishing to = new Publishing(new Publisher(URI.create("http://127.0.0.1:" + port), token,
                new Http(new Http.Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10))), pm.home().resolve("publish/uploads"),
                Publisher.RESUMABLE_FROM), Publisher.What.WITH_MEDIA);
        Watcher watcher = new Watcher(new Watcher.Setup(pm, () -> key, config, ContextSources.surroundings(pm.home(), settings, Optional.empty()),
                ContextSources.media(pm.home(), settings), Optional.empty(), Optional.empty(), events::add, Clock.systemUTC(),
                Optional.of(to)));
        Thread t = new Thread(() -> {
            try {
                watcher.run();
            } catch (Exception e) {
                failed.set(e);
            }
        }, "watcher-under-test");
        t.start();
        try {
            // The server is down: the new proof is queued.
            Path away = ProveCommandTest.jpeg(drop, "away.jpg", 4000, 1);
            String awaySha = Digests.sha256(away);
            await(published(awaySha, "queued"), Duration.ofSeconds(30));
            assertThat(pm.publishQueue().list()).hasSize(1);

            try (ProofServer server = ProofServer.start(serverConfig)) {
                // A new proof is sent at once; the queued one by the watcher's sync (its backoff is a minute: move it up).
                var q = pm.publishQueue().list().get(0);
                pm.publishQueue().put(new org.proofmode.publish.QueuedPublish(q.sha256(), q.what(), q.server(), q.attempts(),
                        q.queuedAt(), java.time.Instant.now(), q.lastError(), q.proxy()));
                Path here = ProveCommandTest.jpeg(drop, "here.jpg", 4000, 2);
                String hereSha = Digests.sha256(here);
                await(published(hereSha, "sent"), Duration.ofSeconds(30));
                await(published(awaySha, "sent"), Duration.ofSeconds(30));
                assertThat(pm.publishQueue().list()).isEmpty();
                assertThat(events.stream().filter(e -> e.kind() == WatchEvent.Kind.PUBLISHED && "sent".equals(e.fields().get("outcome")))
                        .map(e -> e.fields().get("detail"))).allMatch(d -> d.startsWith("http://127.0.0.1:" + port + "/#/evidence/"));
                assertThat(server.port()).isEqualTo(port);
            }
        } finally {
            watcher.stop();
            t.join(30_000);
        }
        assertThat(failed.get()).isNull();
    }
}
