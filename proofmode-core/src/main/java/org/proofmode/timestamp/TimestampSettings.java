// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;
import org.proofmode.util.Http;

/**
 * Where timestamps come from, read from {@code PROOFMODE_HOME/timestamp.conf}: RFC 3161 authorities
 * ({@code tsa.url}, none by default), OpenTimestamps calendars ({@code ots.calendar}, the public ones by
 * default) and network timeouts. The file is plain {@code key = value} lines with {@code #} comments.
 *
 * @param tsaUrls RFC 3161 authorities, in the order they are tried
 * @param calendars OpenTimestamps calendars
 * @param timeouts network timeouts
 */
public record TimestampSettings(List<URI> tsaUrls, List<URI> calendars, Http.Timeouts timeouts) {
    /** The file name under the home folder. */
    public static final String FILE = Home.TIMESTAMP_SETTINGS.path();

    /** The public OpenTimestamps calendars, used when the file names none. */
    public static final List<URI> PUBLIC_CALENDARS = List.of(
            URI.create("https://alice.btc.calendar.opentimestamps.org"),
            URI.create("https://bob.btc.calendar.opentimestamps.org"),
            URI.create("https://finney.calendar.eternitywall.com"));

    /** No authority, the public calendars, default timeouts. */
    public static final TimestampSettings DEFAULT = new TimestampSettings(List.of(), PUBLIC_CALENDARS, Http.Timeouts.DEFAULT);

    /** Validates and copies. */
    public TimestampSettings {
        tsaUrls = List.copyOf(tsaUrls);
        calendars = List.copyOf(calendars);
        Objects.requireNonNull(timeouts, "timeouts");
        tsaUrls.forEach(TimestampSettings::checkUrl);
        calendars.forEach(TimestampSettings::checkUrl);
    }

    /**
     * Reads the settings of a home folder; the defaults if it has no settings file.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} for a line that cannot be understood
     */
    public static TimestampSettings load(Path home) {
        Path file = home.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return DEFAULT;
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses the text of a settings file.
     *
     * @param text the file's text
     * @param name the file's name, for messages
     * @throws ProofModeException with {@link Failure#BAD_DATA} naming the line that cannot be understood
     */
    public static TimestampSettings parse(String text, String name) {
        List<URI> tsa = new ArrayList<>();
        List<URI> cal = new ArrayList<>();
        Duration connect = Http.Timeouts.DEFAULT.connect();
        Duration request = Http.Timeouts.DEFAULT.request();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw bad(name, i, "expected 'key = value'");
            }
            String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(eq + 1).strip();
            switch (key) {
                case "tsa.url" -> tsa.add(url(name, i, value));
                case "ots.calendar" -> cal.add(url(name, i, value));
                case "http.connect-timeout" -> connect = seconds(name, i, value);
                case "http.timeout" -> request = seconds(name, i, value);
                default -> throw bad(name, i, "unknown key '" + key + "'");
            }
        }
        return new TimestampSettings(tsa, cal.isEmpty() ? PUBLIC_CALENDARS : cal, new Http.Timeouts(connect, request));
    }

    /** The commented default file: every key, with the defaults commented out. */
    public static String defaultText() {
        try (InputStream in = TimestampSettings.class.getResourceAsStream(FILE)) {
            return new String(Objects.requireNonNull(in, "missing resource " + FILE).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes the commented default file into a home folder unless one is there, so that people find it.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public static void writeDefaultIfMissing(Path home) {
        Path file = home.resolve(FILE);
        if (Files.exists(file)) {
            return;
        }
        HomeLock.run(home, () -> {
            try {
                if (!Files.exists(file)) {
                    AtomicFiles.write(file, defaultText().getBytes(StandardCharsets.UTF_8), false, false);
                }
            } catch (FileAlreadyExistsException e) {
                // another process wrote it meanwhile
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot write " + file + ": " + e.getMessage(), e);
            }
        });
    }

    /** Tells whether a calendar URL is one of the configured ones (ignoring a trailing slash). */
    public boolean isCalendar(String uri) {
        String u = strip(uri);
        return calendars.stream().anyMatch(c -> strip(c.toString()).equals(u));
    }

    private static String strip(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static void checkUrl(URI u) {
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
            throw new IllegalArgumentException("not an http(s) URL: " + u);
        }
    }

    private static URI url(String name, int line, String value) {
        try {
            URI u = new URI(value);
            checkUrl(u);
            return u;
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw bad(name, line, "not an http(s) URL: " + value);
        }
    }

    private static Duration seconds(String name, int line, String value) {
        try {
            int s = Integer.parseInt(value);
            if (s < 1 || s > 3600) {
                throw bad(name, line, "seconds must be from 1 to 3600");
            }
            return Duration.ofSeconds(s);
        } catch (NumberFormatException e) {
            throw bad(name, line, "not a number of seconds: " + value);
        }
    }

    private static ProofModeException bad(String name, int line, String why) {
        return new ProofModeException(Failure.BAD_DATA, name + ":" + (line + 1) + ": " + why);
    }
}
