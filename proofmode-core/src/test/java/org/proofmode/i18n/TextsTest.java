// SPDX-License-Identifier: Apache-2.0
package org.proofmode.i18n;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class TextsTest {
    @ParameterizedTest
    @EnumSource(Language.class)
    void keys_sameAsEnglish_inEveryLanguage(Language language) {
        assertThat(Texts.of(language).keys()).as(Texts.resource(language)).isEqualTo(Texts.of(Language.EN).keys());
    }

    @ParameterizedTest
    @EnumSource(Language.class)
    void placeholders_sameAsEnglish_inEveryText(Language language) {
        Texts english = Texts.of(Language.EN);
        Texts texts = Texts.of(language);
        for (String key : english.keys()) {
            String en = english.pattern(key).orElseThrow();
            String own = texts.pattern(key).orElseThrow();
            assertThat(Texts.placeholders(own)).as("%s in %s", key, Texts.resource(language)).isEqualTo(Texts.placeholders(en));
            if (!Texts.placeholders(en).isEmpty()) {
                // a lone apostrophe quotes what follows in a MessageFormat: a placeholder would vanish unseen
                Object[] args = Texts.placeholders(en).stream().map(i -> "«ARG" + i + "»").toArray();
                String out = texts.get(key, args);
                assertThat(out).as("%s in %s", key, Texts.resource(language)).contains(Arrays.stream(args).map(String::valueOf).toList())
                        .doesNotContain("{");
                assertThat(new MessageFormat(own).getFormatsByArgumentIndex()).hasSameSizeAs(new MessageFormat(en).getFormatsByArgumentIndex());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Language.class)
    void header_saysWhatIsReviewed_inEveryFile(Language language) throws IOException {
        String file = file(language);
        List<String> header = file.lines().takeWhile(l -> l.startsWith("#")).toList();
        String reviewed = header.stream().filter(l -> l.startsWith("# reviewed:")).findFirst().orElseThrow(
                () -> new AssertionError(Texts.resource(language) + " has no '# reviewed:' line"));
        if (language != Language.EN) {
            assertThat(header).as(Texts.resource(language)).anyMatch(l -> l.contains("Machine-made translation: no native speaker has reviewed it yet"));
            Set<String> listed = new TreeSet<>(Arrays.asList(reviewed.substring("# reviewed:".length()).trim().split("[\\s,]+")));
            listed.remove("");
            assertThat(Texts.of(language).keys()).as("reviewed keys of %s", Texts.resource(language)).containsAll(listed);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void header_saysWhatIsReviewed_inEveryFamilysFile(Language language) throws IOException {
        for (Texts.Family family : List.of(Texts.Family.MEANINGS, Texts.Family.SHARING)) {
            String resource = family.resource(language);
            String file;
            try (InputStream in = Texts.class.getResourceAsStream(resource)) {
                assertThat(in).as(resource).isNotNull();
                file = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            List<String> header = file.lines().takeWhile(l -> l.startsWith("#")).toList();
            assertThat(header).as(resource).anyMatch(l -> l.contains("Machine-made translation: no native speaker has reviewed it yet"))
                    .anyMatch(l -> l.startsWith("# reviewed:"));
            assertThat(Texts.of(family, language).keys()).as(resource).hasSizeGreaterThan(15);
            assertThat(Texts.of(family, Language.EN).keys()).as("English of %s is in the code", family).isEmpty();
        }
    }

    @Test
    void dates_addsTheLongForm_besideEveryInstantInAText() {
        String message = "stamped 2026-03-14T09:00:00Z by the authority, logged 2026-03-15T10:30:00.123Z";
        assertThat(Texts.of(Language.EN).dates(message)).isEqualTo(message);
        assertThat(Texts.of(Language.FR).dates(message)).contains("2026-03-14T09:00:00Z (14 mars 2026", "2026-03-15T10:30:00.123Z (15 mars 2026")
                .startsWith("stamped ").contains(" by the authority, logged ");
        assertThat(Texts.of(Language.ES).dates("no time here")).isEqualTo("no time here");
    }

    @Test
    void get_putsArgumentsIn_inTheLanguage() {
        assertThat(Texts.of(Language.FR).get("howto.rename.one", "a", "b", "c")).isEqualTo("Le média a s'appelle b ci-dessous (cela remplace c) :");
        assertThat(Texts.of(Language.AR).get("howto.files")).isEqualTo("الملفات");
    }

    @Test
    void find_readsTagsAndPosixLocales() {
        assertThat(Language.find("uk_UA.UTF-8")).contains(Language.UK);
        assertThat(Language.find("fr-CA")).contains(Language.FR);
        assertThat(Language.find("zh_CN.UTF-8")).contains(Language.ZH_HANS);
        assertThat(Language.find("zh-Hans")).contains(Language.ZH_HANS);
        assertThat(Language.find("zh")).contains(Language.ZH_HANS);
        assertThat(Language.find("ar_SY")).contains(Language.AR);
        assertThat(Language.find("zh-TW")).isEmpty();
        assertThat(Language.find("zh-Hant")).isEmpty();
        assertThat(Language.find("de_DE")).isEmpty();
        assertThat(Language.find("C")).isEmpty();
        assertThat(Language.of(Locale.GERMANY)).isEqualTo(Language.EN);
        assertThat(Language.AR.rightToLeft()).isTrue();
        assertThat(Language.ZH_HANS.rightToLeft()).isFalse();
    }

    @Test
    void parse_fails_forALanguageWithoutTexts() {
        assertThatThrownBy(() -> Language.parse("de")).isInstanceOfSatisfying(ProofModeException.class,
                e -> assertThat(e.failure()).isEqualTo(Failure.BAD_ARGUMENT)).hasMessageContaining("zh-Hans");
    }

    @Test
    void date_addsTheLanguagesLongForm_besideTheIsoForm() {
        String iso = "2026-03-14T09:00:00Z";
        assertThat(Texts.of(Language.EN).date(iso)).isEqualTo(iso);
        assertThat(Texts.of(Language.FR).date(iso)).startsWith(iso + " (").contains("14 mars 2026", "09:00:00");
        assertThat(Texts.of(Language.UK).date(iso)).startsWith(iso + " (").contains("14 березня 2026");
        assertThat(Texts.of(Language.ZH_HANS).date(iso)).startsWith(iso + " (").contains("2026年3月14日");
        assertThat(Texts.of(Language.AR).date(iso)).startsWith(iso + " (").contains("مارس");
        assertThat(Texts.of(Language.ES).date("not a date")).isEqualTo("not a date");
    }


    private static String file(Language language) throws IOException {
        try (InputStream in = Texts.class.getResourceAsStream(Texts.resource(language))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
