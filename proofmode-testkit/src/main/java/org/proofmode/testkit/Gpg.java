// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.opentest4j.AssertionFailedError;

/**
 * A throwaway GnuPG home for interop tests: every command runs with {@code --batch --no-tty --homedir}
 * on it, so the tester's own keys are never seen or changed. {@link #close()} stops the gpg-agent it
 * started, so no daemon lingers after the test.
 *
 * <p>Operations that prepare a test (key generation, signing, export, import) fail the test if gpg
 * fails; {@link #verify} returns gpg's result, because its outcome is what tests assert on.
 */
public final class Gpg implements AutoCloseable {
    /** How long one gpg command may take; RSA-4096 generation is the slowest. */
    public static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** Key algorithms for {@link #generateKey}, named as {@code gpg --quick-gen-key} names them. */
    public enum KeyAlgorithm {
        /** EdDSA over Ed25519 (legacy OpenPGP v4 encoding, algorithm 22). */
        ED25519("ed25519"),
        /** RSA with a 4096-bit modulus, as the ProofMode Android app uses. */
        RSA4096("rsa4096"),
        /** RSA with a 1024-bit modulus: too weak, for tests of refusal. */
        RSA1024("rsa1024");

        private final String gpgName;

        KeyAlgorithm(String gpgName) {
            this.gpgName = gpgName;
        }

        /** The name gpg uses. */
        public String gpgName() {
            return gpgName;
        }
    }

    private final Path gpg;
    private final Path home;

    private Gpg(Path gpg, Path home) {
        this.gpg = gpg;
        this.home = home;
    }

    /**
     * Makes a new GnuPG home, {@code parent/gnupg-N}, readable by the owner only.
     *
     * @param parent a temporary folder of the test
     * @throws AssertionFailedError if gpg or gpgconf is not installed
     */
    public static Gpg create(Path parent) {
        Path gpg = ExternalTool.require("gpg");
        ExternalTool.require("gpgconf");
        try {
            Files.createDirectories(parent);
            Path home = Files.createTempDirectory(parent, "gnupg-");
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
            return new Gpg(gpg, home);
        } catch (IOException e) {
            return fail("cannot make a GnuPG home in " + parent + ": " + e.getMessage(), e);
        }
    }

    /** The home folder ({@code GNUPGHOME}). */
    public Path home() {
        return home;
    }

    /**
     * Runs gpg on this home with the given arguments.
     *
     * @param args arguments after {@code --batch --no-tty --homedir HOME}
     * @return gpg's result, whatever its exit code
     */
    public ProcessResult run(String... args) {
        List<String> cmd = new ArrayList<>(List.of(gpg.toString(), "--batch", "--no-tty", "--homedir", home.toString()));
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, Map.of("GNUPGHOME", home.toString()), TIMEOUT);
    }

    /**
     * Imports keys (public or secret) from a file.
     *
     * @throws AssertionFailedError if gpg cannot import it
     */
    public void importKey(Path keyFile) {
        expectSuccess(run("--pinentry-mode", "loopback", "--passphrase", "", "--import", keyFile.toString()));
    }

    /**
     * Checks a detached signature over a file with the keys imported here.
     *
     * @return gpg's result: exit 0 for a good signature, non-zero otherwise
     */
    public ProcessResult verify(Path signature, Path data) {
        return run("--verify", signature.toString(), data.toString());
    }

    /**
     * Lists the primary-key fingerprints in a key file without importing it.
     *
     * @return fingerprints, 40 upper-case hex digits each, in file order
     */
    public List<String> fingerprintsOf(Path keyFile) {
        ProcessResult r = expectSuccess(run("--with-colons", "--import-options", "show-only", "--import", keyFile.toString()));
        List<String> out = new ArrayList<>();
        String previous = "";
        for (String line : (Iterable<String>) r.stdout().lines()::iterator) {
            // gpg prints a key's fingerprint on the line after it; the primary key's line is pub: or sec:.
            if (line.startsWith("fpr:") && (previous.startsWith("pub:") || previous.startsWith("sec:"))) {
                out.add(line.split(":")[9]);
            }
            previous = line;
        }
        return out;
    }

    /**
     * Generates a signing-only primary key without a passphrase, valid forever.
     *
     * @param userId the user ID, such as {@code Alice <alice@example.org>}
     * @return its fingerprint, 40 upper-case hex digits
     */
    public String generateKey(String userId, KeyAlgorithm algorithm) {
        return generateKey(userId, algorithm, "");
    }

    /**
     * Generates a signing-only primary key protected by a passphrase, valid forever.
     *
     * @param passphrase the passphrase, or {@code ""} for an unprotected key
     * @return its fingerprint, 40 upper-case hex digits
     */
    public String generateKey(String userId, KeyAlgorithm algorithm, String passphrase) {
        Objects.requireNonNull(userId, "userId");
        expectSuccess(run("--pinentry-mode", "loopback", "--passphrase", passphrase,
                "--quick-gen-key", userId, algorithm.gpgName(), "sign", "never"));
        ProcessResult listing = expectSuccess(run("--with-colons", "--list-keys", "=" + userId));
        return listing.stdout().lines().filter(l -> l.startsWith("fpr:")).map(l -> l.split(":")[9])
                .reduce((first, second) -> fail("more than one key has user ID " + userId))
                .orElseGet(() -> fail("gpg listed no fingerprint for " + userId + ":\n" + listing.describe()));
    }

    /**
     * Writes an armored detached signature over a file, as {@code gpg --detach-sign --armor} does.
     *
     * @param keyId the signing key's fingerprint or ID
     * @param outAsc where the signature goes (replaced if it exists)
     */
    public void detachSign(String keyId, Path file, Path outAsc) {
        expectSuccess(run("--pinentry-mode", "loopback", "--passphrase", "", "--yes", "--local-user", keyId,
                "--armor", "--detach-sign", "--output", outAsc.toString(), file.toString()));
    }

    /**
     * Adds a Curve25519 encryption subkey, valid forever, to a key of this home (made by {@link #generateKey}
     * without a passphrase).
     */
    public void addEncryptionSubkey(String fingerprint) {
        expectSuccess(run("--pinentry-mode", "loopback", "--passphrase", "", "--quick-add-key", fingerprint, "cv25519", "encr", "never"));
    }

    /**
     * Decrypts an OpenPGP message with the secret keys of this home, as {@code gpg --decrypt} does.
     *
     * @return gpg's result, whatever its exit code; the plaintext is in {@code out} on success
     */
    public ProcessResult decrypt(Path message, Path out) {
        return run("--pinentry-mode", "loopback", "--passphrase", "", "--yes", "--output", out.toString(), "--decrypt", message.toString());
    }

    /** Writes the armored public key (certificate) of a key to {@code out}. */
    public void exportPublicKey(String keyId, Path out) {
        expectSuccess(run("--yes", "--armor", "--output", out.toString(), "--export", keyId));
        expectWritten(out, keyId);
    }

    /**
     * Writes the armored secret key to {@code out}, protected as it is in this home.
     *
     * @param passphrase the key's passphrase ({@code ""} for an unprotected key)
     */
    public void exportSecretKey(String keyId, String passphrase, Path out) {
        expectSuccess(run("--pinentry-mode", "loopback", "--passphrase", passphrase, "--yes", "--armor",
                "--output", out.toString(), "--export-secret-keys", keyId));
        expectWritten(out, keyId);
    }

    /** Stops the gpg-agent (and any other daemon) of this home. */
    @Override
    public void close() {
        ExternalTool.run(List.of(ExternalTool.require("gpgconf").toString(), "--homedir", home.toString(), "--kill", "all"),
                Map.of("GNUPGHOME", home.toString()), TIMEOUT);
    }

    private static void expectWritten(Path out, String keyId) {
        try {
            if (!Files.isRegularFile(out) || Files.size(out) == 0) {
                fail("gpg exported nothing for " + keyId);
            }
        } catch (IOException e) {
            fail("cannot read " + out + ": " + e.getMessage(), e);
        }
    }

    private static ProcessResult expectSuccess(ProcessResult r) {
        if (!r.succeeded()) {
            fail("gpg failed: " + r.describe());
        }
        return r;
    }
}
