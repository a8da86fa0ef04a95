// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Map;
import org.proofmode.util.SafeText;
import org.proofmode.watch.WatchEvent;
import org.proofmode.watch.WatchListener;

/** Writes the watcher's events to stderr, one line each: {@code TIME EVENT name=value ...} or one JSON object. */
public final class WatchLog implements WatchListener {
    /** How lines look. */
    public enum Format {
        /** {@code 2026-12-03T10:00:00.123Z proved path=/photos/a.jpg sha256=… latencyMs=612} */
        TEXT,
        /** {@code {"time":"…","event":"proved","path":"/photos/a.jpg",…}} */
        JSON
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter err;
    private final Format format;

    public WatchLog(PrintWriter err, Format format) {
        this.err = err;
        this.format = format;
    }

    @Override
    public synchronized void on(WatchEvent e) {
        err.println(format == Format.JSON ? json(e) : text(e));
        err.flush();
    }

    public static String text(WatchEvent e) {
        StringBuilder b = new StringBuilder().append(e.time()).append(' ').append(e.kind().label());
        for (Map.Entry<String, String> f : e.fields().entrySet()) {
            b.append(' ').append(f.getKey()).append('=').append(quoted(f.getValue()));
        }
        return b.toString();
    }

    public static String json(WatchEvent e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("time", e.time().toString());
        n.put("event", e.kind().label());
        e.fields().forEach(n::put);
        return n.toString();
    }

    /**
     * A value as is if it has no space, quote or character {@link SafeText} escapes; else in double quotes,
     * escaped by {@link SafeText} and with its quotes escaped.
     */
    private static String quoted(String v) {
        String safe = SafeText.escape(v);
        boolean plain = !v.isEmpty() && safe.equals(v) && v.chars().noneMatch(c -> c == ' ' || c == '"' || Character.isWhitespace(c));
        if (plain) {
            return v;
        }
        return '"' + safe.replace("\"", "\\\"") + '"';
    }
}
