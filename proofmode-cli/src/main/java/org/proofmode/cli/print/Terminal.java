// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import java.io.Console;
import java.util.Optional;

/** The interactive terminal, if there is one: used for passphrase prompts and progress bars only. */
public interface Terminal {
    /** Tells whether stderr is a terminal a person watches. */
    boolean interactive();

    /** Asks for a secret without echo; empty if there is no terminal. */
    Optional<char[]> readSecret(String prompt);

    /** Asks for a line of text (a confirmation); empty if there is no terminal. */
    default Optional<String> readLine(String prompt) {
        return Optional.empty();
    }

    /** No terminal: never prompts, never draws progress. */
    Terminal NONE = new Terminal() {
        @Override
        public boolean interactive() {
            return false;
        }

        @Override
        public Optional<char[]> readSecret(String prompt) {
            return Optional.empty();
        }
    };

    /** A terminal a person watches (progress is drawn on it) that cannot be asked anything: the agent's caller's. */
    Terminal WATCHED = new Terminal() {
        @Override
        public boolean interactive() {
            return true;
        }

        @Override
        public Optional<char[]> readSecret(String prompt) {
            return Optional.empty();
        }
    };

    /** The process's console, if it has one. */
    public static Terminal system() {
        Console c = System.console();
        if (c == null) {
            return NONE;
        }
        return new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public Optional<char[]> readSecret(String prompt) {
                return Optional.ofNullable(c.readPassword("%s", prompt));
            }

            @Override
            public Optional<String> readLine(String prompt) {
                return Optional.ofNullable(c.readLine("%s", prompt));
            }
        };
    }
}
