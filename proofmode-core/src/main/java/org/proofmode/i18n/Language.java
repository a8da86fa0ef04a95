// SPDX-License-Identifier: Apache-2.0
package org.proofmode.i18n;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * A language the texts for receivers (the bundle's instructions, the report, the server's page) are written
 * in: its BCP 47 tag, its {@link Locale} and its writing direction. English is the source of every text.
 */
public enum Language {
    /** English, the source language. */
    EN("en", false),
    /** Spanish. */
    ES("es", false),
    /** French. */
    FR("fr", false),
    /** Arabic, written right to left. */
    AR("ar", true),
    /** Ukrainian. */
    UK("uk", false),
    /** Chinese in simplified characters. */
    ZH_HANS("zh-Hans", false);

    private final String tag;
    private final boolean rightToLeft;

    Language(String tag, boolean rightToLeft) {
        this.tag = tag;
        this.rightToLeft = rightToLeft;
    }

    /** The BCP 47 tag: {@code en}, {@code ar}, {@code zh-Hans}. */
    public String tag() {
        return tag;
    }

    /** The locale for dates and numbers. */
    public Locale locale() {
        return Locale.forLanguageTag(tag);
    }

    /** Whether the language is written right to left (HTML {@code dir="rtl"}). */
    public boolean rightToLeft() {
        return rightToLeft;
    }

    /** The suffix of its resource file ({@code texts_SUFFIX.properties}); empty for English. */
    String suffix() {
        return this == EN ? "" : "_" + tag.replace('-', '_');
    }

    /**
     * The language a tag or a POSIX locale name names, if it is one of ours: {@code fr}, {@code fr-CA},
     * {@code uk_UA.UTF-8}, {@code zh}, {@code zh-CN}, {@code zh_CN}, {@code zh-Hans} (Chinese is simplified
     * unless the tag says traditional: {@code zh-Hant}, {@code zh-TW}, {@code zh-HK} are not ours yet).
     */
    public static Optional<Language> find(String tagOrLocale) {
        Objects.requireNonNull(tagOrLocale, "tagOrLocale");
        String t = tagOrLocale.strip();
        int cut = indexOfAny(t, ".@");
        t = (cut < 0 ? t : t.substring(0, cut)).replace('_', '-');
        if (t.isEmpty()) {
            return Optional.empty();
        }
        Locale l = Locale.forLanguageTag(t);
        String lang = l.getLanguage();
        if (lang.equals("zh")) {
            String script = l.getScript();
            String country = l.getCountry();
            boolean traditional = script.equals("Hant") || (script.isEmpty() && (country.equals("TW") || country.equals("HK")
                    || country.equals("MO")));
            return traditional ? Optional.empty() : Optional.of(ZH_HANS);
        }
        return Arrays.stream(values()).filter(v -> v.tag.equals(lang)).findFirst();
    }

    /**
     * The language a user asked for by name (an option such as {@code --lang}).
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a language we have no texts in
     */
    public static Language parse(String tag) {
        return find(tag).orElseThrow(() -> new ProofModeException(Failure.BAD_ARGUMENT, "no texts in language '" + tag
                + "'; known: " + Arrays.stream(values()).map(Language::tag).collect(Collectors.joining(", "))));
    }

    /**
     * The language a command writes for the receiver in: the one asked for by name (an option such as
     * {@code --lang}), else the user's locale from the environment as POSIX orders it ({@code LC_ALL}, then
     * {@code LC_MESSAGES}, then {@code LANG}; the first one set decides), else English.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a language asked for that we have no texts in
     */
    public static Language chosen(Optional<String> asked, Map<String, String> env) {
        if (asked.isPresent()) {
            return parse(asked.get());
        }
        for (String name : List.of("LC_ALL", "LC_MESSAGES", "LANG")) {
            String value = env.getOrDefault(name, "");
            if (!value.isBlank()) {
                return find(value).orElse(EN);
            }
        }
        return EN;
    }

    /** The language of a locale (the JVM's default reads {@code LC_ALL}/{@code LANG}), English if not ours. */
    public static Language of(Locale locale) {
        return find(locale.toLanguageTag()).orElse(EN);
    }

    /** The language of this machine's locale ({@link Locale#getDefault()}), English if not one of ours. */
    public static Language ofDefaultLocale() {
        return of(Locale.getDefault());
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
