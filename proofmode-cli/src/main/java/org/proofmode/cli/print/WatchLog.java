// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.util.SafeText;
import org.proofmode.watch.WatchEvent;
import org.proofmode.watch.WatchListener;

/**
 * Writes the watcher's events to stderr, one line each: {@code TIME EVENT name=value ...} or one JSON object.
 *
 * <p>Security: in a home whose proof store is encrypted, stderr is not (the login unit sends it to the
 * journal, which keeps it outside the home), so the lines then carry no path, folder, file name or hash:
 * only the event, counts, the kinds of things ({@code by}, {@code kind}, {@code what}) and an error's kind
 * (its leading words, e.g. {@code cannot watch}), never its message.
 */
public final class WatchLog implements WatchListener {
    /** The fields a line keeps in an encrypted home: none of them names a file or its content. */
    private static final Set<String> SEALED_FIELDS = Set.of("attempts", "attempt", "retryInMs", "pending", "known", "by", "kind",
            "what", "action", "outcome", "for");
    /** An error's kind: its leading lower-case words before a colon. */
    private static final Pattern ERROR_KIND = Pattern.compile("([a-z][a-z ]{0,40}):.*", Pattern.DOTALL);

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

    private final boolean sealed;

    public WatchLog(PrintWriter err, Format format) {
        this(err, format, false);
    }

    /**
     * A log for a watcher.
     *
     * @param sealed whether the home's proof store is encrypted: then no line names a file or a hash
     */
    public WatchLog(PrintWriter err, Format format, boolean sealed) {
        this.err = err;
        this.format = format;
        this.sealed = sealed;
    }

    @Override
    public synchronized void on(WatchEvent e) {
        WatchEvent shown = sealed ? withheld(e) : e;
        err.println(format == Format.JSON ? json(shown) : text(shown));
        err.flush();
    }

    /** The event with only what names no file: counts, kinds, an error's kind. */
    public static WatchEvent withheld(WatchEvent e) {
        Map<String, String> kept = new LinkedHashMap<>();
        e.fields().forEach((k, v) -> {
            if (SEALED_FIELDS.contains(k)) {
                kept.put(k, v);
            } else if (k.equals("folders")) {
                kept.put("folders", Integer.toString(v.isEmpty() ? 0 : v.split(",", -1).length));
            } else if (k.equals("error")) {
                Matcher m = ERROR_KIND.matcher(v);
                kept.put("error", m.matches() ? m.group(1) : "withheld");
            }
        });
        return new WatchEvent(e.time(), e.kind(), kept);
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
