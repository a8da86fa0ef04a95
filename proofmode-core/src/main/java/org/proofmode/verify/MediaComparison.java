// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.context.ImageHashSource;
import org.proofmode.context.MetadataSource;
import org.proofmode.context.StreamHashSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaSniffer;
import org.proofmode.media.MediaType;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.util.IoErrors;

/**
 * Says how two media relate, from what each is known to contain: the same bytes; the same decoded
 * frames, samples or pixels in another container or with other metadata; an excerpt (a run of one's
 * frames inside the other's, from the frame lists); perceptually close images; or different. Each side is
 * a media file (hashed here, with FFmpeg for video and audio) or a proof (its record's hashes and its
 * frame list, trusted only as far as the proof verifies).
 */
public final class MediaComparison {
    /** Perceptual hashes at most this many bits apart are called close: re-encoded copies stay well within. */
    public static final int CLOSE_BITS = 10;
    /** An excerpt must share at least this share of the shorter side's frames, in one run. */
    private static final double EXCERPT_SHARE = 0.9;

    private MediaComparison() {}

    /** How two media relate, from closest to farthest. */
    public enum Relation {
        /** The same bytes. */
        SAME_BYTES,
        /** Other bytes, the same decoded content: frames and samples, or pixels. */
        SAME_CONTENT,
        /** One's frames are a run of the other's. */
        EXCERPT,
        /** Images whose perceptual hashes are close. */
        SIMILAR,
        /** None of the above. */
        DIFFERENT
    }

    /**
     * What is known of one side.
     *
     * @param name how the side is named to the user
     * @param kind what kind of media, if known
     * @param sha256 the file's SHA-256
     * @param pixelHashes {@code Image.PixelHash}, in each version known (a proof holds one; a file is
     *     hashed in both where it can be, to compare with proofs of either)
     * @param perceptualHash {@code Image.PerceptualHash}
     * @param frameHash {@code Video.FrameHash}
     * @param frames the frame list, when known
     * @param sampleHash {@code Audio.SampleHash}
     * @param proof the verdict of the proof this side comes from, if it is a proof
     */
    public record Side(String name, Optional<MediaKind> kind, Optional<String> sha256, List<String> pixelHashes,
            Optional<Long> perceptualHash, Optional<String> frameHash, Optional<Frames> frames, Optional<String> sampleHash,
            Optional<Verdict> proof) {
        /** Validates the fields. */
        public Side {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(sha256, "sha256");
            pixelHashes = List.copyOf(pixelHashes);
            Objects.requireNonNull(perceptualHash, "perceptualHash");
            Objects.requireNonNull(frameHash, "frameHash");
            Objects.requireNonNull(frames, "frames");
            Objects.requireNonNull(sampleHash, "sampleHash");
            Objects.requireNonNull(proof, "proof");
        }
    }

    /** The relation and the checks that show it. */
    public record Result(Relation relation, List<Check> checks) {
        /** Copies the checks. */
        public Result {
            Objects.requireNonNull(relation, "relation");
            checks = List.copyOf(checks);
        }
    }

    /**
     * Describes a media file as a proof of it would now: its SHA-256, and the image, frame and sample hashes
     * of the same context sources ({@link ImageHashSource}, {@link StreamHashSource}, whatever the settings).
     * A hash that cannot be made is left out, with the source's warning in {@code notes}.
     *
     * @throws IOException if the file cannot be read
     */
    public static Side ofFile(Path file, String name, List<String> notes) throws IOException {
        String sha = Digests.sha256(file);
        Optional<MediaType> type = MediaSniffer.sniff(file);
        ProofRecord.Builder b = ProofRecord.builder();
        if (type.isPresent()) {
            b.put(ProofFields.FILE_MEDIA_TYPE, type.get().mimeType());
            MediaFile media = new MediaFile(file.toAbsolutePath(), type.get(), Files.size(file), Instant.now());
            MetadataSource.contributeAll(List.of(new ImageHashSource(), new StreamHashSource()), media, b);
        }
        Map<String, String> fields = b.build().fields();
        fields.forEach((k, v) -> {
            if (k.startsWith(ProofFields.WARNING_PREFIX)) {
                notes.add(name + ": " + v);
            }
        });
        Side side = ofRecord(name, fields, Optional.of(sha), Optional.ofNullable(b.attachments().get(ProofFiles.FRAMES))
                .flatMap(FrameList::parse), Optional.empty());
        String pixelHash = fields.get(ContextFields.IMAGE_PIXEL_HASH);
        if (pixelHash != null && pixelHash.startsWith(ImageHashes.V2)) {
            // Proofs made before version 2 hold version 1 for the same JPEG.
            try {
                Optional<String> v1 = ImageHashes.pixelHashAs(file, "");
                if (v1.isPresent()) {
                    side = new Side(name, side.kind(), side.sha256(), List.of(pixelHash, v1.get()), side.perceptualHash(),
                            side.frameHash(), side.frames(), side.sampleHash(), side.proof());
                }
            } catch (ImageHashes.NotHashed e) {
                notes.add(name + ": no version 1 pixel hash: " + e.getMessage());
            }
        }
        return side;
    }

    /**
     * Describes the media of a share bundle or proof folder that holds one proof, from that proof, which
     * is verified first: its record and, for a video, its frame list.
     *
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} if it holds no proof or several, and as
     *     {@link Verifier#verify(Path, Optional)}
     */
    public static Side ofBundle(Verifier verifier, Path path, String name) {
        VerificationReport report = verifier.verify(path, Optional.empty());
        if (report.proofs().size() != 1) {
            throw new ProofModeException(Failure.UNSUPPORTED, name + ": holds " + report.proofs().size()
                    + " proofs; compare needs one (export it alone, or name its media file)");
        }
        ProofReport proof = report.proofs().get(0);
        String wanted = ProofFiles.frames(proof.id());
        Optional<Frames> frames = Optional.empty();
        try (Bundle bundle = Bundle.open(path, verifier.limits)) {
            for (BundleEntry e : bundle.entries()) {
                if (e.fileName().equals(wanted)) {
                    try (InputStream in = e.open()) {
                        frames = FrameList.read(in).frames();
                    }
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, path + ": cannot read " + wanted + ": " + IoErrors.describe(e), e);
        }
        return ofRecord(name, proof.record(), proof.sha256(), frames, Optional.of(proof.verdict()));
    }

    /**
     * Describes media from a proof's record and, for a video, its frame list.
     *
     * @param frames the proof's frame list ({@code <h>.frames}), if it has one that reads
     * @param verdict the proof's verdict, when it is known
     */
    static Side ofRecord(String name, Map<String, String> r, Optional<String> sha256, Optional<Frames> frames,
            Optional<Verdict> verdict) {
        Optional<MediaKind> kind = Optional.ofNullable(r.get(ProofFields.FILE_MEDIA_TYPE)).flatMap(MediaComparison::kindOf);
        Optional<Long> perceptual = Optional.ofNullable(r.get(ContextFields.IMAGE_PERCEPTUAL_HASH))
                .filter(h -> h.matches("[0-9a-fA-F]{16}")).map(h -> Long.parseUnsignedLong(h, 16));
        return new Side(name, kind, sha256, Optional.ofNullable(r.get(ContextFields.IMAGE_PIXEL_HASH)).stream().toList(), perceptual,
                Optional.ofNullable(r.get(ContextFields.VIDEO_FRAME_HASH)).map(h -> h.toLowerCase(Locale.ROOT)), frames,
                Optional.ofNullable(r.get(ContextFields.AUDIO_SAMPLE_HASH)).map(h -> h.toLowerCase(Locale.ROOT)), verdict);
    }

    /**
     * Describes one side named by a path: media we recognise as itself (hashed now), anything else as a
     * share bundle or proof folder ({@link #ofBundle}).
     *
     * @throws IOException if a media file cannot be read
     */
    public static Side of(Verifier verifier, Path path, String name, List<String> notes) throws IOException {
        if (Files.isRegularFile(path) && MediaSniffer.sniff(path).isPresent()) {
            return ofFile(path, name, notes);
        }
        return ofBundle(verifier, path, name);
    }

    private static Optional<MediaKind> kindOf(String mimeType) {
        String m = mimeType.toLowerCase(Locale.ROOT);
        return m.startsWith("image/") ? Optional.of(MediaKind.IMAGE) : m.startsWith("video/") ? Optional.of(MediaKind.VIDEO)
                : m.startsWith("audio/") ? Optional.of(MediaKind.AUDIO) : Optional.empty();
    }

    /** Compares two sides. */
    public static Result compare(Side a, Side b) {
        List<Check> checks = new ArrayList<>();
        boolean invalidProof = false;
        for (Side s : List.of(a, b)) {
            if (s.proof().isPresent() && s.proof().get() == Verdict.INVALID) {
                checks.add(new Check(CheckCodes.COMPARE_PROOF_INVALID, Status.FAIL, s.name(),
                        "the proof does not verify: what it records is not evidence of anything"));
                invalidProof = true;
            }
        }
        if (a.sha256().isPresent() && a.sha256().equals(b.sha256())) {
            checks.add(new Check(CheckCodes.COMPARE_BYTES_IDENTICAL, Status.PASS, b.name(), "the same bytes as " + a.name()
                    + " (SHA-256 " + a.sha256().get() + ")"));
            return new Result(invalidProof ? Relation.DIFFERENT : Relation.SAME_BYTES, checks);
        }
        Relation relation = Relation.DIFFERENT;
        boolean compared = false;
        if (a.frameHash().isPresent() && b.frameHash().isPresent()) {
            compared = true;
            relation = closer(relation, frames(a, b, checks));
        }
        if (a.sampleHash().isPresent() && b.sampleHash().isPresent()) {
            compared = true;
            boolean same = a.sampleHash().equals(b.sampleHash());
            // An excerpt's audio is a part of the other's: sample hashes cover whole tracks only.
            boolean excerpt = relation == Relation.EXCERPT;
            checks.add(new Check(same ? CheckCodes.COMPARE_SAMPLES_IDENTICAL : CheckCodes.COMPARE_SAMPLES_DIFFERENT,
                    same ? Status.PASS : excerpt ? Status.INFO : Status.FAIL, b.name(), same ? "the same decoded audio samples as "
                            + a.name() : "other decoded audio samples than " + a.name()
                            + (excerpt ? " (as for any excerpt: the sample hash covers a whole track)" : "")));
            if (!same) {
                relation = relation == Relation.SAME_CONTENT ? Relation.DIFFERENT : relation;
            } else if (a.frameHash().isEmpty() && b.frameHash().isEmpty()) {
                relation = closer(relation, Relation.SAME_CONTENT);
            }
        }
        if (!a.pixelHashes().isEmpty() && !b.pixelHashes().isEmpty()) {
            compared = true;
            boolean sameVersion = a.pixelHashes().stream().anyMatch(x -> b.pixelHashes().stream().anyMatch(y -> sameVersion(x, y)));
            String versions = sameVersion ? "" : " (their pixel hashes are of different versions: "
                    + versionsOf(a) + " and " + versionsOf(b) + ")";
            if (!Collections.disjoint(a.pixelHashes(), b.pixelHashes())) {
                checks.add(new Check(CheckCodes.COMPARE_PIXELS_IDENTICAL, Status.PASS, b.name(), "the same decoded pixels as "
                        + a.name() + " (other bytes: other metadata or container)"));
                relation = closer(relation, Relation.SAME_CONTENT);
            } else if (a.perceptualHash().isPresent() && b.perceptualHash().isPresent()) {
                int d = ImageHashes.distance(a.perceptualHash().get(), b.perceptualHash().get());
                boolean close = d <= CLOSE_BITS;
                checks.add(new Check(close ? CheckCodes.COMPARE_PERCEPTUAL_CLOSE : CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT,
                        Status.FAIL, b.name(), (sameVersion ? "other pixels than " + a.name() : "pixels not comparable with "
                                + a.name() + versions) + "; perceptual hashes "
                                + d + " of 64 bits apart (close: at most " + CLOSE_BITS + "): "
                                + (close ? "probably the same picture re-encoded, resized or lightly edited" : "another picture")));
                relation = closer(relation, close ? Relation.SIMILAR : Relation.DIFFERENT);
            } else {
                checks.add(new Check(CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT, Status.FAIL, b.name(),
                        (sameVersion ? "other pixels than " + a.name() : "pixels not comparable with " + a.name() + versions)));
            }
        }
        if (!compared) {
            checks.add(new Check(CheckCodes.COMPARE_UNCOMPARABLE, Status.FAIL, b.name(), "other bytes than " + a.name()
                    + ", and no content hash both have (" + describe(a) + "; " + describe(b) + ")"));
        }
        return new Result(invalidProof ? Relation.DIFFERENT : relation, checks);
    }

    private static String describe(Side s) {
        List<String> has = new ArrayList<>();
        if (!s.pixelHashes().isEmpty()) {
            has.add("pixel hash");
        }
        s.frameHash().ifPresent(h -> has.add("frame hash"));
        s.sampleHash().ifPresent(h -> has.add("sample hash"));
        return s.name() + ": " + (has.isEmpty() ? "none" : String.join(", ", has));
    }

    private static boolean sameVersion(String a, String b) {
        return a.startsWith(ImageHashes.V2) == b.startsWith(ImageHashes.V2);
    }

    private static String versionsOf(Side s) {
        return s.name() + " " + s.pixelHashes().stream().map(h -> h.startsWith(ImageHashes.V2) ? "2" : "1").distinct()
                .map(v -> "v" + v).reduce((x, y) -> x + ", " + y).orElse("");
    }

    private static Relation closer(Relation a, Relation b) {
        return a.ordinal() <= b.ordinal() ? a : b;
    }

    /** Frame hashes equal, an excerpt in either direction, or the first frame that differs. */
    private static Relation frames(Side a, Side b, List<Check> checks) {
        if (a.frameHash().equals(b.frameHash())) {
            String count = b.frames().map(f -> f.count() + " ").orElse("");
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_IDENTICAL, Status.PASS, b.name(), "the same " + count
                    + "decoded video frames as " + a.name() + " (other bytes: another container, other metadata or audio)"));
            return Relation.SAME_CONTENT;
        }
        if (a.frames().isEmpty() || b.frames().isEmpty()) {
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_DIFFERENT, Status.FAIL, b.name(), "other decoded video frames than "
                    + a.name() + " (no frame list to look for an excerpt in)"));
            return Relation.DIFFERENT;
        }
        Frames fa = a.frames().get();
        Frames fb = b.frames().get();
        int[] run = longestRun(fa, fb);
        int shorter = Math.min(fa.count(), fb.count());
        if (run[2] > 0 && run[2] >= EXCERPT_SHARE * shorter) {
            boolean bInA = fb.count() <= fa.count();
            Side whole = bInA ? a : b;
            Side part = bInA ? b : a;
            Frames fw = bInA ? fa : fb;
            Frames fp = bInA ? fb : fa;
            int atWhole = bInA ? run[0] : run[1];
            int atPart = bInA ? run[1] : run[0];
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_EXCERPT, Status.PASS, part.name(), run[2] + " of its " + fp.count()
                    + " frames (from frame " + atPart + ") are frames " + atWhole + " to " + (atWhole + run[2] - 1) + " of "
                    + whole.name() + " (" + seconds(fw, atWhole) + " to " + seconds(fw, atWhole + run[2] - 1) + ", of "
                    + fw.count() + " frames), in order"));
            return Relation.EXCERPT;
        }
        int first = 0;
        while (first < shorter && fa.digest(first).equals(fb.digest(first))) {
            first++;
        }
        checks.add(new Check(CheckCodes.COMPARE_FRAMES_DIFFERENT, Status.FAIL, b.name(), "other decoded video frames than "
                + a.name() + ": " + (first < shorter ? "the first to differ is frame " + first + " (" + seconds(fa, first) + " in "
                        + a.name() + ")" : "the first " + shorter + " frames are the same; then " + (fa.count() > fb.count()
                                ? b.name() + " ends" : a.name() + " ends"))
                + (run[2] > 1 ? "; the longest common run is " + run[2] + " frames" : "")));
        return perceptualVideo(a, fa, b, fb, checks);
    }

    /**
     * Videos with other frames compared by the perceptual hashes of one frame per second: the alignment
     * (a whole number of seconds either way) where most seconds are close. Close when at least
     * {@value #EXCERPT_SHARE} of the shorter side's seconds overlap the other and at least that share of
     * those are within {@link #CLOSE_BITS}: the same video re-encoded, resized, or a re-encoded excerpt.
     */
    private static Relation perceptualVideo(Side a, Frames fa, Side b, Frames fb, List<Check> checks) {
        long[] sa = fa.seconds();
        long[] sb = fb.seconds();
        if (sa.length == 0 || sb.length == 0) {
            return Relation.DIFFERENT; // a frame list made before per-second hashes were taken
        }
        int shorter = Math.min(sa.length, sb.length);
        int bestShift = 0;
        int bestClose = -1;
        int bestOverlap = 0;
        for (int shift = -(sb.length - 1); shift < sa.length; shift++) {
            int close = 0;
            int overlap = 0;
            for (int j = Math.max(0, -shift); j < sb.length && j + shift < sa.length; j++) {
                overlap++;
                if (ImageHashes.distance(sa[j + shift], sb[j]) <= CLOSE_BITS) {
                    close++;
                }
            }
            if (close > bestClose || close == bestClose && overlap > bestOverlap) {
                bestClose = close;
                bestShift = shift;
                bestOverlap = overlap;
            }
        }
        boolean similar = bestOverlap >= EXCERPT_SHARE * shorter && bestClose >= EXCERPT_SHARE * bestOverlap;
        int fromB = Math.max(0, -bestShift);
        int fromA = fromB + bestShift;
        String where = "seconds " + fromA + " to " + (fromA + bestOverlap - 1) + " of " + a.name() + " against seconds " + fromB
                + " to " + (fromB + bestOverlap - 1) + " of " + b.name();
        checks.add(new Check(similar ? CheckCodes.COMPARE_PERCEPTUAL_CLOSE : CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT, Status.FAIL,
                b.name(), "one frame per second compared by perceptual hash: " + bestClose + " of " + bestOverlap + " within "
                        + CLOSE_BITS + " of 64 bits (" + where + ")" + (similar
                                ? ": probably the same video re-encoded, resized or cut, with other frames"
                                : ": another video")));
        return similar ? Relation.SIMILAR : Relation.DIFFERENT;
    }

    /** A frame's time in its stream, as text, e.g. {@code 12.480 s}; its pts when the time base is unknown. */
    private static String seconds(Frames f, int frame) {
        String[] tb = f.timeBase().split("/");
        if (tb.length == 2 && tb[0].matches("[0-9]{1,9}") && tb[1].matches("[1-9][0-9]{0,9}")) {
            double s = f.pts()[frame] * Double.parseDouble(tb[0]) / Double.parseDouble(tb[1]);
            return String.format(Locale.ROOT, "%.3f s", s);
        }
        return "pts " + f.pts()[frame];
    }

    /**
     * The longest run of consecutive frames that two lists share, in order.
     *
     * @return {start in a, start in b, length}
     */
    static int[] longestRun(Frames a, Frames b) {
        Map<ByteBuffer, List<Integer>> at = new HashMap<>();
        for (int i = 0; i < a.count(); i++) {
            at.computeIfAbsent(key(a, i), k -> new ArrayList<>()).add(i);
        }
        int[] best = {0, 0, 0};
        for (int j = 0; j < b.count(); j++) {
            for (int i : at.getOrDefault(key(b, j), List.of())) {
                if (i > 0 && j > 0 && key(a, i - 1).equals(key(b, j - 1))) {
                    continue; // inside a run already counted from its start
                }
                int n = 0;
                while (i + n < a.count() && j + n < b.count() && key(a, i + n).equals(key(b, j + n))) {
                    n++;
                }
                if (n > best[2]) {
                    best = new int[] {i, j, n};
                }
            }
        }
        return best;
    }

    private static ByteBuffer key(Frames f, int frame) {
        return ByteBuffer.wrap(f.digests(), 32 * frame, 32).slice();
    }
}
