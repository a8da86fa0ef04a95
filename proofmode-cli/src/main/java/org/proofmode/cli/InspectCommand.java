// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.context.Settings;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode inspect}: show what a proof of a file would record, without signing. */
@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Show what a proof of FILE would record now, without signing or storing anything.",
            "",
            "Runs every metadata source that the settings (and the options below) turn on, so you can check "
                + "what a proof would reveal before you make and share one. Prints 'field: value' lines, or the "
                + "record as one JSON object (the .proof.json form) with --json.",
            ""},
        footer = {"", "Examples:", "  proofmode inspect IMG_0001.jpg", "  proofmode inspect --network --json IMG_0001.jpg",
            "", ExitCodes.HELP_TABLE})
final class InspectCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--json", description = "Print the record as a JSON object.")
    boolean json;

    @Mixin
    ContextOptions context;

    @Parameters(paramLabel = "FILE", description = "A photo, video or audio file.")
    Path file;

    @Override
    public Integer call() {
        ProofMode pm = root.proofMode();
        Settings s = context.apply(pm.settings());
        ProofRecord r = pm.contextReader(s, context.manualLocation()).read(file);
        if (json) {
            root.ctx.out().println(new String(ProofJson.write(r), StandardCharsets.UTF_8));
        } else {
            text(r, root.ctx.out());
        }
        return ExitCodes.OK;
    }

    /**
     * Prints {@code field: value} lines, aligned. Values come from the file's metadata, the network and
     * the device (a Wi-Fi name, an EXIF comment), so each line is escaped and stays one line.
     */
    static void text(ProofRecord r, PrintWriter out) {
        int width = r.fields().keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
        for (Map.Entry<String, String> e : r.fields().entrySet()) {
            String k = e.getKey() + ":";
            out.println(SafeText.escape(k + " ".repeat(Math.max(1, width - k.length())) + e.getValue()));
        }
    }
}
