// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The OpenTimestamps client a reader types as {@code ots}: {@code ots-cli.js} of npm's {@code opentimestamps}
 * (pinned in {@code proofmode-testkit/ots-client/package-lock.json}, installed by {@code .ci/run} or, when
 * missing, by {@link Npm#ci}), run by Node. Debian packages only the Python library, not a client.
 */
public final class OtsClient {
    /** The system property naming the client's folder (set by the build). */
    public static final String PROPERTY = "proofmode.otsClient";

    private OtsClient() {}

    /**
     * A folder holding one executable, {@code ots}, that runs the client: put it first on a shell's PATH.
     *
     * @param tmp where to make the folder
     * @throws AssertionError if the property is unset, or node or npm is missing
     */
    public static Path binDir(Path tmp) {
        String p = System.getProperty(PROPERTY);
        if (p == null) {
            return fail("system property " + PROPERTY + " is not set (the Maven build sets it)");
        }
        Path cli = Npm.ci(Path.of(p), "node_modules/opentimestamps/ots-cli.js").resolve("node_modules/opentimestamps/ots-cli.js");
        Path node = ExternalTool.require("node");
        try {
            Path bin = Files.createDirectories(tmp.resolve("ots-bin"));
            Path ots = bin.resolve("ots");
            Files.writeString(ots, "#!/bin/sh\nexec '" + node + "' '" + cli.toAbsolutePath() + "' \"$@\"\n");
            if (!ots.toFile().setExecutable(true)) {
                return fail("cannot make " + ots + " executable");
            }
            return bin;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
