// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * A stranger without ProofMode following a bundle's {@code HowToVerifyProofData.txt}: each {@code sha256sum}
 * and {@code gpg} command line it gives (the Linux one of step 1; a pipe into {@code sha256sum -c} too) is run
 * as written by {@code bash}, in the unzipped bundle, with a GnuPG home of their own.
 *
 * @param problems what stopped them or did not come out as the instructions promise, one line each
 * @param hashed the files whose SHA-256 matched the name of a proof, as step 1 says it must
 * @param verified the signature files that gpg called a good signature
 */
record StrangersCheck(List<String> problems, List<String> hashed, List<String> verified) {
    /** A command line of the instructions: one that starts with gpg or sha256sum, or pipes into sha256sum. */
    private static final Pattern COMMAND = Pattern.compile("^[ \\t]*(?:On Linux:[ \\t]*)?((?:gpg|sha256sum)[ \\t].*|\\S.*\\|[ \\t]*sha256sum\\b.*)$",
            Pattern.MULTILINE);
    /** A placeholder for the reader to fill in, such as {@code <media file>} or {@code <HASH>}, and the name's end after it. */
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>]+>([^\\s'\"]*)");
    /** A line of sha256sum's output: the hash, two spaces (or a space and '*'), the file. */
    private static final Pattern SUM = Pattern.compile("^([0-9a-f]{64}) [ *](.+)$");
    /** A line of {@code sha256sum -c}'s output for a file that matched. */
    private static final Pattern CHECKED = Pattern.compile("^(.+): OK$");
    private static final Duration TIME = Duration.ofSeconds(60);

    /** Follows {@code howTo} in {@code folder}; {@code gnupgHome} is made for it, and its gpg-agent stopped after. */
    static StrangersCheck follow(String howTo, Path folder, Path gnupgHome) throws IOException {
        Files.createDirectories(gnupgHome, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        StrangersCheck seen = new StrangersCheck(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Matcher m = COMMAND.matcher(howTo);
        try {
            while (m.find()) {
                seen.run(m.group(1).strip(), folder, gnupgHome);
            }
        } finally {
            ExternalTool.run(List.of(ExternalTool.require("gpgconf").toString(), "--homedir", gnupgHome.toString(), "--kill", "all"),
                    Map.of("GNUPGHOME", gnupgHome.toString()), TIME);
        }
        if (seen.hashed.isEmpty() && seen.verified.isEmpty()) {
            seen.problems.add("following the instructions, no file was hashed and no signature checked");
        }
        return seen;
    }

    private void run(String line, Path folder, Path gnupgHome) {
        Matcher placeholder = PLACEHOLDER.matcher(line);
        while (placeholder.find()) {
            String end = placeholder.group(1);
            if (!end.isEmpty() && !holdsFileEndingIn(folder, end)) {
                return; // a step for a kind of file this bundle does not hold (a redaction record, a timestamp)
            }
        }
        if (placeholder.reset().find()) {
            problems.add("`" + line + "` names no file of this bundle (" + placeholder.group() + "): the stranger must work out which");
            return;
        }
        // (in the C locale, so that gpg says "Good signature" in the words checked here)
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("bash").toString(), "-c", line),
                Map.of("GNUPGHOME", gnupgHome.toString(), "LC_ALL", "C.UTF-8", "LANGUAGE", "C"), TIME, folder);
        if (!r.succeeded()) {
            problems.add("`" + line + "` failed: " + r.describe());
            return;
        }
        List<String> words = words(line);
        if (words.contains("sha256sum")) {
            for (String out : r.stdout().lines().toList()) {
                Matcher sum = SUM.matcher(out);
                Matcher checked = CHECKED.matcher(out);
                if (sum.matches() && Files.isRegularFile(folder.resolve(sum.group(1) + ".proof.json"))) {
                    hashed.add(sum.group(2));
                } else if (checked.matches()) {
                    hashed.add(checked.group(1));
                } else {
                    problems.add("`" + line + "` printed " + out + ", which matches no proof in the bundle");
                }
            }
        } else if (words.get(0).equals("gpg") && words.indexOf("--verify") > 0 && words.indexOf("--verify") + 1 < words.size()) {
            String signature = words.get(words.indexOf("--verify") + 1);
            if (r.stderr().contains("Good signature")) {
                verified.add(signature);
            } else {
                problems.add("`" + line + "` did not say \"Good signature\": " + r.describe());
            }
        }
    }

    private static boolean holdsFileEndingIn(Path folder, String end) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(end));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The words of a command line as a shell splits it: on blanks, with '...' and "..." quoting (no escapes). */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (c == ' ' || c == '\t') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
