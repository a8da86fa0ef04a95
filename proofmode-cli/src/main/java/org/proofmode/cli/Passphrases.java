// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.TokenReference;
import org.proofmode.util.SafeText;

/**
 * Where a passphrase comes from, in order: {@code --passphrase-file}, {@code PROOFMODE_PASSPHRASE},
 * the generated passphrase kept beside the key, a prompt on the terminal.
 */
final class Passphrases {
    static final String ENV = "PROOFMODE_PASSPHRASE";
    static final String PIN_ENV = "PROOFMODE_PIN";
    /** The prompt for the device key's passphrase (which also unlocks an encrypted store): asked once per command. */
    static final String DEVICE_KEY_PROMPT = "Passphrase for the device key: ";

    private Passphrases() {}

    /** A passphrase the user gave explicitly (file or environment), if any. */
    static Optional<Passphrase> given(CliContext ctx, Path file) {
        if (file != null) {
            return Optional.of(Passphrase.read(file));
        }
        String env = ctx.env().get(ENV);
        if (env != null && !env.isEmpty()) {
            return Optional.of(Passphrase.adopt(env.toCharArray()));
        }
        return Optional.empty();
    }

    /**
     * The passphrase that unlocks the device key.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if none can be had
     */
    static Passphrase unlocking(CliContext ctx, Path file, DeviceKeys keys) {
        return unlocking(ctx, file, null, keys);
    }

    /**
     * What unlocks the device key: for a key in a PKCS#11 token, the token's PIN ({@link #pin}); else its
     * passphrase.
     *
     * @param pinFile {@code --pin-file}, or null
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if none can be had
     */
    static Passphrase unlocking(CliContext ctx, Path file, Path pinFile, DeviceKeys keys) {
        Optional<TokenReference> token = keys.token();
        if (token.isPresent()) {
            return pin(ctx, pinFile, "the token \"" + SafeText.escape(token.get().tokenLabel()) + "\"");
        }
        Optional<Passphrase> p = given(ctx, file).or(keys::storedPassphrase);
        if (p.isPresent()) {
            return p.get();
        }
        return ctx.terminal().readSecret(DEVICE_KEY_PROMPT)
                .filter(c -> c.length > 0)
                .map(Passphrase::adopt)
                .orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED,
                        "the device key is locked: set " + ENV + " or use --passphrase-file"));
    }

    /**
     * A PKCS#11 token's user PIN, in order: {@code --pin-file}, {@code PROOFMODE_PIN}, a prompt. It is held
     * as characters and cleared by the caller.
     *
     * @param what how the prompt names the token
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if none can be had
     */
    static Passphrase pin(CliContext ctx, Path pinFile, String what) {
        if (pinFile != null) {
            return Passphrase.read(pinFile);
        }
        String env = ctx.env().get(PIN_ENV);
        if (env != null && !env.isEmpty()) {
            return Passphrase.adopt(env.toCharArray());
        }
        return ctx.terminal().readSecret("PIN for " + what + ": ")
                .filter(c -> c.length > 0)
                .map(Passphrase::adopt)
                .orElseThrow(() -> new ProofModeException(Failure.KEY_LOCKED,
                        what + " needs its PIN: set " + PIN_ENV + " or use --pin-file"));
    }

    /** A new passphrase from a file, or asked twice on the terminal. */
    static Passphrase choosing(CliContext ctx, Path file, String what) {
        if (file != null) {
            return Passphrase.read(file);
        }
        String env = ctx.env().get("PROOFMODE_NEW_PASSPHRASE");
        if (env != null && !env.isEmpty()) {
            return Passphrase.adopt(env.toCharArray());
        }
        char[] first = ctx.terminal().readSecret("New passphrase for " + what + ": ").orElseThrow(() ->
                new ProofModeException(Failure.KEY_LOCKED,
                        "no new passphrase: use --new-passphrase-file, PROOFMODE_NEW_PASSPHRASE, or run on a terminal"));
        char[] second = ctx.terminal().readSecret("Repeat it: ").orElse(new char[0]);
        boolean same = Arrays.equals(first, second);
        Arrays.fill(second, '\0');
        if (!same || first.length == 0) {
            Arrays.fill(first, '\0');
            throw new ProofModeException(Failure.KEY_LOCKED, same ? "the passphrase is empty" : "the two passphrases differ");
        }
        return Passphrase.adopt(first);
    }
}
