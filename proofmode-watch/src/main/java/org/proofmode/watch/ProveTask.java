// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.prove.BatchProver;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import org.proofmode.timestamp.StampResult;
import org.proofmode.watch.WatchEvent.Kind;

/**
 * Proves one complete file for the watcher, on a worker thread, and says what came of it. The file is
 * checked before it is read and again just before its proof is stored: a proof of a file that changed or
 * vanished meanwhile is never stored.
 */
final class ProveTask {
    /** What came of one attempt. */
    enum Outcome { PROVED, KNOWN, SKIPPED, CHANGED, GONE, UNREADABLE, STORAGE }

    /** One attempt's result. */
    record Done(TrackedFile file, Outcome outcome, Optional<String> sha256, long size, long mtime, Instant at,
            Optional<String> error, List<WatchEvent> stampEvents) {}

    private static final class Moved extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final Outcome outcome;

        Moved(Outcome outcome) {
            super(outcome.name(), null, false, false);
            this.outcome = outcome;
        }
    }

    /** What the task needs from the watcher. */
    interface Env {
        Prover prover(TrackedFile file, Instant completeAt);

        Clock clock();

        Optional<String> notes();

        /** Proves on this thread and stamps each new proof. */
        BatchProver batch();

        WatchEvent event(StampResult r, String why);

        /** Publishes a new proof, if the watcher publishes: what became of it. */
        default Optional<WatchEvent> publish(String sha256) {
            return Optional.empty();
        }
    }

    private ProveTask() {}

    static Done run(Env env, TrackedFile f, long size, long mtime) {
        Path path = Path.of(f.path());
        Instant completeAt = env.clock().instant();
        boolean[] storing = {false};
        try {
            check(path, size, mtime);
            Prover prover = env.prover(f, completeAt).withGuard((file, sha256, read) -> {
                if (read != size) {
                    throw new Moved(Outcome.CHANGED);
                }
                check(path, size, mtime);
                storing[0] = true;
            });
            BatchProver.Item item = env.batch().prove(prover, path, new Prover.Options(env.notes(), false, StreamSigner.Progress.NONE));
            ProveResult r = item.result();
            check(path, size, mtime);
            Instant at = env.clock().instant();
            return switch (r.outcome()) {
                case SKIPPED -> done(f, Outcome.SKIPPED, Optional.empty(), size, mtime, at, r.reason(), List.of());
                case EXISTING -> done(f, Outcome.KNOWN, r.sha256(), size, mtime, at, Optional.empty(), List.of());
                case PROVED -> done(f, Outcome.PROVED, r.sha256(), size, mtime, at, Optional.empty(), followUps(env, item));
            };
        } catch (Moved m) {
            return done(f, m.outcome, Optional.empty(), size, mtime, env.clock().instant(), Optional.empty(), List.of());
        } catch (ProofModeException e) {
            // a key that cannot be had is not the file's fault: retried like a store that cannot be written
            Outcome o = e.failure() == Failure.INPUT_MISSING ? Outcome.GONE
                    : storing[0] || e.failure() == Failure.KEY_LOCKED ? Outcome.STORAGE : Outcome.UNREADABLE;
            String m = e.getCause() instanceof AccessDeniedException ? path + ": cannot read: permission denied" : e.getMessage();
            return done(f, o, Optional.empty(), size, mtime, env.clock().instant(), Optional.of(m), List.of());
        } catch (RuntimeException e) {
            String m = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
            return done(f, storing[0] ? Outcome.STORAGE : Outcome.UNREADABLE, Optional.empty(), size, mtime,
                    env.clock().instant(), Optional.of(path + ": " + m), List.of());
        }
    }

    /** What followed a new proof: its timestamps, then its publishing. */
    private static List<WatchEvent> followUps(Env env, BatchProver.Item item) {
        List<WatchEvent> out = stampEvents(env, item);
        item.result().sha256().flatMap(env::publish).ifPresent(out::add);
        return out;
    }

    private static List<WatchEvent> stampEvents(Env env, BatchProver.Item item) {
        List<WatchEvent> out = new ArrayList<>();
        for (StampResult r : item.stamps()) {
            out.add(env.event(r, "new"));
        }
        item.stampFailure().ifPresent(e -> out.add(WatchEvent.of(env.clock().instant(), Kind.ERROR, "sha256",
                item.result().sha256().orElseThrow(), "error", "timestamp: " + e.getMessage())));
        return out;
    }

    private static Done done(TrackedFile f, Outcome o, Optional<String> sha, long size, long mtime, Instant at,
            Optional<String> error, List<WatchEvent> stamps) {
        return new Done(f, o, sha, size, mtime, at, error, new ArrayList<>(stamps));
    }

    /** Throws {@link Moved} unless the file is still there with this size and time. */
    private static void check(Path path, long size, long mtime) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new Moved(Outcome.GONE);
            }
            if (a.size() != size || a.lastModifiedTime().to(TimeUnit.NANOSECONDS) != mtime) {
                throw new Moved(Outcome.CHANGED);
            }
        } catch (NoSuchFileException e) {
            throw new Moved(Outcome.GONE);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, path + ": cannot read: " + e.getMessage(), e);
        }
    }
}
