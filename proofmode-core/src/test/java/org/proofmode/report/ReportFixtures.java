// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.media.Digests;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.Signer;
import org.proofmode.verify.Status;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verdict;

/** Report items made from verification results written out, and the tools a reader reads reports with. */
final class ReportFixtures {
    static final String FINGERPRINT = "0D9E146312F96ED8A96351461094515DE7B5B23A";

    private ReportFixtures() {}

    /** An item of one proof of media {@code name} with these bytes, its notes and its checks; signed by {@link #FINGERPRINT}. */
    static ReportItem item(String name, byte[] media, String notes, Verdict verdict, List<Check> checks) {
        String sha = sha256(media);
        Map<String, String> record = Map.of(ProofFields.NOTES, notes, ContextFields.IMAGE_PIXEL_HASH, sha, ProofFields.PROOF_GENERATED,
                "2026-03-14T08:00:00Z");
        List<Check> all = new ArrayList<>(List.of(new Check(CheckCodes.signature("media", "valid"), Status.PASS, ProofFiles.mediaSig(sha), "good")));
        all.addAll(checks);
        ProofReport p = new ProofReport(sha, Optional.of(sha), Optional.of(name), verdict, all,
                Optional.of(new Signer(FINGERPRINT, "EdDSA", "device <d@example.org>", true)), record,
                Map.of(ProofFields.PROOF_GENERATED, "2026-03-14T08:00:00Z"));
        VerificationReport r = new VerificationReport(name + ".zip", verdict, List.of(), List.of(p));
        return new ReportItem(name + ".zip", r, List.of(name, ProofFiles.mediaSig(sha), ProofFiles.json(sha), ProofFiles.jsonSig(sha),
                ProofFiles.PUBKEY), Map.of(), List.of());
    }

    static String sha256(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(Digests.newSha256().digest(bytes));
    }

    static ReportItem item(String name, String notes) {
        return item(name, "the media".getBytes(StandardCharsets.UTF_8), notes, Verdict.TRUSTED, List.of());
    }

    static Certification certification() {
        return new Certification("proofmode test", Optional.empty(), "test system", Optional.of("2026-03-14T09:00:00Z"), Optional.empty());
    }

    /** Every command of a report's blocks, as one line each (the words joined by spaces). */
    static List<String> commandLines(List<Block> blocks) {
        return blocks.stream().filter(b -> b instanceof Block.Commands).flatMap(b -> ((Block.Commands) b).commands().stream())
                .map(c -> String.join(" ", c)).toList();
    }

    /** A tool's standard output, after checking it succeeded. */
    static String run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** The text of a PDF, as poppler's pdftotext extracts it. */
    static String pdftotext(Path dir, byte[] pdf) throws Exception {
        Path f = Files.write(Files.createTempFile(dir, "report", ".pdf"), pdf);
        return run(dir, "pdftotext", "-enc", "UTF-8", f.toString(), "-");
    }
}
