// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A terminal for one command that asks each of some prompts once: a command that needs the device key's
 * passphrase twice (to open an encrypted store, then to sign) asks the person once. The answers are held as
 * characters, handed out as copies, and cleared by {@link #close} when the command ends. Other prompts (a
 * new passphrase and its repetition, a confirmation) are asked every time.
 */
public final class OneAnswerTerminal implements Terminal, AutoCloseable {
    private final Terminal terminal;
    private final Set<String> once;
    private final Map<String, char[]> answers = new HashMap<>();

    /**
     * @param terminal the terminal that asks
     * @param once the prompts asked at most once (with a non-empty answer) in this command
     */
    public OneAnswerTerminal(Terminal terminal, Set<String> once) {
        this.terminal = Objects.requireNonNull(terminal, "terminal");
        this.once = Set.copyOf(once);
    }

    @Override
    public boolean interactive() {
        return terminal.interactive();
    }

    @Override
    public synchronized Optional<char[]> readSecret(String prompt) {
        char[] had = answers.get(prompt);
        if (had != null) {
            return Optional.of(had.clone());
        }
        Optional<char[]> answer = terminal.readSecret(prompt);
        if (once.contains(prompt) && answer.isPresent() && answer.get().length > 0) {
            answers.put(prompt, answer.get().clone());
        }
        return answer;
    }

    @Override
    public Optional<String> readLine(String prompt) {
        return terminal.readLine(prompt);
    }

    /** Clears the answers held. */
    @Override
    public synchronized void close() {
        answers.values().forEach(a -> Arrays.fill(a, '\0'));
        answers.clear();
    }
}
