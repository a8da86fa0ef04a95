// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Webrecorder's {@code warcio} (npm, pinned in {@code proofmode-testkit/warcio/package-lock.json},
 * installed by {@code .ci/run} or, when missing, by {@link Npm#ci}), run by Node: an independent reader
 * of WARC files.
 */
public final class Warcio {
    /** The system property naming the package's folder (set by the build). */
    public static final String PROPERTY = "proofmode.warcio";
    private static final String CLI = "node_modules/warcio/dist/cli.js";

    private Warcio() {}

    /**
     * Runs {@code warcio index FILE}: one JSON line per record.
     *
     * @throws AssertionError if the property is unset, or node or npm is missing
     */
    public static ProcessResult index(Path warc) {
        String p = System.getProperty(PROPERTY);
        if (p == null) {
            return fail("system property " + PROPERTY + " is not set (the Maven build sets it)");
        }
        Path cli = Npm.ci(Path.of(p), CLI).resolve(CLI);
        return ExternalTool.run(List.of(ExternalTool.require("node").toString(), cli.toAbsolutePath().toString(), "index",
                warc.toString(), "--fields", "warc-type,warc-target-uri,http:status,warc-truncated,offset,length"),
                Map.of(), Duration.ofSeconds(60));
    }
}
