// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import picocli.CommandLine.Command;

/**
 * {@code proofmode help sharing} in the user's language ({@code --lang}, else the locale) with the English
 * beside it; each translation ({@code i18n/sharing_TAG.properties}) made from the English the topic has now.
 */
class SharingTopicTest {
    @TempDir
    Path tmp;

    @Test
    void helpSharing_inTheAskedLanguage_thenTheSameInEnglish() {
        Cli.Result r = new Cli(tmp).env("LANG", "C.UTF-8").run("help", "sharing", "--lang", "fr");
        assertThat(r.exit()).as(r.err()).isZero();
        String out = r.out();
        int french = out.indexOf("Révèle : tout ce que la preuve a enregistré");
        int english = out.indexOf("Reveals: everything the proof recorded");
        assertThat(french).isPositive();
        assertThat(english).isGreaterThan(french);
        assertThat(out).contains("Comment partager une preuve", "1. Notarier seulement :  proofmode notarize PHOTO", "Le même texte en anglais suit.",
                "1. Notarize only:  proofmode notarize PHOTO", "3. Share proof with media:  proofmode export --with-media");
        // the commands and options are the same in both
        assertThat(out.split("proofmode notarize PHOTO", -1)).hasSize(3);
        assertThat(out.split("Reveals:", -1)).hasSize(4);
    }

    @Test
    void helpSharing_inTheLocalesLanguage_withoutLang_andEnglishAloneInAnEnglishLocale() {
        Cli.Result uk = new Cli(tmp).env("LANG", "uk_UA.UTF-8").run("help", "sharing");
        assertThat(uk.exit()).as(uk.err()).isZero();
        assertThat(uk.out()).contains("Як поширити доказ", "Розкриває:", "Reveals:");
        Cli.Result ar = new Cli(tmp).env("LC_ALL", "ar_SY.UTF-8").run("sharing");
        assertThat(ar.out()).contains("كيف تشارك إثباتا", "Reveals:");
        Cli.Result en = new Cli(tmp).env("LANG", "en_GB.UTF-8").run("help", "sharing");
        assertThat(en.out()).contains("Reveals:").doesNotContain("Révèle", "Розкриває", "-".repeat(72));
        assertThat(new Cli(tmp).env("LANG", "C.UTF-8").run("sharing", "--lang", "zh-Hans").out()).contains("如何分享证明", "透露：", "Reveals:");
    }

    @Test
    void helpSharing_failsWithOneLine_forALanguageWithoutTexts() {
        Cli.Result r = new Cli(tmp).env("LANG", "C.UTF-8").run("help", "sharing", "--lang", "xx");
        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(r.err()).contains("no texts in language 'xx'");
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void translation_wasMadeFromTheTopicsCurrentEnglish(Language language) throws Exception {
        Command command = SharingTopic.class.getAnnotation(Command.class);
        Map<String, String> english = new LinkedHashMap<>();
        english.put("header", command.header()[0]);
        for (int i = 0; i < command.description().length; i++) {
            if (!command.description()[i].isBlank()) {
                english.put("d." + i, command.description()[i].strip());
            }
        }
        String resource = Texts.Family.SHARING.resource(language);
        String text;
        try (InputStream in = Texts.class.getResourceAsStream(resource)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Properties own = new Properties();
        own.load(new StringReader(text));
        Map<String, String> madeFrom = new LinkedHashMap<>();
        String en = null;
        for (String line : text.lines().toList()) {
            if (line.startsWith("# en: ")) {
                en = line.substring(6);
            } else if (!line.startsWith("#") && line.contains("=")) {
                madeFrom.put(line.substring(0, line.indexOf('=')), en);
            }
        }
        madeFrom.remove("english");
        assertThat(madeFrom).as("%s: each translation was made from the English SharingTopic has now", resource).isEqualTo(english);
        assertThat(own.stringPropertyNames()).as(resource).containsAll(english.keySet()).contains("english");
        own.values().forEach(v -> assertThat(v.toString()).as("picocli formats the text: no %% sign").doesNotContain("%"));
    }
}
