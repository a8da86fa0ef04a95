// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.Meanings;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Status;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verdict;

/**
 * The check meanings in the report's language ({@code i18n/meanings_TAG.properties}): every code of
 * {@link CheckCodes} and {@link Meanings#codes()} has an English sentence and a translation in every language,
 * each translation was made from the English that is current (its {@code # en:} line), with the same
 * placeholders.
 */
class ReportMeaningsTest {
    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void translated_hasEveryCodesSentence_inEveryLanguage(Language language) {
        // MeaningsTest holds every constant of CheckCodes to an entry of Meanings.codes()
        Set<String> codes = Meanings.codes();
        assertThat(codes).hasSizeGreaterThan(160);
        ReportMeanings m = ReportMeanings.of(language);
        for (String code : codes) {
            assertThat(Meanings.known(code)).as("English of %s", code).isPresent();
            assertThat(m.translated(code)).as("%s in %s", code, language).isPresent();
            assertThat(m.of(code)).as("%s in %s", code, language).isNotEqualTo(Meanings.of(code)).doesNotContain("{");
        }
        for (Verdict v : Verdict.values()) {
            assertThat(m.of(v)).as("%s in %s", v, language).isNotEqualTo(Meanings.of(v));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void file_wasMadeFromTheCurrentEnglish_withItsPlaceholders(Language language) throws IOException {
        Map<String, String[]> entries = entries(Texts.Family.MEANINGS.resource(language));
        Set<String> families = new TreeSet<>(Meanings.codes());
        for (Map.Entry<String, String[]> e : entries.entrySet()) {
            String key = e.getKey();
            String english = e.getValue()[0];
            assertThat(english).as("# en: line above %s", key).isNotNull();
            if (families.contains(key)) {
                assertThat(english).as("%s was translated from other English than verify.Meanings has now", key).isEqualTo(Meanings.of(key));
            } else if (key.matches("verdict\\.[A-Z]+")) {
                assertThat(english).as(key).isEqualTo(Meanings.of(Verdict.valueOf(key.substring(8))));
            } else {
                assertThat(key).as("a key that is no check code").matches("(part|verdict|explain)\\..+");
            }
            assertThat(Texts.placeholders(e.getValue()[1])).as("placeholders of %s", key).isEqualTo(Texts.placeholders(english));
        }
        assertThat(entries.keySet()).as("every language has the same keys").isEqualTo(entries(Texts.Family.MEANINGS.resource(Language.ES)).keySet());
    }

    @Test
    void explain_saysWhatWasNotChecked_inTheReadersLanguage() {
        Check missing = new Check(CheckCodes.MEDIA_MISSING, Status.INFO, "abc", "not in the bundle");
        ProofReport p = new ProofReport("abc", java.util.Optional.of("abc"), java.util.Optional.empty(), Verdict.VALID, List.of(missing),
                java.util.Optional.empty(), Map.of(), Map.of());
        VerificationReport r = new VerificationReport("x.zip", Verdict.VALID, List.of(new Check(CheckCodes.BUNDLE_ENTRY_UNKNOWN, Status.INFO,
                "notes.txt", "unknown")), List.of(p));
        assertThat(ReportMeanings.of(Language.EN).explain(r)).isEqualTo(Meanings.explain(r));
        assertThat(ReportMeanings.of(Language.FR).explain(r)).isEqualTo("les fichiers signés (enregistrements de preuve) n’ont pas changé depuis"
                + " leur signature ; le signataire n’est pas une clé de confiance ; le média n’était pas dans l’archive ; non vérifié : notes.txt");
        assertThat(ReportMeanings.of(Language.UK).of(CheckCodes.signature("frames", CheckCodes.VALID)))
                .isEqualTo("Перелік кадрів відео: підписано ключем підписувача, і відтоді змін немає.");
        assertThat(ReportMeanings.of(Language.ES).of("c2pa.some.status")).contains("C2PA", "some.status");
        assertThat(ReportMeanings.of(Language.ZH_HANS).of("no.such.code")).contains("no.such.code").isNotEqualTo(Meanings.of("no.such.code"));
    }

    /** Each key of a family file with its {@code # en:} line and its translation, in file order. */
    static Map<String, String[]> entries(String resource) throws IOException {
        Map<String, String[]> out = new LinkedHashMap<>();
        java.util.Properties p = new java.util.Properties();
        String text;
        try (InputStream in = Texts.class.getResourceAsStream(resource)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        p.load(new java.io.StringReader(text));
        String english = null;
        for (String line : text.lines().toList()) {
            if (line.startsWith("# en: ")) {
                english = line.substring(6);
            } else if (!line.isBlank() && !line.startsWith("#") && line.contains("=")) {
                String key = line.substring(0, line.indexOf('='));
                out.put(key, new String[] {english, p.getProperty(key)});
                english = null;
            }
        }
        assertThat(out.keySet()).as(resource).isEqualTo(p.stringPropertyNames());
        return out;
    }

}
