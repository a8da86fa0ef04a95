// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** npm packages of the interop tests, installed exactly as their {@code package-lock.json} pins them. */
final class Npm {
    private Npm() {}

    /**
     * Runs {@code npm ci} in {@code dir} unless {@code marker} (a path under it) is there already, as after
     * {@code .ci/run}'s own {@code npm ci}.
     *
     * @return {@code dir}
     * @throws AssertionError if npm is missing or fails: the test fails, it is never skipped
     */
    static synchronized Path ci(Path dir, String marker) {
        if (!Files.exists(dir.resolve(marker))) {
            Path npm = ExternalTool.require("npm");
            ProcessResult r = ExternalTool.run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund", "--prefix", dir.toString()),
                    Map.of(), Duration.ofMinutes(5));
            if (!r.succeeded()) {
                return fail("npm ci in " + dir + " failed: " + r.describe());
            }
        }
        return dir;
    }
}
