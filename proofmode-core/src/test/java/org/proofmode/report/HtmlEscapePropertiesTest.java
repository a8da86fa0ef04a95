// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.proofmode.verify.Check;
import org.proofmode.verify.Status;

/** Whatever a sender puts in a string, the HTML report shows it as text: no tag, attribute or entity of its own. */
class HtmlEscapePropertiesTest {
    @Property(tries = 500)
    void esc_leavesNoMarkupAndNoInvisibleControl(@ForAll String s) {
        String e = HtmlReport.esc(s + "<script>\"'&\u202e\n");
        assertThat(e).doesNotContain("<", ">", "\"", "'").doesNotContainPattern("&(?!amp;|lt;|gt;|quot;|#39;)");
        assertThat(e.codePoints()).noneMatch(c -> Character.isISOControl(c) || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069
                || c == 0x200e || c == 0x200f || c == 0x061c || c == 0x2028 || c == 0x2029);
    }

    @Property(tries = 200)
    void render_keepsEveryFieldInsideItsElement(@ForAll String name) {
        ReportDocument doc = new ReportDocument("report " + name, Optional.empty(), "0".repeat(64), List.of(
                new Block.Heading(2, name), new Block.Paragraph(name, Block.Tone.BAD),
                new Block.Fields(List.of(new Block.Field(name, name, true))),
                new Block.Checks(List.of(new Check("media.hash.match", Status.PASS, name, name))),
                new Block.Commands(List.of(List.of("echo", name)))));
        String html = HtmlReport.render(doc);
        String clean = HtmlReport.render(new ReportDocument("report x", Optional.empty(), "0".repeat(64), List.of(
                new Block.Heading(2, "x"), new Block.Paragraph("x", Block.Tone.BAD),
                new Block.Fields(List.of(new Block.Field("x", "x", true))),
                new Block.Checks(List.of(new Check("media.hash.match", Status.PASS, "x", "x"))),
                new Block.Commands(List.of(List.of("echo", "x"))))));
        assertThat(count(html, '<')).isEqualTo(count(clean, '<'));
        assertThat(count(html, '>')).isEqualTo(count(clean, '>'));
    }

    private static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }
}
