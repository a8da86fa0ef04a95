// SPDX-License-Identifier: Apache-2.0
package org.proofmode.i18n;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sentences of one {@link Language}, read from {@code org/proofmode/i18n/texts[_TAG].properties} (UTF-8).
 * A sentence with arguments is a {@link MessageFormat} pattern in the language's locale ({@code {0}}, and
 * {@code {0,choice,...}} for plurals), so a single quote is written {@code ''} in such a pattern; a sentence
 * without arguments is returned as written. A key the language lacks falls back to English (a test keeps
 * every file complete).
 */
public final class Texts {
    private static final Map<Language, Texts> LOADED = new EnumMap<>(Language.class);

    private final Language language;
    private final Properties own;
    private final Properties english;

    private Texts(Language language, Properties own, Properties english) {
        this.language = language;
        this.own = own;
        this.english = english;
    }

    /** The texts of a language, read once. */
    public static synchronized Texts of(Language language) {
        Objects.requireNonNull(language, "language");
        return LOADED.computeIfAbsent(language, l -> new Texts(l, read(l), l == Language.EN ? read(l) : of(Language.EN).own));
    }

    /** The language. */
    public Language language() {
        return language;
    }

    /**
     * The sentence of a key, with its arguments put in.
     *
     * @throws IllegalArgumentException if no language, not even English, has the key
     */
    public String get(String key, Object... args) {
        String pattern = own.getProperty(key, english.getProperty(key));
        if (pattern == null) {
            throw new IllegalArgumentException("no text " + key);
        }
        return args.length == 0 ? pattern : new MessageFormat(pattern, language.locale()).format(args);
    }

    /**
     * An ISO 8601 instant as written, followed in another language than English by the same date and time in
     * that language's long form, in UTC: {@code 2026-03-14T09:00:00Z (14 mars 2026, 09:00:00 UTC)}. Text that
     * is not such an instant is returned as it is.
     */
    public String date(String iso) {
        if (language == Language.EN) {
            return iso;
        }
        try {
            Instant t = Instant.parse(iso);
            return iso + " (" + DateTimeFormatter.ofLocalizedDateTime(FormatStyle.LONG).withLocale(language.locale()).withZone(ZoneOffset.UTC)
                    .format(t) + ")";
        } catch (DateTimeException e) {
            return iso;
        }
    }

    /** The keys this language's file has. */
    public Set<String> keys() {
        return new TreeSet<>(own.stringPropertyNames());
    }

    /** The raw pattern of a key in this language's own file, without English fallback, if it has it. */
    public java.util.Optional<String> pattern(String key) {
        return java.util.Optional.ofNullable(own.getProperty(key));
    }

    /** The resource name of a language's file. */
    static String resource(Language language) {
        return "texts" + language.suffix() + ".properties";
    }

    private static Properties read(Language language) {
        Properties p = new Properties();
        try (InputStream in = Texts.class.getResourceAsStream(resource(language))) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource(language));
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
