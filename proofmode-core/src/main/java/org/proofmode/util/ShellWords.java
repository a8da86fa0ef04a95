// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Words of shell commands printed for a person to type or paste ("check it yourself" in reports, the
 * instructions in share bundles), chosen by an allow-list.
 *
 * <p>Security: a file name comes from the sender. A reader types what a command looks like, so a character
 * that merely looks like a quote or like shell syntax (U+02BC, U+2019, fullwidth forms, bidirectional and
 * zero-width characters...) would be typed as the real thing and run the sender's command. A name is
 * therefore given in a command only when every character of it is printable ASCII but the backslash
 * ({@link #typeable}); it stands bare when it is made only of ASCII letters, digits and {@code ._-+,@%/=:}
 * ({@link #PLAIN}), else in single quotes, where every printable ASCII character is inert. Any other name
 * gets a safe name instead ({@link #safeName}) and a note saying which characters it replaces
 * ({@link #replaced}).
 */
public final class ShellWords {
    /** Words that stand without quotes: ASCII letters, digits and {@code ._-+,@%/=:}. */
    public static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._+,@%/=:-]+");

    private ShellWords() {}

    /** Whether a name can be given in a typed command: not empty, printable ASCII only, no backslash. */
    public static boolean typeable(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '\\');
    }

    /**
     * One word for a POSIX shell: as is when plain, else in single quotes; a leading {@code -} gets {@code ./}
     * so that no tool reads it as an option.
     *
     * @throws IllegalArgumentException if the word is not {@link #typeable}
     */
    public static String quote(String word) {
        if (!typeable(word)) {
            throw new IllegalArgumentException("not a word to type: " + SafeText.escape(word));
        }
        String w = word.startsWith("-") ? "./" + word : word;
        if (PLAIN.matcher(w).matches()) {
            return w;
        }
        return "'" + w.replace("'", "'\\''") + "'";
    }

    /**
     * A name made only of {@link #PLAIN} characters for a file whose own name is not typeable: {@code prefix}
     * and the first 12 hex digits of its SHA-256, with the name's extension when that is plain.
     */
    public static String safeName(String name, String prefix, String sha256) {
        Objects.requireNonNull(name, "name");
        int dot = name.lastIndexOf('.');
        String ext = dot > 0 ? name.substring(dot) : "";
        String safeExt = ext.length() <= 8 && Pattern.matches("\\.[A-Za-z0-9]+", ext) ? ext.toLowerCase(Locale.ROOT) : "";
        return prefix + "-" + sha256.substring(0, Math.min(12, sha256.length())) + safeExt;
    }

    /**
     * The command that gives {@code safe} to the one file of {@code dir} whose SHA-256 is {@code sha256},
     * as words: made of this class's own words, the folder, the hex digits and the safe name, nothing else
     * of the sender's. It prints nothing, and succeeds whether or not it finds the file.
     */
    public static List<String> renameBySha256(String dir, String sha256, String safe) {
        if (!sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a SHA-256 in hex: " + SafeText.escape(sha256));
        }
        return List.of("for", "f", "in", quote(dir) + "/*;", "do", "if", "[", "-f", "\"$f\"", "]", "&&", "[", "\"$(sha256sum",
                "<", "\"$f\"", "|", "cut", "-c1-64)\"", "=", sha256, "];", "then", "mv", "-n", "--", "\"$f\"", quote(safe) + ";",
                "fi;", "done");
    }

    /** The characters of a name that make it not typeable, each once, as {@code U+5199 (写)} or {@code U+200E}. */
    public static List<String> replaced(String name) {
        List<String> out = new ArrayList<>();
        name.codePoints().filter(c -> !(c >= 0x20 && c < 0x7f && c != '\\')).distinct().forEach(c -> {
            String u = String.format(Locale.ROOT, "U+%04X", c);
            boolean visible = Character.isLetterOrDigit(c) || Character.getType(c) == Character.OTHER_SYMBOL
                    || Character.getType(c) == Character.OTHER_PUNCTUATION || Character.getType(c) == Character.MATH_SYMBOL;
            out.add(visible && SafeText.escape(Character.toString(c)).equals(Character.toString(c)) ? u + " (" + Character.toString(c) + ")" : u);
        });
        return out;
    }
}
