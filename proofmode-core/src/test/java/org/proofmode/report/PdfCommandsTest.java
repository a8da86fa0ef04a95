// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.junit.jupiter.api.Test;

/** Commands laid out in lines as a shell reads them back: bash gets the very words, whatever their length. */
class PdfCommandsTest {
    private static List<String> argsBashSees(List<String> lines) throws Exception {
        String script = "printf '%s\\0' " + String.join("\n", lines).substring(2);
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return List.of(out.split("\0", -1)).subList(0, out.split("\0", -1).length - 1);
    }

    @Test
    void lines_fitTheWidth_andGiveBashTheSameWords() throws Exception {
        try (PDDocument doc = new PDDocument(); PdfFonts fonts = new PdfFonts(doc, List.of())) {
            PdfText text = new PdfText(fonts);
            String longName = "it's a very long name ".repeat(12) + "$(touch x) `y` \"z\".jpg";
            String hash = "bd22aac03e413025d8c9215016e64d99e5e84694bd5e89441b3356df48226f57";
            List<String> raw = List.of("-verify", hash + ".proof.json.asc", longName, "short", "-x", hash + ".proof.json");
            List<String> words = new ArrayList<>();
            raw.forEach(w -> words.add(SelfCheck.quote(w)));
            float max = 300;
            List<String> lines = PdfCommands.lines(text, words, 8.5f, max);
            assertThat(lines.size()).isGreaterThan(4);
            assertThat(lines.get(0)).startsWith("$ ");
            for (String l : lines) {
                assertThat(text.width(l, 8.5f)).as(l).isLessThanOrEqualTo(max);
            }
            List<String> expected = new ArrayList<>();
            raw.forEach(w -> expected.add(w.startsWith("-") ? "./" + w : w));
            assertThat(argsBashSees(lines)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aHashField_isOneLine_whateverItsDigits() throws Exception {
        try (PDDocument doc = new PDDocument(); PdfFonts fonts = new PdfFonts(doc, List.of())) {
            PdfText text = new PdfText(fonts);
            for (char widest : "0123456789abcdef".toCharArray()) {
                String hash = String.valueOf(widest).repeat(64);
                assertThat(text.wrap(hash, PdfLayout.MONO_SIZE, PdfLayout.VALUE_WIDTH)).as(hash).containsExactly(hash);
            }
        }
    }

    @Test
    void quote_leavesPlainWords_andQuotesTheRest() {
        assertThat(SelfCheck.quote("IMG_0001.jpg")).isEqualTo("IMG_0001.jpg");
        assertThat(SelfCheck.quote("a b")).isEqualTo("'a b'");
        assertThat(SelfCheck.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(SelfCheck.quote("-rf")).isEqualTo("./-rf");
    }

    @Test
    void usable_refusesNamesThatCannotBeTypedSafely() {
        List<String> unsafe = new ArrayList<>();
        assertThat(SelfCheck.usable("ok name.jpg", unsafe)).isTrue();
        assertThat(SelfCheck.usable("line\nbreak.jpg", unsafe)).isFalse();
        assertThat(SelfCheck.usable("rtl\u202egpj.exe", unsafe)).isFalse();
        assertThat(SelfCheck.usable("back\\slash.jpg", unsafe)).isFalse();
        for (String lookAlike : List.of("it\u02bcs.jpg", "it\u2019s.jpg", "it\u02c8s.jpg", "\uff04(x).jpg", "zero\u200bwidth.jpg", "写真.jpg")) {
            assertThat(SelfCheck.usable(lookAlike, unsafe)).as(lookAlike).isFalse();
        }
        assertThat(unsafe).hasSize(9);
    }
}
