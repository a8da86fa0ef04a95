// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * A file whose name holds a byte that is not UTF-8 (Latin-1 {@code café.jpg}, byte E9), named on the
 * command line of the jar under a UTF-8 locale and under the C locale: it is found and proved both times.
 */
class NonUtf8NamesIT {
    @TempDir
    Path dir;

    @Test
    void prove_findsTheFile_nameNotUtf8UnderUtf8AndCLocales() throws Exception {
        Path source = TestMedia.jpeg(dir, "source.jpg", 5151);
        Path media = Files.createDirectories(dir.resolve("media"));
        ProcessResult made = ExternalTool.run(List.of("sh", "-c", "cp \"$0\" \"$1/$(printf 'caf\\351.jpg')\"", source.toString(),
                media.toString()), Map.of(), Duration.ofSeconds(10));
        assertThat(made.exitCode()).as(made.describe()).isZero();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = ProofModeJar.jar().toString();
        for (String locale : List.of("C.UTF-8", "C")) {
            Path home = dir.resolve("home-" + locale);
            // The name goes through the shell as bytes, as a user's shell passes it.
            ProcessResult r = ExternalTool.run(List.of("sh", "-c", "exec \"$0\" -jar \"$1\" prove --out \"$2\" \"$3/$(printf 'caf\\351.jpg')\"",
                    java, jar, dir.resolve("out-" + locale).toString(), media.toString()),
                    Map.of("LC_ALL", locale, "LANG", locale, "PROOFMODE_HOME", home.toString(), "PROOFMODE_PASSPHRASE", "pass phrase"),
                    Duration.ofSeconds(120));
            assertThat(r.exitCode()).as(locale + ": " + r.describe()).isZero();
            assertThat(r.stdout()).as(locale).matches("(?s)[0-9a-f]{64}  .*caf.*\\.jpg\\R?");
        }
    }
}
