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
 * A stranger without ProofMode following a bundle's {@code HowToVerifyProofData.txt} in the folder where
 * they unzipped it: the command lines it gives are pasted, in order, into one {@code bash} session (as a
 * person pastes them into one terminal), and what each printed is read as the instructions say to read it.
 * The command lines are those marked {@code $ }, or, in instructions without such marks, the lines that start
 * with {@code gpg} or {@code sha256sum} (the Linux line of a step) or pipe into {@code sha256sum}.
 *
 * @param problems what stopped them or did not come out as the instructions promise, one line each
 * @param hashed the files whose SHA-256 matched a proof's, as the instructions say it must
 * @param verified the signature files that gpg called a good signature
 */
record StrangersCheck(List<String> problems, List<String> hashed, List<String> verified) {
    /** A command line to paste, as instructions that mark them write it: {@code $ COMMAND}. */
    private static final Pattern MARKED = Pattern.compile("^[ \\t]*\\$[ \\t]+(.+)$", Pattern.MULTILINE);
    /** A command line of instructions without marks: gpg, sha256sum (the Linux line of a step), or a pipe into sha256sum. */
    private static final Pattern UNMARKED = Pattern.compile(
            "^[ \\t]*(?:On Linux:[ \\t]*)?((?:gpg|sha256sum)[ \\t].*|\\S.*\\|[ \\t]*sha256sum\\b.*)$", Pattern.MULTILINE);
    /** A placeholder for the reader to fill in, such as {@code <media file>} or {@code <HASH>}, and the name's end after it. */
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>]+>([^\\s'\"]*)");
    /** A line of sha256sum's output: the hash, two spaces (or a space and '*'), the file. */
    private static final Pattern SUM = Pattern.compile("^([0-9a-f]{64}) [ *](.+)$");
    /** A line of {@code sha256sum -c}'s output for a file that matched. */
    private static final Pattern CHECKED = Pattern.compile("^(.+): OK$");
    /** What the session prints between two command lines: the exit code of the one before. */
    private static final Pattern MARK = Pattern.compile("^@@@ (\\d+) (\\d+)$", Pattern.MULTILINE);
    private static final Duration TIME = Duration.ofSeconds(120);

    /**
     * Follows {@code howTo} in {@code folder} with {@code GNUPGHOME} set to {@code home} (made here) and
     * {@code TMPDIR} beside it; every gpg-agent the session started is stopped after.
     */
    static StrangersCheck follow(String howTo, Path folder, Path home) throws IOException {
        Files.createDirectories(home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path tmp = Files.createDirectories(home.resolveSibling(home.getFileName() + "-tmp"));
        StrangersCheck seen = new StrangersCheck(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<String> lines = new ArrayList<>();
        Matcher m = (MARKED.matcher(howTo).find() ? MARKED : UNMARKED).matcher(howTo);
        while (m.find()) {
            String line = m.group(1).strip();
            if (seen.typeable(line, folder)) {
                lines.add(line);
            }
        }
        // One session: stderr into stdout, so that each command's words stay beside it; a mark after each.
        StringBuilder session = new StringBuilder("exec 2>&1\n");
        for (int i = 0; i < lines.size(); i++) {
            session.append(lines.get(i)).append("\nrc=$?; echo; echo \"@@@ ").append(i).append(" $rc\"\n");
        }
        ProcessResult r;
        try {
            r = ExternalTool.run(List.of(ExternalTool.require("bash").toString(), "-c", session.toString()), Map.of("GNUPGHOME",
                    home.toString(), "TMPDIR", tmp.toString(), "LC_ALL", "C.UTF-8", "LANGUAGE", "C"), TIME, folder);
        } finally {
            stopAgents(home, tmp);
        }
        seen.read(lines, r, folder);
        if (seen.hashed.isEmpty() && seen.verified.isEmpty()) {
            seen.problems.add("following the instructions, no file was hashed and no signature checked");
        }
        return seen;
    }

    /** Whether the stranger can type this line as it is; a problem if it names a file by a placeholder. */
    private boolean typeable(String line, Path folder) {
        Matcher placeholder = PLACEHOLDER.matcher(line);
        while (placeholder.find()) {
            String end = placeholder.group(1);
            if (!end.isEmpty() && !holdsFileEndingIn(folder, end)) {
                return false; // a step for a kind of file this bundle does not hold (a redaction record, a timestamp)
            }
        }
        if (placeholder.reset().find()) {
            problems.add("`" + line + "` names no file of this bundle (" + placeholder.group() + "): the stranger must work out which");
            return false;
        }
        return true;
    }

    /** Reads what each command line printed, between the marks. */
    private void read(List<String> lines, ProcessResult r, Path folder) {
        Matcher mark = MARK.matcher(r.stdout());
        int from = 0;
        int next = 0;
        while (mark.find()) {
            int i = Integer.parseInt(mark.group(1));
            String out = r.stdout().substring(from, mark.start());
            from = mark.end();
            next = i + 1;
            String line = lines.get(i);
            if (!mark.group(2).equals("0")) {
                problems.add("`" + line + "` exited " + mark.group(2) + ": " + out.strip());
            } else {
                judge(line, out, folder);
            }
        }
        if (next < lines.size()) {
            problems.add("the session stopped at `" + lines.get(next) + "`: " + r.describe());
        }
    }

    private void judge(String line, String out, Path folder) {
        List<String> words = words(line);
        if (words.contains("sha256sum")) {
            for (String printed : out.strip().lines().toList()) {
                Matcher sum = SUM.matcher(printed);
                Matcher checked = CHECKED.matcher(printed);
                if (sum.matches() && Files.isRegularFile(folder.resolve(sum.group(1) + ".proof.json"))) {
                    hashed.add(sum.group(2));
                } else if (checked.matches()) {
                    hashed.add(checked.group(1));
                } else {
                    problems.add("`" + line + "` printed " + printed + ", which matches no proof in the bundle");
                }
            }
        } else if (words.get(0).equals("gpg") && words.contains("--verify") && words.indexOf("--verify") + 1 < words.size()) {
            String signature = words.get(words.indexOf("--verify") + 1);
            if (out.contains("Good signature")) {
                verified.add(signature);
            } else {
                problems.add("`" + line + "` did not say \"Good signature\": " + out.strip());
            }
        }
    }

    /** Stops the gpg-agent of the GnuPG home and of any the instructions made under {@code tmp}. */
    private static void stopAgents(Path home, Path tmp) throws IOException {
        List<Path> homes = new ArrayList<>(List.of(home));
        try (Stream<Path> made = Files.list(tmp)) {
            made.filter(Files::isDirectory).forEach(homes::add);
        }
        for (Path h : homes) {
            ExternalTool.run(List.of(ExternalTool.require("gpgconf").toString(), "--homedir", h.toString(), "--kill", "all"),
                    Map.of("GNUPGHOME", h.toString()), TIME);
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
