// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A SoftHSM2 token of a test's own: a real PKCS#11 implementation (Debian {@code softhsm2}) whose tokens
 * live in a folder under the test's temporary folder, named by a configuration file that
 * {@code SOFTHSM2_CONF} points at. Give {@link #env()} to every process that must see the token;
 * {@code pkcs11-tool} (Debian {@code opensc}) reads the token's objects back.
 */
public final class SoftHsm {
    /** Debian's SoftHSM2 PKCS#11 module. */
    public static final Path MODULE = Path.of("/usr/lib/softhsm/libsofthsm2.so");
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Path config;
    private final Path tokens;
    private final String label;
    private final String pin;

    private SoftHsm(Path config, Path tokens, String label, String pin) {
        this.config = config;
        this.tokens = tokens;
        this.label = label;
        this.pin = pin;
    }

    /**
     * Initialises a token in a new SoftHSM2 configuration under {@code dir}.
     *
     * @param dir a folder of the test's own
     * @param label the token label
     * @param pin the user PIN (the security officer PIN is {@code pin} reversed)
     * @throws org.opentest4j.AssertionFailedError if softhsm2 is missing or the token cannot be made
     */
    public static SoftHsm create(Path dir, String label, String pin) {
        if (!Files.isRegularFile(MODULE)) {
            fail(MODULE + " is missing, and this test needs a real PKCS#11 token; install it: apt-get install softhsm2; .ci/run does");
        }
        try {
            Path tokens = Files.createDirectories(dir.resolve("softhsm-tokens"));
            Path config = dir.resolve("softhsm2.conf");
            Files.writeString(config, "directories.tokendir = " + tokens + "\nobjectstore.backend = file\nlog.level = ERROR\n",
                    StandardCharsets.UTF_8);
            SoftHsm hsm = new SoftHsm(config, tokens, label, pin);
            hsm.initToken(label, pin);
            return hsm;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Initialises one more token in the same configuration (the module then offers several). */
    public void initToken(String tokenLabel, String tokenPin) {
        ProcessResult r = util("--init-token", "--free", "--label", tokenLabel, "--pin", tokenPin,
                "--so-pin", new StringBuilder(tokenPin).reverse().toString());
        if (!r.succeeded()) {
            fail("softhsm2-util could not make a token: " + r.describe());
        }
    }

    /** The environment a process needs to see this token. */
    public Map<String, String> env() {
        return Map.of("SOFTHSM2_CONF", config.toString());
    }

    /** The first token's label. */
    public String label() {
        return label;
    }

    /** The first token's user PIN. */
    public String pin() {
        return pin;
    }

    /** The folder where SoftHSM keeps its tokens' files (to scan, or to remove a token). */
    public Path tokenFolder() {
        return tokens;
    }

    /** Runs {@code softhsm2-util ARGS} on this configuration. */
    public ProcessResult util(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ExternalTool.require("softhsm2-util").toString());
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, env(), TIMEOUT);
    }

    /** Runs {@code pkcs11-tool --module MODULE --token-label LABEL ARGS} on this configuration. */
    public ProcessResult pkcs11Tool(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTool.require("pkcs11-tool").toString(), "--module", MODULE.toString(),
                "--token-label", label));
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, env(), TIMEOUT);
    }

    /** Lists the token's objects after a login ({@code pkcs11-tool -O --login}): their attributes, as text. */
    public String objects() {
        ProcessResult r = pkcs11Tool("--login", "--pin", pin, "-O");
        if (!r.succeeded()) {
            fail("pkcs11-tool could not list the token's objects: " + r.describe());
        }
        return r.stdout();
    }
}
