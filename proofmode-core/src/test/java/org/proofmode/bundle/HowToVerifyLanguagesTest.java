// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;

/** The stranger's instructions in the receiver's language, then in English, with the same commands in both. */
class HowToVerifyLanguagesTest {
    private static final String ID = "0b8d8b5f150483ab6a4ea2e29bb35d8b9e4bd5a8c36ab1e6fcac0a7da6647351";
    private static final List<HowToVerify.Proof> PROOFS = List.of(new HowToVerify.Proof(ID, Optional.of("写真 📷.jpg"),
            Set.of(ID + ".proof.json", ID + ".proof.json.asc", ID + ".asc", ID + ".tsr", ID + ".ots")));
    private static final String ENGLISH_TITLE = "How to check this proof yourself";

    @Test
    void text_isTheEnglishAlone_inEnglish() {
        String text = HowToVerify.text(PROOFS, true, Language.EN);
        assertThat(text).startsWith(ENGLISH_TITLE + "\n================================\n\n").isEqualTo(HowToVerify.text(PROOFS, true));
        assertThat(text.indexOf(ENGLISH_TITLE)).isEqualTo(text.lastIndexOf(ENGLISH_TITLE));
    }

    @Test
    void text_isArabicThenEnglish_withTheSameCommands_rightToLeftLanguage() {
        String text = HowToVerify.text(PROOFS, true, Language.AR);
        // logical order, as typed: the first letters of the title are its first word, never reversed
        assertThat(text).startsWith("كيف تتحقق من هذا الإثبات بنفسك\n").contains("الملفات\n", "التوقيعات صحيحة", "ملف الوسائط");
        assertThat(text).doesNotContain("ةحيحص", "howto.");
        assertEnglishFollows(text, Language.AR);
    }

    @Test
    void text_isChineseThenEnglish_withTheSameCommands_cjkLanguage() {
        String text = HowToVerify.text(PROOFS, true, Language.ZH_HANS);
        assertThat(text).startsWith("如何自行核验此证明\n=========\n").contains("签名有效", "媒体 写真 📷.jpg 在下文中称为 media-");
        assertThat(text).doesNotContain("howto.");
        assertEnglishFollows(text, Language.ZH_HANS);
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = "EN", mode = EnumSource.Mode.EXCLUDE)
    void text_hasTheEnglishCommandsNamesAndHashes_inEveryLanguage(Language language) {
        assertEnglishFollows(HowToVerify.text(PROOFS, true, language), language);
    }

    /** The translation, its line saying English follows, then the English text whole; the same $ lines in both. */
    private static void assertEnglishFollows(String text, Language language) {
        String english = HowToVerify.text(PROOFS, true);
        assertThat(text).endsWith("\n" + english);
        String own = text.substring(0, text.length() - english.length());
        assertThat(own).doesNotContain(ENGLISH_TITLE).contains(Texts.of(language).get("howto.english"));
        assertThat(commands(own)).isNotEmpty().isEqualTo(commands(english));
        assertThat(own).contains(ID + ".proof.json.asc", ID + ".tsr", "pubkey.asc", "HowToVerifyProofData.txt");
    }

    private static List<String> commands(String text) {
        return text.lines().map(String::strip).filter(l -> l.startsWith("$ ")).toList();
    }
}
