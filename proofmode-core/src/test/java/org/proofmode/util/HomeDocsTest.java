// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The home-folder tables of the docs list exactly the entries of {@link Home}, with the same kinds. */
class HomeDocsTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| .* \\| ([a-z]+) \\| (.+) \\|$");

    @Test
    void architectureMap_listsEveryHomeEntry_withItsKind() throws IOException {
        assertThat(kinds(table("architecture.md", "## The home folder"))).isEqualTo(expectedKinds());
    }

    @Test
    void threatModel_listsEveryHomeEntry_withItsKindAndWipe() throws IOException {
        Map<String, String[]> rows = table("threat-model.md", "## At rest: what the home holds");
        assertThat(kinds(rows)).isEqualTo(expectedKinds());
        Map<String, String> erasedBy = new LinkedHashMap<>();
        rows.forEach((path, cells) -> erasedBy.put(path, cells[1]));
        Map<String, String> expected = new LinkedHashMap<>();
        for (Home e : Home.values()) {
            expected.put(e.path(), switch (e.wipe()) {
                case KEYS -> "`wipe --keys` (overwritten), `--all`";
                case PROOFS -> "`wipe --proofs`, `--all`";
                case ALL -> "`wipe --all`";
            });
        }
        assertThat(erasedBy).isEqualTo(expected);
    }

    @Test
    void entries_haveDistinctPaths_noneInsideAnother() {
        for (Home a : Home.values()) {
            for (Home b : Home.values()) {
                if (a != b) {
                    assertThat(b.path()).as("%s and %s", a, b).isNotEqualTo(a.path());
                    assertThat(a.isFolder() && b.path().startsWith(a.path())).as("%s inside %s", b, a).isFalse();
                }
            }
        }
    }

    @Test
    void in_resolvesEachName_underTheHome() {
        Path home = Path.of("/h");
        assertThat(Home.DEVICE_KEY.in(home)).isEqualTo(Path.of("/h/keys/secret.asc"));
        assertThat(Home.PROOFS.in(home)).isEqualTo(Path.of("/h/proofs"));
        assertThat(Home.PROOFS.fileName()).isEqualTo("proofs");
        assertThat(Home.erasedBy(Home.Wipe.ALL)).containsExactly(Home.values());
        assertThat(Home.erasedBy(Home.Wipe.KEYS)).contains(Home.DEVICE_KEY, Home.PUBLISH_TOKEN).doesNotContain(Home.PROOFS);
    }

    private static Map<String, String> expectedKinds() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Home e : Home.values()) {
            out.put(e.path(), e.kind().word());
        }
        return out;
    }

    private static Map<String, String> kinds(Map<String, String[]> rows) {
        Map<String, String> out = new LinkedHashMap<>();
        rows.forEach((path, cells) -> out.put(path, cells[0]));
        return out;
    }

    /** The rows {@code | `path` | … | kind | last |} of the table under a heading, by path, in order. */
    private static Map<String, String[]> table(String doc, String heading) throws IOException {
        Map<String, String[]> out = new LinkedHashMap<>();
        boolean in = false;
        for (String line : Files.readAllLines(docs().resolve(doc))) {
            if (line.startsWith("## ")) {
                in = line.equals(heading);
            }
            Matcher m = ROW.matcher(line);
            if (in && m.find()) {
                assertThat(out.put(m.group(1), new String[] {m.group(2), m.group(3)})).as("%s listed twice in %s", m.group(1), doc).isNull();
            }
        }
        assertThat(out).as("rows under %s in %s", heading, doc).hasSizeGreaterThan(20);
        return out;
    }

    private static Path docs() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/architecture.md"))) {
                return p.resolve("docs");
            }
        }
        throw new IllegalStateException("docs/ not found above " + Path.of("").toAbsolutePath());
    }
}
