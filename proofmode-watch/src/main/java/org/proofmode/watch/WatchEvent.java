// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Something the watcher did or saw, for one log line.
 *
 * @param time when
 * @param kind what
 * @param fields details, in a stable order (e.g. {@code path}, {@code sha256}, {@code latencyMs})
 */
public record WatchEvent(Instant time, Kind kind, Map<String, String> fields) {
    /** What happened. */
    public enum Kind {
        /** The watcher started. */
        STARTED,
        /** A folder is being watched. */
        WATCHING,
        /** A new or changed file was seen; its context was recorded. */
        DETECTED,
        /** A new proof was made. */
        PROVED,
        /** The content already had a proof (a copy, a rename or a move): nothing new was made. */
        KNOWN,
        /** Not media; left alone. */
        SKIPPED,
        /** The file changed while it was being read; it is proved once it is complete again. */
        CHANGED,
        /** The file vanished before it could be proved. */
        GONE,
        /** An attempt failed; it will be tried again. */
        RETRY,
        /** Every attempt failed; reported and left until the file changes or the watcher restarts. */
        FAILED,
        /** The operating system dropped events, or a folder was rescanned. */
        RESCAN,
        /** A timestamp was obtained, or queued for later. */
        TIMESTAMP,
        /** A new proof was sent to the evidence server ({@code watch --publish}), or queued for later. */
        PUBLISHED,
        /** Something went wrong that is not about one file (storage, database). */
        ERROR,
        /** The watcher stopped. */
        STOPPED;

        /** The name used in logs, e.g. {@code proved}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Validates the fields. */
    public WatchEvent {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(kind, "kind");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** Builds an event from name/value pairs. */
    static WatchEvent of(Instant time, Kind kind, String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("name/value pairs expected");
        }
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                f.put(pairs[i], pairs[i + 1]);
            }
        }
        return new WatchEvent(time, kind, f);
    }
}
