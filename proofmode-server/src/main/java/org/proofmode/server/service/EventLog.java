// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;

/**
 * What the server tells its operator: one line per event on a stream (standard error, which systemd's
 * journal and container runtimes collect), as text for a person or as JSON lines for a log pipeline.
 *
 * <p>Every line has {@code time} (UTC, milliseconds), {@code level} ({@code info}, {@code warn},
 * {@code error}), {@code event} and {@code instance} (which server process, when several share a database
 * and a bucket), then the event's own fields: {@code start}, {@code stop}, {@code request} (method, path
 * without its query, status, milliseconds, client address, and for an intake the item and its verdict; for
 * a failure the server could not handle, the exception), {@code log} (the transparency log's sequencer fell
 * behind, or caught up), {@code connection-refused} (connections over the bound per client address were
 * closed as they opened: the last one's address, the bound, and how many since the last such line; at most
 * one line every 10 seconds).
 *
 * <p>Security: request paths and exception messages come from strangers; in JSON they are JSON strings, in
 * text every control character is escaped ({@link SafeText}), so no line can be forged. No token, query
 * string or request body is ever written.
 */
public final class EventLog {
    /** How lines are written. */
    public enum Format {
        /** {@code 2026-12-05T01:02:03.456Z info request method=POST path=/api/v1/evidence status=201 ...} */
        TEXT,
        /** One JSON object per line. */
        JSON
    }

    /** A log that writes nothing (tests, embedded use). */
    public static final EventLog OFF = new EventLog(null, Format.TEXT, Clock.systemUTC(), "");

    private static final JsonFactory JSON = new JsonFactory();

    private final PrintWriter out;
    private final Format format;
    private final Clock clock;
    private final String instance;

    /**
     * @param out where lines go (whole lines, flushed one by one, so lines from several threads never mix)
     * @param format text or JSON lines
     * @param clock the time of each line
     * @param instance this process's name among the instances (by default host name and process id)
     */
    public EventLog(PrintWriter out, Format format, Clock clock, String instance) {
        this.out = out;
        this.format = Objects.requireNonNull(format, "format");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.instance = Objects.requireNonNull(instance, "instance");
    }

    /**
     * The event log of a format's name on a writer ({@code serve --log-format}, {@code --instance}).
     *
     * @param out where the lines go
     * @param format {@code text}, {@code json} or {@code none}
     * @param instance this process's name among the instances; empty for {@link #defaultInstance}
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for another format or a name that is not
     *     1 to 200 printable characters
     */
    public static EventLog of(PrintWriter out, String format, Optional<String> instance) {
        if (instance.isPresent() && (instance.get().isBlank() || instance.get().length() > 200
                || !instance.get().equals(SafeText.escape(instance.get())))) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--instance is a name of 1 to 200 printable characters");
        }
        String name = instance.orElseGet(EventLog::defaultInstance);
        return switch (format) {
            case "text" -> new EventLog(out, Format.TEXT, Clock.systemUTC(), name);
            case "json" -> new EventLog(out, Format.JSON, Clock.systemUTC(), name);
            case "none" -> OFF;
            default -> throw new ProofModeException(Failure.BAD_ARGUMENT, "--log-format is text, json or none, not "
                    + SafeText.escape(format));
        };
    }

    /** The default instance name: {@code HOST:PID}. */
    public static String defaultInstance() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid();
    }

    /** An informational event. */
    public void info(String event, Map<String, ?> fields) {
        write("info", event, fields);
    }

    /** Something the operator should look at, though the server goes on. */
    public void warn(String event, Map<String, ?> fields) {
        write("warn", event, fields);
    }

    /** A failure the server could not handle. */
    public void error(String event, Map<String, ?> fields) {
        write("error", event, fields);
    }

    /** The fields of an exception: its class and one-line message. */
    public static Map<String, Object> exception(Throwable e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("exception", e.getClass().getName());
        m.put("message", String.valueOf(e.getMessage()));
        return m;
    }

    private void write(String level, String event, Map<String, ?> fields) {
        if (out == null) {
            return;
        }
        String time = Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
        String line = format == Format.JSON ? json(time, level, event, fields) : text(time, level, event, fields);
        synchronized (this) {
            out.println(line);
            out.flush();
        }
    }

    private String json(String time, String level, String event, Map<String, ?> fields) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("time", time);
            g.writeStringField("level", level);
            g.writeStringField("event", event);
            g.writeStringField("instance", instance);
            for (Map.Entry<String, ?> f : fields.entrySet()) {
                Object v = f.getValue();
                if (v instanceof Number n) {
                    g.writeFieldName(f.getKey());
                    if (n instanceof Double || n instanceof Float) {
                        g.writeNumber(n.doubleValue());
                    } else {
                        g.writeNumber(n.longValue());
                    }
                } else if (v instanceof Boolean b) {
                    g.writeBooleanField(f.getKey(), b);
                } else if (v != null) {
                    g.writeStringField(f.getKey(), v.toString());
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }

    private String text(String time, String level, String event, Map<String, ?> fields) {
        StringBuilder b = new StringBuilder(time).append(' ').append(level).append(' ').append(event)
                .append(" instance=").append(SafeText.escape(instance));
        for (Map.Entry<String, ?> f : fields.entrySet()) {
            if (f.getValue() == null) {
                continue;
            }
            String v = SafeText.escape(f.getValue().toString());
            b.append(' ').append(f.getKey()).append('=');
            if (v.isEmpty() || v.chars().anyMatch(c -> c == ' ' || c == '"' || c == '=')) {
                b.append('"').append(v.replace("\"", "\\\"")).append('"'); // backslashes are escaped already
            } else {
                b.append(v);
            }
        }
        return b.toString();
    }
}
