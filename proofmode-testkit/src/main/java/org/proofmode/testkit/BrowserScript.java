// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Node.js script that drives Debian's headless Chromium with playwright-core, such as the server's
 * {@code src/test/browser/first-look.mjs}: its folder's {@code package-lock.json} pins playwright-core,
 * installed with {@code npm ci} on first use.
 */
public final class BrowserScript {
    /** Debian's Chromium, which the scripts launch. */
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private BrowserScript() {}

    /**
     * Runs {@code node SCRIPT ARGS} in {@code folder}.
     *
     * @param folder the folder of the script and its {@code package.json}
     * @param script the script's file name in it
     * @param args its arguments
     * @param env variables to set for it
     * @param timeout how long it may run
     * @return its exit code and output (the scripts print one JSON object as their last line)
     * @throws AssertionError if Chromium, Node.js or npm is missing, or npm fails: the test fails, it is never skipped
     */
    public static ProcessResult run(Path folder, String script, List<String> args, Map<String, String> env, Duration timeout) {
        Objects.requireNonNull(folder, "folder");
        if (!Files.isExecutable(CHROMIUM)) {
            return fail("Chromium is missing: apt-get install chromium (.ci/run installs it)");
        }
        Path node = ExternalTool.require("node");
        Npm.ci(folder, "node_modules/playwright-core");
        List<String> cmd = new ArrayList<>(List.of(node.toString(), script));
        cmd.addAll(args);
        return ExternalTool.run(cmd, env, timeout, folder);
    }

    /** The last line a script printed: its JSON result. */
    public static String lastLine(ProcessResult r) {
        return r.stdout().lines().reduce((a, b) -> b).orElse("");
    }
}
