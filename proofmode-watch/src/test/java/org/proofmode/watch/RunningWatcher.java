// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.proofmode.ProofMode;
import org.proofmode.context.ContextSources;
import org.proofmode.context.Settings;
import org.proofmode.keys.SigningKey;
import org.proofmode.watch.WatchEvent.Kind;

/** A real watcher on its own thread for tests, with its events collected. */
final class RunningWatcher implements AutoCloseable {
    final ConcurrentLinkedQueue<WatchEvent> events = new ConcurrentLinkedQueue<>();
    private final Watcher watcher;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    RunningWatcher(ProofMode pm, SigningKey key, WatchConfig config) {
        this(pm, key, config, Optional.empty());
    }

    /** A watcher whose database is sealed with {@code seal} (a home whose store is encrypted). */
    RunningWatcher(ProofMode pm, SigningKey key, WatchConfig config, Optional<Supplier<WatchSeal>> seal) {
        Settings settings = Settings.defaults().with(org.proofmode.context.SettingKey.IMAGE_HASHES, false);
        watcher = new Watcher(new Watcher.Setup(pm, () -> key, config, ContextSources.surroundings(pm.home(), settings, Optional.empty()),
                ContextSources.media(pm.home(), settings), Optional.empty(), Optional.empty(), events::add, Clock.systemUTC(),
                Optional.empty(), seal));
        thread = new Thread(() -> {
            try {
                watcher.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "watcher-under-test");
        thread.start();
    }

    /** A quick configuration: settle 300 ms, rescan every 2 s, 4 workers, 3 attempts from 200 ms. */
    static WatchConfig quick(List<Path> folders, boolean recursive) {
        return new WatchConfig(folders, recursive, Duration.ofMillis(300), Duration.ofSeconds(2), 4, 3, Duration.ofMillis(200),
                Duration.ofMinutes(1), Optional.empty(), false);
    }

    /** Waits until the watcher has caught up and has nothing waiting, and the condition holds. */
    void awaitIdle(Duration timeout, BooleanSupplier also) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            check();
            if (watcher.idle() && also.getAsBoolean()) {
                Thread.sleep(200);
                if (watcher.idle() && also.getAsBoolean()) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("watcher not idle after " + timeout + "; events: " + tail());
    }

    List<WatchEvent> of(Kind kind) {
        List<WatchEvent> out = new ArrayList<>();
        for (WatchEvent e : events) {
            if (e.kind() == kind) {
                out.add(e);
            }
        }
        return out;
    }

    private String tail() {
        List<WatchEvent> all = new ArrayList<>(events);
        return all.subList(Math.max(0, all.size() - 20), all.size()).toString();
    }

    private void check() {
        if (failure.get() != null) {
            throw new AssertionError("watcher failed", failure.get());
        }
    }

    @Override
    public void close() {
        watcher.stop();
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping the watcher", e);
        }
        check();
        if (thread.isAlive()) {
            throw new AssertionError("watcher did not stop");
        }
    }
}
