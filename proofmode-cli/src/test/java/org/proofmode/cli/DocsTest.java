// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The man pages the packages install carry what {@code --help} ends with: examples and exit codes. */
class DocsTest {
    @TempDir
    Path tmp;

    @Test
    void main_manPagesHaveExamplesAndExitStatus_asTheHelpDoes() throws Exception {
        Docs.main(new String[] {tmp.toString()});

        assertThat(tmp.resolve("man/proofmode-verify.adoc")).content()
                .contains("== Examples", "proofmode verify share.zip", "== Exit status", "*43*::", "*3*::")
                .doesNotContain("Exit codes:");
        assertThat(tmp.resolve("man/proofmode-log-keep.adoc")).content().contains("== Examples", "== Exit status", "*59*::");
        assertThat(tmp.resolve("man/proofmode-watch.adoc")).content().contains("PROOFMODE_WATCH_FOLDERS", "== Exit status");
        assertThat(tmp.resolve("completion/proofmode")).exists();
        try (java.util.stream.Stream<Path> pages = java.nio.file.Files.list(tmp.resolve("man"))) {
            for (Path page : pages.toList()) {
                assertThat(page).as(page.getFileName().toString()).content().contains("== Exit status", "*0*::", "*61*::");
            }
        }
    }
}
