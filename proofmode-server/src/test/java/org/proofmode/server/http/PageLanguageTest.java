// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.i18n.Language;

class PageLanguageTest {
    private static Language chosen(String parameter, String acceptLanguage) {
        return PageLanguage.choose(Optional.ofNullable(parameter), Optional.ofNullable(acceptLanguage));
    }

    @Test
    void choose_parameterWins_overAcceptLanguage() {
        assertThat(chosen("fr", "es-CO,es;q=0.9")).isEqualTo(Language.FR);
        assertThat(chosen("zh-Hans", "ar")).isEqualTo(Language.ZH_HANS);
        assertThat(chosen("ar", null)).isEqualTo(Language.AR);
    }

    @Test
    void choose_followsQValues_notTheOrderWritten() {
        assertThat(chosen(null, "de;q=1, fr;q=0.4, es;q=0.8")).isEqualTo(Language.ES);
        assertThat(chosen(null, "uk;q=0.5,ar")).isEqualTo(Language.AR);
        assertThat(chosen(null, "fr;q=0.700, uk;q=0.7")).as("equal weights keep the header's order").isEqualTo(Language.FR);
        assertThat(chosen(null, "es;q=0, fr;q=0.1")).as("q=0 is refused").isEqualTo(Language.FR);
        assertThat(chosen(null, "es;q=0, *")).isEqualTo(Language.EN);
    }

    @Test
    void choose_regionsAndScripts_fallBackToTheLanguage() {
        assertThat(chosen(null, "es-CO")).isEqualTo(Language.ES);
        assertThat(chosen(null, "fr-CI,fr;q=0.9")).isEqualTo(Language.FR);
        assertThat(chosen(null, "ar-SY")).isEqualTo(Language.AR);
        assertThat(chosen(null, "uk-UA")).isEqualTo(Language.UK);
        assertThat(chosen(null, "zh-CN")).isEqualTo(Language.ZH_HANS);
        assertThat(chosen(null, "zh-Hans-CN")).isEqualTo(Language.ZH_HANS);
        assertThat(chosen(null, "zh")).isEqualTo(Language.ZH_HANS);
        assertThat(chosen(null, "zh-TW")).as("traditional Chinese is not ours").isEqualTo(Language.EN);
        assertThat(chosen(null, "zh-Hant-HK, fr;q=0.5")).isEqualTo(Language.FR);
    }

    @Test
    void choose_english_withoutAnyLanguageOfOurs() {
        assertThat(chosen(null, null)).isEqualTo(Language.EN);
        assertThat(chosen(null, "")).isEqualTo(Language.EN);
        assertThat(chosen(null, "de-DE,pt;q=0.5")).isEqualTo(Language.EN);
    }

    @Test
    void choose_ignoresUnknownParameter_readerLanguageDecides() {
        assertThat(chosen("pt", "uk")).isEqualTo(Language.UK);
        assertThat(chosen("xx", null)).isEqualTo(Language.EN);
        assertThat(chosen("", "ar")).isEqualTo(Language.AR);
        assertThat(chosen("<script>", "es")).isEqualTo(Language.ES);
        String overlong = "es-" + "a".repeat(PageLanguage.MAX_PARAMETER);
        assertThat(chosen(overlong, "fr")).as("a parameter over the bound is not read").isEqualTo(Language.FR);
    }

    @Test
    void preferred_skipsMalformedRanges() {
        assertThat(PageLanguage.preferred("es;q=2, fr;q=abc, 12, x-toolongsubtag-b, ar;level=1, uk")).containsExactly("uk");
        assertThat(PageLanguage.preferred(" fr ; q = 0.5 , es")).containsExactly("es", "fr");
        assertThat(PageLanguage.preferred(",,;,")).isEmpty();
    }

    @Test
    void preferred_readsOnlyItsBound_headerTenTimesOverIt() {
        int bound = PageLanguage.MAX_ACCEPT_LANGUAGE;
        String filler = "de;q=0.5,".repeat(10 * bound / 9 + 1);
        assertThat(filler.length()).isGreaterThan(10 * bound);
        assertThat(chosen(null, "ar," + filler)).as("the first ranges are read").isEqualTo(Language.AR);
        assertThat(chosen(null, filler + "ar")).as("a range past the bound is not read").isEqualTo(Language.EN);
        assertThat(PageLanguage.preferred(filler + "ar")).hasSizeLessThanOrEqualTo(bound / 2).doesNotContain("ar");
        assertThat(chosen(null, "a".repeat(10 * bound))).isEqualTo(Language.EN);
        assertThat(chosen(null, "fr;q=0.9," + "x".repeat(10 * bound))).as("a cut range is dropped, not misread").isEqualTo(Language.FR);
    }
}
