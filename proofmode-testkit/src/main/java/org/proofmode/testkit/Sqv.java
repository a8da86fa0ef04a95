// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * Sequoia's {@code sqv}, a verify-only OpenPGP tool with a strict policy and no state: it prints the
 * signing key's fingerprint and exits 0 for a good signature.
 */
public final class Sqv {
    private Sqv() {}

    /**
     * Runs {@code sqv --keyring KEYRING SIGNATURE DATA}.
     *
     * @return sqv's result, whatever its exit code
     * @throws AssertionFailedError if sqv is not installed
     */
    public static ProcessResult verify(Path keyring, Path signature, Path data) {
        Path sqv = ExternalTool.require("sqv");
        return ExternalTool.run(List.of(sqv.toString(), "--keyring", keyring.toString(), signature.toString(), data.toString()),
                Map.of(), Duration.ofSeconds(120));
    }
}
