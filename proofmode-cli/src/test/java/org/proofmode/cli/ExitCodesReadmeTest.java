// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** README's table of exit codes, {@code --help}'s and {@link ExitCodes}'s constants name the same codes. */
class ExitCodesReadmeTest {
    @Test
    void readmeTable_namesEveryExitCode_andNoOther() throws Exception {
        assertThat(readmeCodes()).isEqualTo(constants());
    }

    @Test
    void helpTable_namesEveryExitCode_andNoOther() throws Exception {
        Set<Integer> help = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^ +(\\d+)  ").matcher(String.format(ExitCodes.HELP_TABLE));
        while (m.find()) {
            help.add(Integer.parseInt(m.group(1)));
        }
        assertThat(help).isEqualTo(constants());
    }

    /** The codes in the first column of README's "Exit codes" table ("19 / 37" names two). */
    static Set<Integer> readmeCodes() throws IOException {
        List<String> lines = Files.readAllLines(readme());
        int start = lines.indexOf("### Exit codes");
        assertThat(start).as("README's '### Exit codes' section").isPositive();
        Set<Integer> codes = new TreeSet<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("#")) {
                break;
            }
            String[] cells = line.split("\\|");
            if (line.startsWith("|") && cells.length > 2 && cells[1].trim().matches("\\d+( / \\d+)*")) {
                for (String c : cells[1].trim().split(" / ")) {
                    codes.add(Integer.parseInt(c));
                }
            }
        }
        return codes;
    }

    static Set<Integer> constants() throws IllegalAccessException {
        Set<Integer> codes = new TreeSet<>();
        for (Field f : ExitCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                codes.add(f.getInt(null));
            }
        }
        return codes;
    }

    private static Path readme() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("proofmode-cli"))) {
                return p.resolve("README.md");
            }
        }
        throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
    }
}
