// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * A stranger without ProofMode following a bundle's {@code HowToVerifyProofData.txt}: each {@code sha256sum}
 * and {@code gpg} command it gives is run as written, in the unzipped bundle, with a GnuPG home of their own.
 *
 * @param problems what stopped them or did not come out as the instructions promise, one line each
 * @param hashed the files whose SHA-256 matched the name of a proof, as step 1 says it must
 * @param verified the signature files that gpg called a good signature
 */
record StrangersCheck(List<String> problems, List<String> hashed, List<String> verified) {
    /** A command line of the instructions: sha256sum (the Linux line of step 1), or gpg. */
    private static final Pattern COMMAND = Pattern.compile("^[ \\t]*(?:On Linux:[ \\t]*)?((?:sha256sum|gpg)[ \\t].*)$", Pattern.MULTILINE);
    /** A line of sha256sum's output: the hash, two spaces (or a space and '*'), the file. */
    private static final Pattern SUM = Pattern.compile("^([0-9a-f]{64}) [ *](.+)$");
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
            seen.problems.add("the instructions give no sha256sum or gpg command to run");
        }
        return seen;
    }

    private void run(String line, Path folder, Path gnupgHome) {
        List<String> words = words(line);
        for (String w : words.subList(1, words.size())) {
            if (w.contains("<") || w.contains(">")) {
                problems.add("`" + line + "` names no file of this bundle (" + w + "): the stranger must work out which");
                return;
            }
            if (!w.startsWith("-") && !Files.exists(folder.resolve(w))) {
                problems.add("`" + line + "` names " + w + ", which is not in the bundle");
                return;
            }
        }
        List<String> cmd = new ArrayList<>(words);
        cmd.set(0, ExternalTool.require(words.get(0)).toString());
        ProcessResult r = ExternalTool.run(cmd, Map.of("GNUPGHOME", gnupgHome.toString()), TIME, folder);
        if (!r.succeeded()) {
            problems.add("`" + line + "` failed: " + r.describe());
        } else if (words.get(0).equals("sha256sum")) {
            for (String out : r.stdout().lines().toList()) {
                Matcher sum = SUM.matcher(out);
                if (sum.matches() && Files.isRegularFile(folder.resolve(sum.group(1) + ".proof.json"))) {
                    hashed.add(sum.group(2));
                } else {
                    problems.add("`" + line + "` printed " + out + ", which is the hash of no proof in the bundle");
                }
            }
        } else if (words.size() > 2 && words.get(1).equals("--verify")) {
            if (r.stderr().contains("Good signature")) {
                verified.add(words.get(2));
            } else {
                problems.add("`" + line + "` did not say \"Good signature\": " + r.describe());
            }
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
