// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.proofmode.imaging.AudioEnvelope;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.imaging.StreamHashes.NotHashed;
import org.proofmode.verify.MediaComparison.Relation;
import org.proofmode.verify.MediaComparison.Side;

/**
 * How two videos relate, for {@link MediaComparison}: the same frames; an excerpt (one contiguous run of the
 * other's frames, and the other's sound at those times where both have sound); frames of the other spliced
 * with foreign ones or reordered; perceptually close (one frame a second); or different.
 */
final class VideoComparison {
    /** An excerpt's one run covers at least this share of its frames. */
    static final double EXCERPT_SHARE = 0.9;
    /**
     * Frames at each end of an excerpt that may differ from the original's: a cut without re-encoding
     * leaves frames that referred to frames beyond the cut (B-frames), which then decode otherwise.
     */
    static final int EDGE_FRAMES = 4;
    /** Sound is the same at the matching times when at least this share of its blocks are alike. */
    static final double AUDIO_ALIKE = 0.8;
    /** How far (in seconds) the sound's alignment is searched around the frames' alignment. */
    private static final double AUDIO_SLACK_SECONDS = 1.0;
    /** Runs and foreign spans listed in a message, at most. */
    private static final int LISTED = 6;

    private VideoComparison() {}

    /** A run of frames both lists share: {@code length} frames from {@code part} in the shorter list and {@code whole} in the other. */
    record Segment(int part, int whole, int length) {}

    /** Frame hashes equal, an excerpt in either direction, a splice or reordering, or the first frame that differs. */
    static Relation frames(Side a, Side b, List<Check> checks) {
        if (a.frameHash().equals(b.frameHash())) {
            String count = b.frames().map(f -> f.count() + " ").orElse("");
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_IDENTICAL, Status.PASS, b.name(), "the same " + count
                    + "decoded video frames as " + MediaComparison.what(a) + " (other bytes: another container, other metadata or audio)"));
            return Relation.SAME_CONTENT;
        }
        if (a.frames().isEmpty() || b.frames().isEmpty()) {
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_DIFFERENT, Status.FAIL, b.name(), "other decoded video frames than "
                    + MediaComparison.what(a) + " (no frame list to look for an excerpt in)"));
            return Relation.DIFFERENT;
        }
        Frames fa = a.frames().get();
        Frames fb = b.frames().get();
        boolean bInA = fb.count() <= fa.count();
        Side whole = bInA ? a : b;
        Side part = bInA ? b : a;
        Frames fw = bInA ? fa : fb;
        Frames fp = bInA ? fb : fa;
        List<Segment> segments = segments(fw, fp);
        Segment longest = segments.stream().max((x, y) -> Integer.compare(x.length(), y.length())).orElse(new Segment(0, 0, 0));
        int matched = segments.stream().mapToInt(Segment::length).sum();
        int before = longest.part();
        int after = fp.count() - longest.part() - longest.length();
        if (longest.length() > 0 && longest.length() >= EXCERPT_SHARE * fp.count() && before <= EDGE_FRAMES && after <= EDGE_FRAMES) {
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_EXCERPT, Status.PASS, part.name(), longest.length() + " of its " + fp.count()
                    + " frames (from frame " + longest.part() + ") are frames " + longest.whole() + " to " + (longest.whole() + longest.length() - 1)
                    + " of " + MediaComparison.what(whole) + " (" + seconds(fw, longest.whole()) + " to "
                    + seconds(fw, longest.whole() + longest.length() - 1) + ", of " + fw.count() + " frames), in order"
                    + (before + after > 0 ? "; the " + (before + after) + " at its ends decode otherwise, as frames cut from those they"
                            + " referred to do (at most " + EDGE_FRAMES + " at each end)" : "")));
            return audio(whole, part, fw, fp, longest, checks);
        }
        if (longest.length() >= 2 && matched >= 0.1 * fp.count()) {
            checks.add(new Check(CheckCodes.COMPARE_FRAMES_SPLICED, Status.FAIL, part.name(), spliced(whole, fw, fp, segments)));
            return Relation.DIFFERENT;
        }
        int shorter = Math.min(fa.count(), fb.count());
        int first = 0;
        while (first < shorter && fa.digest(first).equals(fb.digest(first))) {
            first++;
        }
        checks.add(new Check(CheckCodes.COMPARE_FRAMES_DIFFERENT, Status.FAIL, b.name(), "other decoded video frames than "
                + MediaComparison.what(a) + ": " + (first < shorter ? "the first to differ is frame " + first + " (" + seconds(fa, first)
                        + " in " + a.name() + ")" : "the first " + shorter + " frames are the same; then " + (fa.count() > fb.count()
                                ? b.name() + " ends" : a.name() + " ends"))
                + (longest.length() > 1 ? "; the longest common run is " + longest.length() + " frames" : "")));
        return perceptual(a, fa, b, fb, checks);
    }

    /** What a splice or reordering is made of: the foreign spans and the runs of the whole, in the part's order. */
    private static String spliced(Side whole, Frames fw, Frames fp, List<Segment> segments) {
        List<String> foreign = new ArrayList<>();
        int foreignFrames = 0;
        int at = 0;
        for (Segment s : segments) {
            if (s.part() > at) {
                foreign.add(frames(at, s.part() - 1));
                foreignFrames += s.part() - at;
            }
            at = s.part() + s.length();
        }
        if (at < fp.count()) {
            foreign.add(frames(at, fp.count() - 1));
            foreignFrames += fp.count() - at;
        }
        boolean inOrder = true;
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (i > 0 && s.whole() < segments.get(i - 1).whole()) {
                inOrder = false;
            }
            runs.add(span(s.part(), s.part() + s.length() - 1) + " are its frames " + span(s.whole(), s.whole() + s.length() - 1)
                    + " (from " + seconds(fw, s.whole()) + ")");
        }
        String w = MediaComparison.what(whole);
        return "not one run of " + w + "'s frames: " + (foreignFrames > 0 ? foreignFrames + " of its " + fp.count()
                + " frames are not " + w + "'s (" + listed(foreign) + "), and " : "its " + fp.count() + " frames are all "
                + w + "'s but ") + "the rest are " + segments.size() + " runs of " + w + "'s frames" + (inOrder ? "" : ", out of order")
                + ": frames " + listed(runs);
    }

    private static String frames(int from, int to) {
        return (from == to ? "frame " : "frames ") + span(from, to);
    }

    private static String span(int from, int to) {
        return from == to ? Integer.toString(from) : from + " to " + to;
    }

    private static String listed(List<String> items) {
        return String.join("; ", items.subList(0, Math.min(LISTED, items.size())))
                + (items.size() > LISTED ? "; and " + (items.size() - LISTED) + " more" : "");
    }

    /**
     * The part's frames as runs of the whole's, in the part's order, greedily: at each frame found in the
     * whole, the longest run from there (continuing the previous run where it can, else among the first 64
     * places the frame occurs). Frames in no run are foreign.
     */
    static List<Segment> segments(Frames whole, Frames part) {
        Map<ByteBuffer, List<Integer>> at = new HashMap<>();
        for (int i = 0; i < whole.count(); i++) {
            at.computeIfAbsent(MediaComparison.key(whole, i), k -> new ArrayList<>()).add(i);
        }
        List<Segment> segments = new ArrayList<>();
        int j = 0;
        int next = -1;
        while (j < part.count()) {
            List<Integer> places = at.getOrDefault(MediaComparison.key(part, j), List.of());
            int bestAt = -1;
            int best = 0;
            List<Integer> tried = new ArrayList<>(places.subList(0, Math.min(64, places.size())));
            if (next >= 0 && places.contains(next)) {
                tried.add(0, next);
            }
            for (int i : tried) {
                int n = 0;
                while (i + n < whole.count() && j + n < part.count()
                        && MediaComparison.key(whole, i + n).equals(MediaComparison.key(part, j + n))) {
                    n++;
                }
                if (n > best) {
                    best = n;
                    bestAt = i;
                }
            }
            if (best == 0) {
                j++;
                next = -1;
                continue;
            }
            segments.add(new Segment(j, bestAt, best));
            j += best;
            next = bestAt + best;
        }
        return segments;
    }

    /**
     * An excerpt's sound against the whole's at the matching times: alike block by block
     * ({@link AudioEnvelope}) when both are files; uncomparable against a proof, which holds a hash of its
     * whole track only; different when only the excerpt has sound.
     */
    private static Relation audio(Side whole, Side part, Frames fw, Frames fp, Segment run, List<Check> checks) {
        if (part.sampleHash().isEmpty()) {
            return Relation.EXCERPT; // no sound in the excerpt
        }
        String w = MediaComparison.what(whole);
        if (whole.sampleHash().isEmpty()) {
            checks.add(new Check(CheckCodes.COMPARE_AUDIO_DIFFERENT, Status.FAIL, part.name(), "it has sound, and " + w
                    + " has none: the sound was added"));
            return Relation.DIFFERENT;
        }
        if (whole.file().isEmpty() || part.file().isEmpty()) {
            // Its frames are the original's, but nothing shows whose its sound is: not an excerpt as far as we know.
            checks.add(new Check(CheckCodes.COMPARE_AUDIO_UNCHECKED, Status.WARN, part.name(), "its frames are a run of " + w
                    + "'s, but its sound cannot be compared with " + w + "'s at those times: a proof records a hash of its whole"
                    + " audio track only (compare with the original file, or compare the excerpt without its sound)"));
            return Relation.UNCOMPARABLE;
        }
        OptionalDouble tp = time(fp, run.part());
        OptionalDouble tw = time(fw, run.whole());
        OptionalDouble end = time(fp, fp.count() - 1);
        if (tp.isEmpty() || tw.isEmpty() || end.isEmpty()) {
            checks.add(new Check(CheckCodes.COMPARE_AUDIO_UNCHECKED, Status.WARN, part.name(), "its frames are a run of " + w
                    + "'s, but its sound cannot be compared with " + w + "'s: the frames' time base is unknown"));
            return Relation.UNCOMPARABLE;
        }
        double offset = tw.getAsDouble() - tp.getAsDouble();
        AudioEnvelope.Match m;
        int blocks;
        try {
            AudioEnvelope ep = AudioEnvelope.of(part.file().get(), end.getAsDouble() + 1);
            AudioEnvelope ew = AudioEnvelope.of(whole.file().get(), Math.max(0, offset) + end.getAsDouble() + 1 + AUDIO_SLACK_SECONDS);
            int per = 1000 / AudioEnvelope.BLOCK_MILLIS;
            m = ew.match(ep, (int) Math.round(offset * per), (int) (AUDIO_SLACK_SECONDS * per));
            blocks = ep.blocks();
        } catch (NotHashed e) {
            checks.add(new Check(CheckCodes.COMPARE_AUDIO_UNCHECKED, Status.WARN, part.name(), "its frames are a run of " + w
                    + "'s, but its sound could not be compared with " + w + "'s: " + e.getMessage()));
            return Relation.UNCOMPARABLE;
        }
        String share = String.format(Locale.ROOT, "%.0f%%", 100 * m.alike());
        String from = String.format(Locale.ROOT, "%.3f s", m.lag() * AudioEnvelope.BLOCK_MILLIS / 1000.0);
        if (blocks > 0 && m.overlap() >= EXCERPT_SHARE * blocks && m.alike() >= AUDIO_ALIKE) {
            checks.add(new Check(CheckCodes.COMPARE_AUDIO_SAME, Status.PASS, part.name(), "its sound is " + w + "'s from " + from
                    + ": " + share + " of its " + AudioEnvelope.BLOCK_MILLIS + "-ms blocks alike in loudness and pitch"));
            return Relation.EXCERPT;
        }
        checks.add(new Check(CheckCodes.COMPARE_AUDIO_DIFFERENT, Status.FAIL, part.name(), "its sound is not " + w
                + "'s at the matching times: at best " + share + " of its " + AudioEnvelope.BLOCK_MILLIS
                + "-ms blocks alike in loudness and pitch (at least " + Math.round(100 * AUDIO_ALIKE) + "% for the same sound)"));
        return Relation.DIFFERENT;
    }

    /**
     * Videos with other frames compared by the perceptual hashes of one frame per second: the alignment
     * (a whole number of seconds either way) where most seconds are close. Close when at least
     * {@value #EXCERPT_SHARE} of the shorter side's seconds overlap the other and at least that share of
     * those are within {@link MediaComparison#CLOSE_BITS}: the same video re-encoded, resized, or a re-encoded excerpt.
     */
    private static Relation perceptual(Side a, Frames fa, Side b, Frames fb, List<Check> checks) {
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
                if (ImageHashes.distance(sa[j + shift], sb[j]) <= MediaComparison.CLOSE_BITS) {
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
        checks.add(new Check(similar ? CheckCodes.COMPARE_PERCEPTUAL_CLOSE : CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT,
                similar ? Status.WARN : Status.FAIL, b.name(), "one frame per second compared by perceptual hash: " + bestClose + " of "
                        + bestOverlap + " within " + MediaComparison.CLOSE_BITS + " of 64 bits (" + where + ")" + (similar
                                ? ": probably the same video re-encoded, resized or cut, with other frames"
                                        + (bestClose < bestOverlap ? " (" + (bestOverlap - bestClose) + " seconds not close)" : "")
                                : ": another video")));
        return similar ? Relation.SIMILAR : Relation.DIFFERENT;
    }

    /** A frame's time in seconds, when the time base is known. */
    private static OptionalDouble time(Frames f, int frame) {
        String[] tb = f.timeBase().split("/");
        if (frame >= 0 && frame < f.count() && tb.length == 2 && tb[0].matches("[0-9]{1,9}") && tb[1].matches("[1-9][0-9]{0,9}")) {
            return OptionalDouble.of(f.pts()[frame] * Double.parseDouble(tb[0]) / Double.parseDouble(tb[1]));
        }
        return OptionalDouble.empty();
    }

    /** A frame's time in its stream, as text, e.g. {@code 12.480 s}; its pts when the time base is unknown. */
    static String seconds(Frames f, int frame) {
        OptionalDouble t = time(f, frame);
        return t.isPresent() ? String.format(Locale.ROOT, "%.3f s", t.getAsDouble()) : "pts " + f.pts()[frame];
    }
}
