// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.time.Duration;
import java.util.Optional;
import org.proofmode.watch.WatchEvent.Kind;

/** Turns one finished attempt into the watcher's new state and a log event. Runs on the watcher's thread. */
final class Results {
    private Results() {}

    static void apply(ProveTask.Done d, Watcher w, WatchDb db) {
        TrackedFile f = w.current(d.file().path(), d.file());
        String path = f.path();
        switch (d.outcome()) {
            case PROVED -> {
                String h = d.sha256().orElseThrow();
                w.record(f.with(FileState.DONE, d.size(), d.mtime(), d.sha256()), false);
                ProofEntry p = new ProofEntry(h, path, f.detectedAt(), d.at());
                w.proved(p);
                w.emit(Kind.PROVED, "path", path, "sha256", h, "detectedAt", f.detectedAt().toString(),
                        "latencyMs", Long.toString(p.latencyMillis()));
            }
            case KNOWN -> {
                String h = d.sha256().orElseThrow();
                w.record(f.with(FileState.DONE, d.size(), d.mtime(), d.sha256()), false);
                Optional<String> first = db.proof(h).map(ProofEntry::path).filter(p -> !p.equals(path));
                w.emit(Kind.KNOWN, "path", path, "sha256", h, "provedAs", first.orElse(null));
            }
            case SKIPPED -> {
                w.record(f.with(FileState.SKIPPED, d.size(), d.mtime(), Optional.empty()), false);
                w.emit(Kind.SKIPPED, "path", path, "reason", d.error().orElse("not media"));
            }
            case CHANGED -> {
                w.waitAgain(path);
                w.emit(Kind.CHANGED, "path", path);
            }
            case GONE -> w.gone(path);
            case UNREADABLE -> {
                int n = f.attempts() + 1;
                String error = d.error().orElse("cannot read");
                if (n >= w.config().maxAttempts()) {
                    w.record(f.failed(FileState.FAILED, n, 0, error), false);
                    w.emit(Kind.FAILED, "path", path, "attempts", Integer.toString(n), "error", error);
                } else {
                    Duration wait = w.config().backoff(n);
                    w.record(f.failed(FileState.PENDING, n, d.at().plus(wait).toEpochMilli(), error), true);
                    w.emit(Kind.RETRY, "path", path, "attempt", Integer.toString(n), "retryInMs", Long.toString(wait.toMillis()),
                            "error", error);
                }
            }
            case STORAGE -> {
                int n = f.attempts() + 1;
                Duration wait = w.config().backoff(n);
                String error = d.error().orElse("cannot store the proof");
                w.record(f.failed(FileState.PENDING, n, d.at().plus(wait).toEpochMilli(), error), true);
                w.emit(Kind.ERROR, "path", path, "error", error, "retryInMs", Long.toString(wait.toMillis()));
            }
            default -> throw new IllegalStateException(d.outcome().name());
        }
        d.stampEvents().forEach(w::emit);
    }
}
