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
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sentences of one {@link Language} in one {@link Family} of files, read from
 * {@code org/proofmode/i18n/FAMILY[_TAG].properties} (UTF-8).
 * A sentence with arguments is a {@link MessageFormat} pattern in the language's locale ({@code {0}}, and
 * {@code {0,choice,...}} for plurals), so a single quote is written {@code ''} in such a pattern; a sentence
 * without arguments is returned as written. A key the language lacks falls back to English (a test keeps
 * every file complete).
 */
public final class Texts {
    /**
     * A family of resource files, one file a language, each a translator works through on its own.
     */
    public enum Family {
        /** {@code texts[_TAG].properties}: the bundle's instructions, the report's own sentences, {@code help sharing}. */
        TEXTS("texts"),
        /**
         * {@code meanings_TAG.properties}: what each check code means, keyed by the code. The English is
         * {@code verify.Meanings} itself, so English has no file of this family; each translation carries the
         * English it was made from as a {@code # en:} comment above it.
         */
        MEANINGS("meanings"),
        /**
         * {@code sharing_TAG.properties}: {@code proofmode help sharing} ({@code cli.SharingTopic}, whose own text
         * is the English, so English has no file of this family either); {@code # en:} comments as in
         * {@link #MEANINGS}.
         */
        SHARING("sharing");

        private final String base;

        Family(String base) {
            this.base = base;
        }

        /** The resource name of a language's file of this family. */
        public String resource(Language language) {
            return base + language.suffix() + ".properties";
        }
    }

    private static final Map<Family, Map<Language, Texts>> LOADED = new EnumMap<>(Family.class);

    private final Language language;
    private final Properties own;
    private final Properties english;

    private Texts(Language language, Properties own, Properties english) {
        this.language = language;
        this.own = own;
        this.english = english;
    }

    /** The texts of a language, read once. */
    public static Texts of(Language language) {
        return of(Family.TEXTS, language);
    }

    /** The texts of a language in a family, read once; English of a family whose English is in code is empty (see {@link Family}). */
    public static synchronized Texts of(Family family, Language language) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(language, "language");
        Map<Language, Texts> loaded = LOADED.computeIfAbsent(family, f -> new EnumMap<>(Language.class));
        Texts t = loaded.get(language);
        if (t == null) {
            Properties english = language == Language.EN ? read(family, language) : of(family, Language.EN).own;
            t = new Texts(language, language == Language.EN ? english : read(family, language), english);
            loaded.put(language, t);
        }
        return t;
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
            return iso + " (" + DateTimeFormatter.ofLocalizedDateTime(FormatStyle.LONG).withLocale(language.locale()).withZone(ZoneId.of("UTC"))
                    .format(t) + ")";
        } catch (DateTimeException e) {
            return iso;
        }
    }

    /** An ISO 8601 instant in UTC inside text ({@link #dates}). */
    private static final java.util.regex.Pattern INSTANT = java.util.regex.Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?Z");

    /**
     * Text with each ISO 8601 instant in it followed by its long form, as {@link #date} does: for messages that
     * quote a time (a time stamp's, a log entry's). English text is returned as it is.
     */
    public String dates(String text) {
        if (language == Language.EN) {
            return text;
        }
        return INSTANT.matcher(text).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(date(m.group())));
    }

    /** The argument numbers a pattern uses ({@code {0}}, {@code {1,choice,...}}...), for tests that hold translations to their source. */
    public static Set<Integer> placeholders(String pattern) {
        Set<Integer> out = new TreeSet<>();
        java.util.regex.Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }

    private static final java.util.regex.Pattern PLACEHOLDER = java.util.regex.Pattern.compile("\\{(\\d+)");

    /** The keys this language's file has. */
    public Set<String> keys() {
        return new TreeSet<>(own.stringPropertyNames());
    }

    /** The raw pattern of a key in this language's own file, without English fallback, if it has it. */
    public java.util.Optional<String> pattern(String key) {
        return java.util.Optional.ofNullable(own.getProperty(key));
    }

    /** The sentence of a key in this language's own file, without English fallback, with its arguments put in. */
    public java.util.Optional<String> own(String key, Object... args) {
        return pattern(key).map(p -> args.length == 0 ? p : new MessageFormat(p, language.locale()).format(args));
    }

    /** The resource name of a language's file. */
    static String resource(Language language) {
        return Family.TEXTS.resource(language);
    }

    private static Properties read(Family family, Language language) {
        Properties p = new Properties();
        if (family != Family.TEXTS && language == Language.EN) {
            return p;
        }
        try (InputStream in = Texts.class.getResourceAsStream(family.resource(language))) {
            if (in == null) {
                throw new IllegalStateException("missing " + family.resource(language));
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
