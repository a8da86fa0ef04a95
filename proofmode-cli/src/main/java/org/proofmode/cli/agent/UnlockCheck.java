// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.proofmode.media.Digests;

/**
 * Whether a command that carries its own secret ({@code PROOFMODE_PASSPHRASE}, {@code PROOFMODE_PIN}) may run
 * in an agent: only if the agent unlocked the key with that same secret. The secret itself is never sent; the
 * client sends its check instead, a SHA-256 of the secret under a label ({@link #of}), which
 * the agent compares with the check of the secret it unlocked with. A command with another secret (a wrong
 * one, say) is refused and runs alone, where a wrong secret fails as it must (exit 67).
 *
 * <p>agent-client.py computes the same check.
 */
public final class UnlockCheck {
    /** The variable that carries the check of {@code PROOFMODE_PASSPHRASE}. */
    public static final String PASSPHRASE_CHECK = "PROOFMODE_PASSPHRASE_CHECK";
    /** The variable that carries the check of {@code PROOFMODE_PIN}. */
    public static final String PIN_CHECK = "PROOFMODE_PIN_CHECK";
    private static final byte[] LABEL = "proofmode agent unlock check v1\0".getBytes(StandardCharsets.UTF_8);

    private final String variable;
    private final String check;

    private UnlockCheck(String variable, String check) {
        this.variable = variable;
        this.check = check;
    }

    /**
     * The check of the secret an agent unlocked its key with.
     *
     * @param pin whether the secret is a token's PIN rather than the key's passphrase
     */
    public static UnlockCheck unlockedWith(char[] secret, boolean pin) {
        return new UnlockCheck(pin ? PIN_CHECK : PASSPHRASE_CHECK, of(secret));
    }

    /** The check of a secret: hex SHA-256 of the label and the secret (UTF-8). */
    public static String of(char[] secret) {
        MessageDigest md = Digests.newSha256();
        md.update(LABEL);
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(secret));
        byte[] b = new byte[bytes.remaining()];
        bytes.get(b);
        md.update(b);
        Arrays.fill(b, (byte) 0);
        if (bytes.hasArray()) {
            Arrays.fill(bytes.array(), (byte) 0);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Adds the checks of the secrets in a caller's environment to what it sends (which holds no secret). */
    public static void add(Map<String, String> env, Map<String, String> sent) {
        checkOf(env.get("PROOFMODE_PASSPHRASE")).ifPresent(c -> sent.put(PASSPHRASE_CHECK, c));
        checkOf(env.get("PROOFMODE_PIN")).ifPresent(c -> sent.put(PIN_CHECK, c));
    }

    private static Optional<String> checkOf(String secret) {
        if (secret == null || secret.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(of(secret.toCharArray()));
    }

    /** Why a command with this environment must run alone, if it carries a check of another secret than the agent's. */
    Optional<String> refusal(Map<String, String> env) {
        String sent = env.get(variable);
        if (sent == null || MessageDigest.isEqual(sent.getBytes(StandardCharsets.US_ASCII), check.getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        return Optional.of("the command's " + (variable.equals(PIN_CHECK) ? "PROOFMODE_PIN" : "PROOFMODE_PASSPHRASE")
                + " is not the one the agent unlocked the key with");
    }
}
