// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every source file of the repository carries its licence line; {@code .ci/spdx} finds and adds it. */
class SpdxHeadersTest {
    private static final Path SCRIPT = Path.of(System.getProperty(Samples.ROOT_PROPERTY), ".ci", "spdx");

    @TempDir
    Path tmp;

    @Test
    void check_passes_everySourceFileOfTheRepository() {
        ProcessResult r = spdx("--check", SCRIPT.getParent().getParent().toString());
        assertThat(r.exitCode()).as("files without the SPDX line (add it with .ci/spdx --fix):%n%s", r.stdout()).isZero();
    }

    @Test
    void check_failsNamingFile_sourceWithoutLicenceLine() throws IOException {
        Files.writeString(tmp.resolve("Plain.java"), "package x;\nclass Plain {}\n");
        Files.writeString(tmp.resolve("run"), "#!/usr/bin/env bash\necho hi\n");
        Files.writeString(tmp.resolve("notes.txt"), "not a source file\n");
        ProcessResult r = spdx("--check", tmp.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout().lines()).containsExactly("Plain.java", "run");
    }

    @Test
    void fix_addsLicenceLineAfterShebang_thenCheckPasses() throws IOException {
        Files.writeString(tmp.resolve("Plain.java"), "package x;\nclass Plain {}\n");
        Files.writeString(tmp.resolve("run"), "#!/usr/bin/env bash\necho hi\n");
        Files.writeString(tmp.resolve("style.css"), "body {}\n");
        assertThat(spdx("--fix", tmp.toString()).exitCode()).isZero();
        assertThat(Files.readString(tmp.resolve("Plain.java"), StandardCharsets.UTF_8))
                .isEqualTo("// SPDX-License-Identifier: Apache-2.0\npackage x;\nclass Plain {}\n");
        assertThat(Files.readString(tmp.resolve("run"), StandardCharsets.UTF_8))
                .isEqualTo("#!/usr/bin/env bash\n# SPDX-License-Identifier: Apache-2.0\necho hi\n");
        assertThat(Files.readString(tmp.resolve("style.css"), StandardCharsets.UTF_8))
                .startsWith("/* SPDX-License-Identifier: Apache-2.0 */\n");
        assertThat(spdx("--check", tmp.toString()).exitCode()).isZero();
    }

    private static ProcessResult spdx(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        return ExternalTool.run(command, Map.of(), Duration.ofSeconds(60));
    }
}
