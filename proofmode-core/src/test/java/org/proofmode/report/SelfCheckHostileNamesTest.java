// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.util.ShellWords;

/**
 * "Check it yourself" with file names a sender chose to deceive a reader who types the commands: look-alike
 * quotes (U+02C8, U+02BC, U+2019, fullwidth forms), bidirectional and zero-width characters, shell syntax.
 */
class SelfCheckHostileNamesTest {
    /** Characters that look like shell syntax, or hide, or reorder text, or are shell syntax. */
    private static final String HOSTILE = "\u02c8\u02bc\u2019\u2018\u201c\u201d\uff07\uff02\uff04\uff08\uff09\uff5c\uff1b\uff06\uff1c\uff1e"
            + "\u202e\u202d\u2066\u2067\u2069\u200e\u200f\u200b\u200c\u200d\u2060\ufeff\u00a0\u3000\u2028\u0085"
            + "'\"$`();|&<>\\*?!#~{}[] \n\t写真📷";

    @Provide
    Arbitrary<String> hostileNames() {
        Arbitrary<Character> hostile = Arbitraries.of(HOSTILE.chars().mapToObj(c -> (char) c).toList());
        Arbitrary<Character> plain = Arbitraries.chars().with("abcXYZ019._-");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(1, hostile), net.jqwik.api.Tuple.of(2, plain)).list().ofMinSize(1).ofMaxSize(24)
                .map(cs -> cs.stream().map(String::valueOf).reduce("", String::concat) + ".jpg");
    }

    @Property(tries = 300)
    void commands_holdNothingButTheAllowListOutsideSingleQuotes_forAnyName(@ForAll("hostileNames") String name) {
        ReportItem item = ReportFixtures.item(name, "notes");
        List<String> lines = ReportFixtures.commandLines(SelfCheck.of(item));
        assertThat(lines).anyMatch(l -> l.contains("sha256sum -c"));
        for (String line : lines) {
            assertThat(line.chars()).as(line).allMatch(c -> c >= 0x20 && c < 0x7f);
            assertThat(outsideQuotes(line).chars()).as("outside single quotes: %s", line)
                    .allMatch(c -> ShellWords.PLAIN.matcher(Character.toString(c)).matches() || OUR_SYNTAX.indexOf(c) >= 0);
        }
        if (!ShellWords.typeable(name)) {
            String text = SelfCheck.of(item).stream().filter(b -> b instanceof Block.Paragraph).map(b -> ((Block.Paragraph) b).text())
                    .reduce("", String::concat);
            assertThat(text).contains("it replaces U+");
            assertThat(String.join("\n", lines)).doesNotContain(name);
        }
    }

    /** The characters of this class's own commands, none from a sender: spaces, pipes, the rename loop's syntax. */
    private static final String OUR_SYNTAX = " |\"$()*;<[]&";

    /** The line without its single-quoted parts (and the {@code \'} between them). */
    private static String outsideQuotes(String line) {
        StringBuilder out = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '\'') {
                i++;
            } else if (!quoted) {
                out.append(c);
            }
        }
        assertThat(quoted).as("quotes closed in %s", line).isFalse();
        return out.toString();
    }

    @Test
    void commands_runInBash_doOnlyWhatTheySay_forNamesThatLookLikeCommands(@TempDir Path tmp) throws Exception {
        for (String name : List.of("x\u02bc; touch PWNED; echo \u02bc.jpg", "a\uff07$(touch PWNED)\uff07.jpg", "it's $(touch PWNED) `touch PWNED`.jpg",
                "\u202egpj.exe; touch PWNED", "写真 📷.jpg", "-rf .jpg")) {
            Path dir = Files.createDirectories(tmp.resolve("d" + Integer.toHexString(name.hashCode())));
            byte[] media = ("media of " + name).getBytes(StandardCharsets.UTF_8);
            Files.write(dir.resolve(name), media);
            Files.writeString(dir.resolve("other.txt"), "another file");
            ReportItem item = ReportFixtures.item(name, media, "notes", org.proofmode.verify.Verdict.TRUSTED, List.of());
            List<String> lines = ReportFixtures.commandLines(SelfCheck.of(item)).stream()
                    .filter(l -> l.startsWith("for ") || l.contains("sha256sum -c")).toList();
            assertThat(lines).as(name).isNotEmpty();
            String out = ReportFixtures.run(dir, "bash", "-c", "set -e -o pipefail\n" + String.join("\n", lines));
            assertThat(out).as(name).contains(": OK");
            assertThat(dir.resolve("PWNED")).doesNotExist();
            try (Stream<Path> files = Files.list(dir)) {
                List<String> after = files.map(p -> p.getFileName().toString()).sorted().toList();
                String expected = ShellWords.typeable(name) ? name : ShellWords.safeName(name, "media", ReportFixtures.sha256(media));
                assertThat(after).as(name).containsExactlyInAnyOrder(expected, "other.txt");
                assertThat(Files.readAllBytes(dir.resolve(expected))).isEqualTo(media);
            }
        }
    }
}
