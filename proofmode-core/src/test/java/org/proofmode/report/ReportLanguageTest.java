// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.proofmode.i18n.Language;

/** A report in the reader's language: its own sentences translated, the page's language and direction set, the rest unchanged. */
class ReportLanguageTest {
    private static ReportDocument doc(Language language) {
        return ReportBuilder.build(List.of(ReportFixtures.item("IMG_0001.jpg", "note")), Optional.empty(), ReportFixtures.certification(),
                Optional.of("r.pdf"), Set.of(), language);
    }

    @Test
    void html_setsLangAndDir_rightToLeftForArabic() {
        assertThat(HtmlReport.render(doc(Language.AR))).contains("<html lang=\"ar\" dir=\"rtl\">", "تقرير التحقق: IMG_0001.jpg", "الحكم");
        assertThat(HtmlReport.render(doc(Language.ZH_HANS))).contains("<html lang=\"zh-Hans\" dir=\"ltr\">", "核验报告：IMG_0001.jpg");
        assertThat(HtmlReport.render(doc(Language.EN))).contains("<html lang=\"en\" dir=\"ltr\">", "Verification report: IMG_0001.jpg");
    }

    @Test
    void build_keepsTheEnglishReportsId_andGivesAnotherLanguageItsOwn() {
        assertThat(doc(Language.EN).id()).isEqualTo(ReportBuilder.build(List.of(ReportFixtures.item("IMG_0001.jpg", "note")), Optional.empty(),
                ReportFixtures.certification(), Optional.of("r.pdf")).id());
        assertThat(doc(Language.UK).id()).isNotEqualTo(doc(Language.EN).id());
    }

    @Test
    void visual_joinsArabicLetters_andReadsAnArabicLineRightToLeft_inARightToLeftDocument() {
        // "تقرير: IMG" drawn left to right: the name first, then the colon, then the word, its letters joined
        assertThat(PdfText.visual("تقرير: IMG", true)).isEqualTo("IMG :\uFEAE\uFEF3\uFEAE\uFED8\uFE97");
        assertThat(PdfText.visual("Report: تقرير", false)).isEqualTo("Report: \uFEAE\uFEF3\uFEAE\uFED8\uFE97");
    }
}
