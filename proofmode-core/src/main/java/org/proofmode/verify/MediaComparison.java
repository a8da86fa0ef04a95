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
import java.util.OptionalLong;
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

    private MediaComparison() {}

    /**
     * How two media relate, from closest to farthest, each with the one status its words go with and the
     * words that say it.
     */
    public enum Relation {
        /** The same bytes. */
        SAME_BYTES(Status.PASS, "same bytes"),
        /** Other bytes, the same decoded content: frames and samples, or pixels. */
        SAME_CONTENT(Status.PASS, "same content: other bytes, the same decoded frames, samples or pixels"),
        /** One's frames are one contiguous run of the other's, with the other's audio where both have audio. */
        EXCERPT(Status.PASS, "excerpt: one is a contiguous run of the other's frames, with its audio where both have audio"),
        /** Other pixels or frames that look alike: perceptually close, not the same. */
        SIMILAR(Status.WARN, "perceptually close, not the same: other pixels or frames that look alike (re-encoded, resized,"
                + " cut or edited); nothing shows what was changed"),
        /** None of the above: other content, or the same frames with other audio, or frames spliced or reordered. */
        DIFFERENT(Status.FAIL, "different"),
        /** Other bytes, and no content hash both sides have (or an excerpt's frames whose sound could not be compared). */
        UNCOMPARABLE(Status.WARN, "uncomparable: other bytes, and what both have does not show how they relate"),
        /** A side's proof does not verify: what it records says nothing. */
        PROOF_INVALID(Status.FAIL, "proof invalid: a proof does not verify, so what it records says nothing about the media");

        private final Status status;
        private final String words;

        Relation(Status status, String words) {
            this.status = status;
            this.words = words;
        }

        /** The status of this outcome: PASS for the same or an excerpt, WARN for close or uncomparable, FAIL otherwise. */
        public Status status() {
            return status;
        }

        /** The outcome in words, as {@code proofmode compare} prints it. */
        public String words() {
            return words;
        }
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
     * @param file the media file, when this side is one (its audio is then compared span by span)
     */
    public record Side(String name, Optional<MediaKind> kind, Optional<String> sha256, List<String> pixelHashes,
            Optional<Long> perceptualHash, Optional<String> frameHash, Optional<Frames> frames, Optional<String> sampleHash,
            Optional<Verdict> proof, Optional<Path> file) {
        /** A side without a media file to read. */
        public Side(String name, Optional<MediaKind> kind, Optional<String> sha256, List<String> pixelHashes,
                Optional<Long> perceptualHash, Optional<String> frameHash, Optional<Frames> frames, Optional<String> sampleHash,
                Optional<Verdict> proof) {
            this(name, kind, sha256, pixelHashes, perceptualHash, frameHash, frames, sampleHash, proof, Optional.empty());
        }

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
            Objects.requireNonNull(file, "file");
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
        OptionalLong size = OptionalLong.of(Files.size(file));
        Side side = ofRecord(name, fields, Optional.of(sha), Optional.ofNullable(b.attachments().get(ProofFiles.FRAMES))
                .flatMap(list -> FrameList.read(list, size).frames()), Optional.empty());
        side = new Side(name, side.kind(), side.sha256(), side.pixelHashes(), side.perceptualHash(), side.frameHash(), side.frames(),
                side.sampleHash(), side.proof(), Optional.of(file));
        String pixelHash = fields.get(ContextFields.IMAGE_PIXEL_HASH);
        if (pixelHash != null && pixelHash.startsWith(ImageHashes.V2)) {
            // Proofs made before version 2 hold version 1 for the same JPEG.
            try {
                Optional<String> v1 = ImageHashes.pixelHashAs(file, "");
                if (v1.isPresent()) {
                    side = new Side(name, side.kind(), side.sha256(), List.of(pixelHash, v1.get()), side.perceptualHash(),
                            side.frameHash(), side.frames(), side.sampleHash(), side.proof(), side.file());
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
        try (Bundle bundle = Bundle.open(path, verifier.limits)) {
            return ofBundle(verifier, bundle, name);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, path + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * As {@link #ofBundle(Verifier, Path, String)}, for a bundle already open: a stored proof set of an
     * encrypted store ({@code ProofStore#bundle}), whose objects are opened as they are read.
     *
     * @throws ProofModeException as {@link #ofBundle(Verifier, Path, String)}
     */
    public static Side ofBundle(Verifier verifier, Bundle bundle, String name) {
        VerificationReport report = verifier.verify(bundle, Optional.empty());
        if (report.proofs().size() != 1) {
            throw new ProofModeException(Failure.UNSUPPORTED, name + ": holds " + report.proofs().size()
                    + " proofs; compare needs one (export it alone, or name its media file)");
        }
        ProofReport proof = report.proofs().get(0);
        String wanted = ProofFiles.frames(proof.id());
        Optional<Frames> frames = Optional.empty();
        for (BundleEntry e : bundle.entries()) {
            if (e.fileName().equals(wanted)) {
                try (InputStream in = e.open()) {
                    frames = FrameList.read(in, FrameList.mediaBytes(ProofRecord.of(proof.record()))).frames();
                } catch (IOException ex) {
                    throw new ProofModeException(Failure.IO, bundle.source() + ": cannot read " + wanted + ": " + IoErrors.describe(ex), ex);
                }
            }
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

    /**
     * Compares two sides. The result has one relation, whose {@link Relation#status} no check contradicts:
     * a check that would say worse than the relation (the frames differ, where one frame a second is close)
     * is shown as INFO. A proof that does not verify makes the relation {@link Relation#PROOF_INVALID},
     * and what is compared with what it records is shown as INFO only, saying what was compared.
     */
    public static Result compare(Side a, Side b) {
        List<Check> checks = new ArrayList<>();
        List<Side> invalid = new ArrayList<>();
        for (Side s : List.of(a, b)) {
            if (s.proof().isPresent() && s.proof().get() == Verdict.INVALID) {
                checks.add(new Check(CheckCodes.COMPARE_PROOF_INVALID, Status.FAIL, s.name(), "the proof does not verify: the media it"
                        + " names" + s.sha256().map(h -> " (SHA-256 " + h + ")").orElse("") + " and the hashes it records are not"
                        + " evidence of anything; what follows compares with what it records, for information only"));
                invalid.add(s);
            }
        }
        Relation relation = content(a, b, checks);
        if (!invalid.isEmpty()) {
            relation = Relation.PROOF_INVALID;
        }
        List<Check> shown = new ArrayList<>();
        for (Check c : checks) {
            boolean proofCheck = c.code().equals(CheckCodes.COMPARE_PROOF_INVALID);
            boolean contradicts = !invalid.isEmpty() ? !proofCheck && c.status() != Status.INFO
                    : rank(c.status()) > rank(relation.status());
            shown.add(contradicts ? new Check(c.code(), Status.INFO, c.subject(), c.message()) : c);
        }
        return new Result(relation, shown);
    }

    /** PASS, then WARN, then FAIL; INFO says nothing either way. */
    private static int rank(Status s) {
        return switch (s) {
            case INFO, PASS -> 0;
            case WARN -> 1;
            case FAIL -> 2;
        };
    }

    /** How one side is named in a message: a proof's media, or the file itself. */
    static String what(Side s) {
        return s.proof().isPresent() ? "the media of " + s.name() + "'s proof" : s.name();
    }

    /** The relation from the hashes both sides have, with the checks that show it. */
    private static Relation content(Side a, Side b, List<Check> checks) {
        if (a.sha256().isPresent() && a.sha256().equals(b.sha256())) {
            checks.add(new Check(CheckCodes.COMPARE_BYTES_IDENTICAL, Status.PASS, b.name(), "the same bytes as " + what(a)
                    + " (SHA-256 " + a.sha256().get() + ")" + (b.proof().isPresent() ? ", which " + b.name() + "'s proof names" : "")));
            return Relation.SAME_BYTES;
        }
        Relation relation = Relation.DIFFERENT;
        boolean compared = false;
        if (a.frameHash().isPresent() && b.frameHash().isPresent()) {
            compared = true;
            Relation video = VideoComparison.frames(a, b, checks);
            // An excerpt's frames whose sound cannot be compared: uncomparable, not different.
            relation = video == Relation.UNCOMPARABLE ? video : closer(relation, video);
        }
        boolean spans = checks.stream().anyMatch(c -> c.code().startsWith("compare.audio."));
        if (a.sampleHash().isPresent() && b.sampleHash().isPresent() && relation != Relation.EXCERPT && !spans) {
            // An excerpt's audio is compared with the matching span: a sample hash covers whole tracks only.
            compared = true;
            boolean same = a.sampleHash().equals(b.sampleHash());
            checks.add(new Check(same ? CheckCodes.COMPARE_SAMPLES_IDENTICAL : CheckCodes.COMPARE_SAMPLES_DIFFERENT,
                    same ? Status.PASS : Status.FAIL, b.name(), same ? "the same decoded audio samples as " + what(a)
                            : "other decoded audio samples than " + what(a)));
            if (!same) {
                relation = relation == Relation.SAME_CONTENT ? Relation.DIFFERENT : relation;
            } else if (a.frameHash().isEmpty() && b.frameHash().isEmpty()) {
                relation = closer(relation, Relation.SAME_CONTENT);
            }
        }
        if (!a.pixelHashes().isEmpty() && !b.pixelHashes().isEmpty()) {
            compared = true;
            relation = closer(relation, pixels(a, b, checks));
        }
        if (!compared) {
            checks.add(new Check(CheckCodes.COMPARE_UNCOMPARABLE, Status.WARN, b.name(), "other bytes than " + what(a)
                    + ", and no content hash both have (" + describe(a) + "; " + describe(b) + ")"));
            return Relation.UNCOMPARABLE;
        }
        return relation;
    }

    private static Relation pixels(Side a, Side b, List<Check> checks) {
        boolean sameVersion = a.pixelHashes().stream().anyMatch(x -> b.pixelHashes().stream().anyMatch(y -> sameVersion(x, y)));
        String versions = sameVersion ? "" : " (their pixel hashes are of different versions: "
                + versionsOf(a) + " and " + versionsOf(b) + ")";
        if (!Collections.disjoint(a.pixelHashes(), b.pixelHashes())) {
            checks.add(new Check(CheckCodes.COMPARE_PIXELS_IDENTICAL, Status.PASS, b.name(), "the same decoded pixels as "
                    + what(a) + " (other bytes: other metadata or container)"));
            return Relation.SAME_CONTENT;
        }
        if (a.perceptualHash().isPresent() && b.perceptualHash().isPresent()) {
            int d = ImageHashes.distance(a.perceptualHash().get(), b.perceptualHash().get());
            boolean close = d <= CLOSE_BITS;
            checks.add(new Check(close ? CheckCodes.COMPARE_PERCEPTUAL_CLOSE : CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT,
                    close ? Status.WARN : Status.FAIL, b.name(), (sameVersion ? "other pixels than " + what(a)
                            : "pixels not comparable with " + what(a) + versions) + "; perceptual hashes "
                            + d + " of 64 bits apart (close: at most " + CLOSE_BITS + "): "
                            + (close ? "probably the same picture re-encoded, resized or lightly edited" : "another picture")));
            return close ? Relation.SIMILAR : Relation.DIFFERENT;
        }
        checks.add(new Check(CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT, Status.FAIL, b.name(),
                (sameVersion ? "other pixels than " + what(a) : "pixels not comparable with " + what(a) + versions)));
        return Relation.DIFFERENT;
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

    static Relation closer(Relation a, Relation b) {
        return a.ordinal() <= b.ordinal() ? a : b;
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

    static ByteBuffer key(Frames f, int frame) {
        return ByteBuffer.wrap(f.digests(), 32 * frame, 32).slice();
    }
}
