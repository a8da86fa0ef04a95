// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * The reference {@code age} tool (Debian's {@code age}: {@code age} and {@code age-keygen}), for interop:
 * identities made by it, files encrypted and decrypted by it.
 */
public final class AgeTool {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private AgeTool() {}

    /**
     * Makes an X25519 identity file with {@code age-keygen -o FILE}.
     *
     * @return its recipient ({@code age1…})
     * @throws AssertionFailedError if age-keygen is not installed or fails
     */
    public static String keygen(Path identityFile) {
        Path keygen = ExternalTool.require("age-keygen");
        ProcessResult r = expectSuccess(ExternalTool.run(List.of(keygen.toString(), "-o", identityFile.toString()), Map.of(), TIMEOUT));
        try {
            return Files.readAllLines(identityFile).stream().filter(l -> l.startsWith("# public key: "))
                    .map(l -> l.substring("# public key: ".length()).strip()).findFirst()
                    .orElseGet(() -> fail("age-keygen wrote no public key line:\n" + r.describe()));
        } catch (IOException e) {
            return fail("cannot read " + identityFile + ": " + e.getMessage(), e);
        }
    }

    /**
     * Encrypts a file with {@code age -r RECIPIENT [-a] -o OUT IN}.
     *
     * @param armor whether to write the armored (PEM-like) form
     */
    public static void encrypt(String recipient, boolean armor, Path in, Path out) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTool.require("age").toString(), "-r", recipient));
        if (armor) {
            cmd.add("-a");
        }
        cmd.addAll(List.of("-o", out.toString(), in.toString()));
        expectSuccess(ExternalTool.run(cmd, Map.of(), TIMEOUT));
    }

    /**
     * Decrypts a file with {@code age -d -i IDENTITY -o OUT IN}.
     *
     * @return age's result, whatever its exit code
     */
    public static ProcessResult decrypt(Path identityFile, Path in, Path out) {
        return ExternalTool.run(List.of(ExternalTool.require("age").toString(), "-d", "-i", identityFile.toString(),
                "-o", out.toString(), in.toString()), Map.of(), TIMEOUT);
    }

    private static ProcessResult expectSuccess(ProcessResult r) {
        if (!r.succeeded()) {
            fail("age failed:\n" + r.describe());
        }
        return r;
    }
}
