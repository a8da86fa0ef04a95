// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.Box;
import org.proofmode.imaging.Picture;
import org.proofmode.imaging.PixelComparison;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.proof.ProofTimes;
import org.proofmode.redact.RedactionJson;
import org.proofmode.redact.RedactionRecord;
import org.proofmode.redact.Redactor;
import org.proofmode.redact.Region;

/**
 * The checks of a redacted copy's proof: its record, and with the original given, the original's
 * identity and proof and a comparison of pixels inside and outside the regions.
 */
final class RedactionChecks {
    /** Opens the redacted copy. */
    @FunctionalInterface
    interface Opener {
        InputStream open() throws IOException;
    }

    private final Verifier verifier;
    private final BundleLimits limits;
    private final List<Check> checks = new ArrayList<>();

    RedactionChecks(Verifier verifier, BundleLimits limits) {
        this.verifier = verifier;
        this.limits = limits;
    }

    List<Check> run(String id, Optional<String> claimed, Optional<byte[]> recordBytes, Optional<Opener> copy,
            Optional<RedactionOriginal> original) {
        String name = id + ProofFiles.REDACTION;
        if (recordBytes.isEmpty()) {
            if (original.isPresent()) {
                fail(CheckCodes.REDACTION_RECORD_MISSING, id, "an original was given, but this proof has no redaction record");
            }
            return checks;
        }
        RedactionRecord r;
        try {
            r = RedactionJson.read(recordBytes.get(), name);
        } catch (ProofModeException e) {
            fail(CheckCodes.REDACTION_RECORD_MALFORMED, name, e.getMessage());
            return checks;
        }
        if (claimed.isEmpty() || !claimed.get().equals(r.output().sha256())) {
            fail(CheckCodes.REDACTION_RECORD_MISMATCH, name, "the record is for the copy " + r.output().sha256()
                    + ", but this proof is for " + claimed.orElse("(unknown)"));
            return checks;
        }
        checks.add(new Check(CheckCodes.REDACTION_RECORD_VALID, Status.PASS, name, "derived by redaction from "
                + (r.original().signer().isPresent() ? "a proved original " : "an original ") + r.original().image().sha256()
                + r.original().signer().map(s -> " (proof signed by " + s + ")").orElse(" (it had no proof in the store)")
                + ", made " + ProofTimes.format(r.created()) + ": " + r.summary()));
        original.ifPresent(o -> compare(r, copy, o));
        return checks;
    }

    private void compare(RedactionRecord r, Optional<Opener> copy, RedactionOriginal o) {
        String expected = r.original().image().sha256();
        byte[] originalBytes;
        Optional<VerificationReport> proof;
        String subject = o.path().toString();
        try {
            if (isBundle(o.path())) {
                VerificationReport rep = verifier.verify(o.path(), Optional.empty());
                Optional<ProofReport> p = rep.proofs().stream().filter(x -> x.sha256().equals(Optional.of(expected))).findFirst();
                if (p.isEmpty() || p.get().media().isEmpty()) {
                    fail(CheckCodes.REDACTION_ORIGINAL_MISMATCH, subject, "holds no proof with media of the original " + expected
                            + " (it has " + rep.proofs().stream().map(x -> x.sha256().orElse(x.id())).collect(Collectors.joining(", ")) + ")");
                    return;
                }
                originalBytes = readEntry(o.path(), p.get().media().get());
                proof = Optional.of(rep);
            } else {
                originalBytes = readBounded(Files.newInputStream(o.path()));
                proof = o.proof().map(pf -> verifier.verify(pf, Optional.of(o.path())));
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, subject + ": cannot read: " + e.getMessage(), e);
        }
        String actual = Digests.sha256Hex(originalBytes);
        if (!actual.equals(expected)) {
            fail(CheckCodes.REDACTION_ORIGINAL_MISMATCH, subject, "SHA-256 is " + actual + ", but the copy was made from " + expected
                    + ": this is not its original");
            return;
        }
        checks.add(new Check(CheckCodes.REDACTION_ORIGINAL_MATCH, Status.PASS, subject, "is the original the record names (SHA-256 " + actual + ")"));
        originalProof(r, subject, proof);
        pixels(r, copy, originalBytes, subject);
    }

    private void originalProof(RedactionRecord r, String subject, Optional<VerificationReport> proof) {
        if (proof.isEmpty()) {
            checks.add(new Check(CheckCodes.REDACTION_ORIGINAL_PROOF_MISSING, Status.WARN, subject,
                    "no proof of the original was given or found in the store; only its identity and pixels were checked"));
            return;
        }
        VerificationReport rep = proof.get();
        if (rep.verdict() == Verdict.INVALID) {
            String failed = rep.allChecks().stream().filter(c -> c.status() == Status.FAIL).map(Check::code).distinct()
                    .collect(Collectors.joining(", "));
            fail(CheckCodes.REDACTION_ORIGINAL_PROOF_INVALID, subject, "the original's proof is INVALID (" + failed + ")");
            return;
        }
        Optional<String> signer = rep.proofs().stream().map(ProofReport::signer).flatMap(Optional::stream).map(Signer::fingerprint).findFirst();
        if (r.original().signer().isPresent() && signer.isPresent() && !r.original().signer().get().equalsIgnoreCase(signer.get())) {
            fail(CheckCodes.REDACTION_ORIGINAL_SIGNER_MISMATCH, subject, "the record names the original's signer "
                    + r.original().signer().get() + ", but its proof is signed by " + signer.get());
            return;
        }
        checks.add(new Check(CheckCodes.REDACTION_ORIGINAL_PROOF_VALID, Status.PASS, subject, "the original's proof is "
                + rep.verdict() + signer.map(s -> ", signed by " + s).orElse("")));
    }

    private void pixels(RedactionRecord r, Optional<Opener> copy, byte[] originalBytes, String subject) {
        if (copy.isEmpty()) {
            checks.add(new Check(CheckCodes.REDACTION_OUTSIDE_UNCHECKED, Status.WARN, subject,
                    "the redacted copy is not in the bundle, so its pixels were not compared"));
            return;
        }
        Picture a;
        Picture b;
        try (InputStream in = copy.get().open()) {
            a = Picture.decode(originalBytes);
            b = Picture.decode(readBounded(in));
        } catch (Picture.Undecodable | IOException e) {
            fail(CheckCodes.REDACTION_OUTSIDE_UNCHECKED, subject, "the pixels could not be compared: " + e.getMessage());
            return;
        }
        List<Box> boxes = r.regions().stream().map(Region::box).toList();
        boolean lossless = r.output().mediaType().equals("image/png");
        PixelComparison.Result c = PixelComparison.compare(a, b, boxes, lossless);
        if (!c.sameSize()) {
            fail(CheckCodes.REDACTION_OUTSIDE_CHANGED, subject, "the copy is " + b.width() + "x" + b.height() + ", the original "
                    + a.width() + "x" + a.height());
            return;
        }
        if (c.outsideUnchanged()) {
            checks.add(new Check(CheckCodes.REDACTION_OUTSIDE_UNCHANGED, Status.PASS, subject, lossless
                    ? "every pixel outside the " + boxes.size() + " regions equals the original's"
                    : String.format(Locale.ROOT, "outside the regions the copy is within JPEG re-encoding tolerance "
                            + "(worst 16x16 block: RMS difference %.1f, limit %.1f)", c.worstBlockRmse(), PixelComparison.JPEG_MAX_BLOCK_RMSE)));
        } else {
            fail(CheckCodes.REDACTION_OUTSIDE_CHANGED, subject, (lossless ? c.outsideChanged() + " pixels outside the regions differ"
                    : String.format(Locale.ROOT, "%d pixels outside the regions are in blocks beyond re-encoding tolerance",
                            c.outsideChanged())) + c.worstBlock().map(w -> String.format(Locale.ROOT,
                                    " (worst block at %s, RMS difference %.1f)", w, c.worstBlockRmse())).orElse("")
                    + ": the copy was edited outside the redacted regions");
        }
        List<String> same = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            if (c.regionChange().get(i) < PixelComparison.MIN_REGION_CHANGE) {
                same.add(boxes.get(i).toString());
            }
        }
        if (!boxes.isEmpty()) {
            checks.add(same.isEmpty()
                    ? new Check(CheckCodes.REDACTION_INSIDE_CHANGED, Status.PASS, subject, "every region differs from the original")
                    : new Check(CheckCodes.REDACTION_INSIDE_UNCHANGED, Status.WARN, subject, "these regions look as in the original: "
                            + String.join("; ", same)));
        }
    }

    private static boolean isBundle(Path p) throws IOException {
        return Files.isDirectory(p) || MediaSniffer.sniff(p).isEmpty();
    }

    private byte[] readEntry(Path bundle, String name) throws IOException {
        try (Bundle b = Bundle.open(bundle, limits)) {
            for (BundleEntry e : b.entries()) {
                if (e.name().equals(name)) {
                    try (InputStream in = e.open()) {
                        return readBounded(in);
                    }
                }
            }
        }
        throw new IOException("entry " + name + " vanished");
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        try (in) {
            byte[] b = in.readNBytes((int) Redactor.MAX_INPUT_BYTES + 1);
            if (b.length > Redactor.MAX_INPUT_BYTES) {
                throw new IOException("larger than " + (Redactor.MAX_INPUT_BYTES >> 20) + " MiB");
            }
            return b;
        }
    }

    private void fail(String code, String subject, String message) {
        checks.add(new Check(code, Status.FAIL, subject, message));
    }
}
