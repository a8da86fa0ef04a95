// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.testkit.ExternalTool;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;
import org.proofmode.testkit.OtsClient;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Tamper;

/** Reads reports as a reader would: poppler's pdftotext and pdftoppm, and the "Check it yourself" commands run in bash. */
public final class ReportTools {
    /** One command of a report, as run, with its exit code and what it printed. */
    record Ran(String command, int exit, String output) {}

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private ReportTools() {}

    /** The text of a PDF, as poppler's pdftotext extracts it. */
    public static String pdftotext(Path pdf) {
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("pdftotext").toString(), "-enc", "UTF-8", pdf.toString(), "-"),
                Map.of(), TIMEOUT);
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        return r.stdout();
    }

    /** Renders every page with pdftoppm and returns the PNG files, after checking there is one per page pdfinfo counts. */
    static List<Path> pdftoppm(Path pdf, Path dir) throws IOException {
        ProcessResult info = ExternalTool.run(List.of(ExternalTool.require("pdfinfo").toString(), pdf.toString()), Map.of(), TIMEOUT);
        assertThat(info.succeeded()).as(info.describe()).isTrue();
        Matcher m = Pattern.compile("(?m)^Pages:\\s+(\\d+)").matcher(info.stdout());
        assertThat(m.find()).as(info.stdout()).isTrue();
        int pages = Integer.parseInt(m.group(1));
        Files.createDirectories(dir);
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("pdftoppm").toString(), "-r", "40", "-png", pdf.toString(),
                dir.resolve("page").toString()), Map.of(), TIMEOUT);
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        assertThat(r.stderr()).as("pdftoppm complains").isEmpty();
        try (var s = Files.list(dir)) {
            List<Path> png = s.filter(p -> p.getFileName().toString().endsWith(".png")).sorted().toList();
            assertThat(png).hasSize(pages);
            for (Path p : png) {
                assertThat(Files.size(p)).isGreaterThan(500);
            }
            return png;
        }
    }

    /**
     * What veraPDF (the PDF Association's validator) finds wrong in a PDF for a flavour: {@code 2b} for
     * PDF/A-2b, {@code ua1} for PDF/UA-1's machine-checkable rules; one line per failed rule, empty when the
     * file complies.
     */
    static List<String> veraPdf(Path pdf, String flavour) throws Exception {
        synchronized (ReportTools.class) {
            VeraGreenfieldFoundryProvider.initialise();
        }
        PDFAFlavour f = PDFAFlavour.fromString(flavour);
        assertThat(f).isNotEqualTo(PDFAFlavour.NO_FLAVOUR);
        try (PDFAParser parser = Foundries.defaultInstance().createParser(pdf.toFile(), f);
                PDFAValidator validator = Foundries.defaultInstance().createValidator(f, false)) {
            ValidationResult r = validator.validate(parser);
            List<String> failed = r.getTestAssertions().stream().filter(t -> t.getStatus() != TestAssertion.Status.PASSED)
                    .map(t -> t.getRuleId().getClause() + "-" + t.getRuleId().getTestNumber() + " " + t.getMessage() + " at "
                            + t.getLocation().getContext())
                    .distinct().toList();
            assertThat(r.isCompliant()).as("compliant, or failed rules: %s", failed).isEqualTo(failed.isEmpty());
            return failed;
        }
    }

    /** The PDF's logical structure as poppler's {@code pdfinfo -struct} prints it (empty for an untagged PDF). */
    static String structure(Path pdf) {
        ProcessResult r = ExternalTool.run(List.of(ExternalTool.require("pdfinfo").toString(), "-struct", pdf.toString()), Map.of(), TIMEOUT);
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        return r.stdout();
    }

    /**
     * The commands of the text: each line that starts with {@code $ }, joined with the lines after it while a
     * line ends with a backslash (as a shell joins them).
     */
    static List<String> commands(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : text.split("\n", -1)) {
            String l = line.replace("\f", "");
            if (cur != null) {
                if (cur.toString().endsWith("\\")) {
                    cur.setLength(cur.length() - 1);
                    cur.append(l);
                    continue;
                }
                out.add(cur.toString());
                cur = null;
            }
            if (l.startsWith("$ ")) {
                cur = new StringBuilder(l.substring(2));
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Unpacks a zip into a new folder, as unzip would. */
    static Path unpack(Path zip, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> e : Tamper.readZip(zip).entrySet()) {
            Path f = dir.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        return dir;
    }

    /**
     * Runs the commands one after the other in one bash (so that {@code export} carries on), in {@code dir},
     * with real gpg, sqv, openssl, sha256sum and the OpenTimestamps client {@code ots}, and temporary folders
     * under {@code tmp}. Nothing reaches the internet: HTTP and HTTPS go to a proxy on a closed loopback port,
     * so {@code ots} finds no calendar and no block explorer, as on a computer offline.
     */
    static List<Ran> run(List<String> commands, Path dir, Path tmp) throws IOException {
        for (String tool : List.of("bash", "gpg", "sqv", "sha256sum", "openssl", "gpgconf")) {
            ExternalTool.require(tool);
        }
        StringBuilder script = new StringBuilder("exec 2>&1\nset -o pipefail\n");
        for (int i = 0; i < commands.size(); i++) {
            script.append("echo '@@@ begin ").append(i).append("'\n").append(commands.get(i)).append('\n')
                    .append("echo \"@@@ end ").append(i).append(" $?\"\n");
        }
        script.append("[ -n \"$GNUPGHOME\" ] && gpgconf --kill all >/dev/null 2>&1; true\n");
        Files.createDirectories(tmp);
        Path file = Files.writeString(tmp.resolve("commands-" + System.nanoTime() + ".sh"), script);
        String path = OtsClient.binDir(tmp) + ":" + System.getenv("PATH");
        String offline = "http://127.0.0.1:9";
        ProcessResult r = ExternalTool.run(List.of("bash", file.toString()), Map.of("TMPDIR", tmp.toString(), "LC_ALL", "C.UTF-8", "PATH", path,
                "HTTP_PROXY", offline, "HTTPS_PROXY", offline, "http_proxy", offline, "https_proxy", offline), TIMEOUT, dir);
        String all = r.describe();
        List<Ran> ran = new ArrayList<>();
        for (int i = 0; i < commands.size(); i++) {
            Matcher end = Pattern.compile("@@@ end " + i + " (\\d+)").matcher(r.stdout());
            assertThat(end.find()).as("command %d did not finish: %s", i, all).isTrue();
            int b = r.stdout().indexOf("@@@ begin " + i + "\n");
            ran.add(new Ran(commands.get(i), Integer.parseInt(end.group(1)), r.stdout().substring(b, end.start())));
        }
        assertThat(ran).hasSize(commands.size());
        return ran;
    }
}
