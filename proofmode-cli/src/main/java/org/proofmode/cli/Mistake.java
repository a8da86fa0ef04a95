// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.proofmode.util.SafeText;
import picocli.CommandLine;

/**
 * A word the command line does not know: a mistyped command, option or help topic, said in one line with
 * picocli's suggestions ("did you mean …?") and the exit code of its kind.
 *
 * @param line the message, without the "proofmode: " prefix
 * @param exitCode {@link ExitCodes#UNKNOWN_SUBCOMMAND} for a command or help topic, {@link ExitCodes#BAD_OPTION}
 *     for an option or an extra argument
 */
record Mistake(String line, int exitCode) {
    /** The mistake a parse error is, if it is an unknown word. */
    static Optional<Mistake> of(CommandLine.ParameterException e) {
        CommandLine cmd = e.getCommandLine();
        String where = cmd.getCommandSpec().qualifiedName();
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            if (word.startsWith("-")) {
                return Optional.of(new Mistake("unknown option " + quoted(word) + " for '" + where + "'" + didYouMean(u.getSuggestions()),
                        ExitCodes.BAD_OPTION));
            }
            if (!cmd.getSubcommands().isEmpty()) {
                return Optional.of(new Mistake("unknown command " + quoted(word) + didYouMean(u.getSuggestions())
                        + " ('" + where + " --help' lists them)", ExitCodes.UNKNOWN_SUBCOMMAND));
            }
            return Optional.of(new Mistake("unexpected argument " + quoted(word) + " for '" + where + "' (see '" + where + " --help')",
                    ExitCodes.BAD_OPTION));
        }
        // picocli's help command names an unknown topic so, with the topic as the value.
        if (e.getArgSpec() == null && e.getValue() != null && String.valueOf(e.getMessage()).startsWith("Unknown subcommand")) {
            String word = e.getValue();
            // picocli suggests no hidden command, and a help topic is one: the closest of every name, by letter pairs.
            List<String> suggestions = closest(word, cmd.getSubcommands().keySet()).map(List::of).orElse(List.of());
            return Optional.of(new Mistake("no command or help topic " + quoted(word) + didYouMean(suggestions)
                    + " ('proofmode help' lists them)", ExitCodes.UNKNOWN_SUBCOMMAND));
        }
        return Optional.empty();
    }

    /** The name sharing the largest part of its letter pairs with the word (Dice's coefficient), if any shares one. */
    static Optional<String> closest(String word, Collection<String> names) {
        Set<String> pairs = pairs(word);
        String best = null;
        double score = 0;
        for (String name : names) {
            Set<String> theirs = pairs(name);
            long common = theirs.stream().filter(pairs::contains).count();
            double s = 2.0 * common / Math.max(1, pairs.size() + theirs.size());
            if (s > score) {
                score = s;
                best = name;
            }
        }
        return Optional.ofNullable(best);
    }

    private static Set<String> pairs(String s) {
        Set<String> out = new HashSet<>();
        String lower = s.toLowerCase(Locale.ROOT);
        for (int i = 0; i + 1 < lower.length(); i++) {
            out.add(lower.substring(i, i + 2));
        }
        return out;
    }

    private static String quoted(String word) {
        return "'" + SafeText.escape(word) + "'";
    }

    /** The closest suggestion only: picocli lists every word that shares a pair of letters with the mistake. */
    private static String didYouMean(List<String> suggestions) {
        return suggestions.isEmpty() ? "" : ": did you mean " + quoted(suggestions.get(0)) + "?";
    }
}
