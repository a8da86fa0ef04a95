// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.media.Digests;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofRecord;

class FrameListTest {
    private static final String A = "a".repeat(64);
    private static final String B = "0123456789abcdef".repeat(4);

    private static String hashOf(String... digests) {
        var md = Digests.newSha256();
        for (String d : digests) {
            md.update(HexFormat.of().parseHex(d));
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static byte[] list(String body) {
        return ("# comment\n# another\nindex,pts,sha256\n" + body).getBytes(StandardCharsets.US_ASCII);
    }

    private static ProofRecord record(String hash, String count) {
        return ProofRecord.of(Map.of(ContextFields.VIDEO_FRAME_HASH, hash, ContextFields.VIDEO_FRAME_COUNT, count));
    }

    @Test
    void check_matches_whenTheDigestsHashToTheRecordsFrameHash() {
        Check c = FrameList.check("h.frames", list("0,0," + A + "\n1,512," + B + "\n"), record(hashOf(A, B), "2"));
        assertThat(c.code()).isEqualTo(CheckCodes.FRAMES_MATCH);
        assertThat(c.status()).isEqualTo(Status.PASS);
    }

    @Test
    void check_fails_onOtherOrderCountOrRecord() {
        assertThat(FrameList.check("f", list("0,0," + B + "\n1,512," + A + "\n"), record(hashOf(A, B), "2")).code())
                .isEqualTo(CheckCodes.FRAMES_MISMATCH);
        assertThat(FrameList.check("f", list("0,0," + A + "\n1,512," + B + "\n"), record(hashOf(A, B), "3")).code())
                .isEqualTo(CheckCodes.FRAMES_MISMATCH);
        assertThat(FrameList.check("f", list("0,0," + A + "\n"), ProofRecord.of(Map.of())).code())
                .isEqualTo(CheckCodes.FRAMES_MISMATCH);
    }

    @Test
    void check_isMalformed_withoutHeaderOrWithABadLine() {
        ProofRecord r = record(hashOf(A), "1");
        assertThat(FrameList.check("f", ("0,0," + A + "\n").getBytes(StandardCharsets.US_ASCII), r).code())
                .isEqualTo(CheckCodes.FRAMES_MALFORMED);
        assertThat(FrameList.check("f", list("1,0," + A + "\n"), r).code()).as("index out of order").isEqualTo(CheckCodes.FRAMES_MALFORMED);
        assertThat(FrameList.check("f", list("0,zero," + A + "\n"), r).code()).isEqualTo(CheckCodes.FRAMES_MALFORMED);
        assertThat(FrameList.check("f", list("0,0," + A.substring(1) + "\n"), r).code()).isEqualTo(CheckCodes.FRAMES_MALFORMED);
        assertThat(FrameList.check("f", list("0,0," + A + "\n\n"), r).code()).as("a blank line").isEqualTo(CheckCodes.FRAMES_MALFORMED);
    }

    @Test
    void parse_readsThePerSecondSection_asTheProverWritesIt_andRefusesABadLine() {
        Frames made = twoFramesTwoSeconds();
        byte[] written = made.list("ffmpeg test");
        assertThat(new String(written, StandardCharsets.US_ASCII)).contains("\nsecond,phash\n0,00000000000000ff\n1,8000000000000001\n");
        assertThat(FrameList.parse(written)).contains(made);
        ProofRecord r = record(made.frameHash(), "2");
        assertThat(FrameList.check("f", written, r).code()).isEqualTo(CheckCodes.FRAMES_MATCH);

        String text = new String(written, StandardCharsets.US_ASCII);
        for (String bad : new String[] {"1,00000000000000ff", "0,ff", "0,00000000000000FF", "0,00000000000000ff,x"}) {
            byte[] broken = text.replace("\n0,00000000000000ff\n", "\n" + bad + "\n").getBytes(StandardCharsets.US_ASCII);
            assertThat(FrameList.check("f", broken, r).code()).as(bad).isEqualTo(CheckCodes.FRAMES_MALFORMED);
        }
    }

    /** Two frames and two seconds' perceptual hashes. */
    private static Frames twoFramesTwoSeconds() {
        return new Frames.Builder().add(0, HexFormat.of().parseHex(A)).add(512, HexFormat.of().parseHex(B))
                .second(0xFFL).second(0x8000000000000001L).build("1/12800");
    }

    /** A stream of {@code count} copies of {@code unit}, made as it is read. */
    private static InputStream repeated(String unit, long count) {
        byte[] u = unit.getBytes(StandardCharsets.US_ASCII);
        return new InputStream() {
            private long at;

            @Override
            public int read() {
                return at < count * u.length ? u[(int) (at++ % u.length)] & 0xFF : -1;
            }
        };
    }

    @Test
    void read_stopsAtItsBounds_withoutHoldingWhatItSkips() throws Exception {
        // 70 MiB of comment lines: past the bound, read as a stream, refused as too large.
        FrameList.Read big = FrameList.read(repeated("#" + "x".repeat(1023) + "\n", 70L * 1024));
        assertThat(big.frames()).isEmpty();
        assertThat(big.problem()).startsWith(FrameList.TOO_LARGE);
        // One line of 10 MB with no end: refused at its length, not kept whole.
        FrameList.Read longLine = FrameList.read(repeated("0", 10_000_000L));
        assertThat(longLine.problem()).contains("longer than");
    }

    /** A frame list as the prover writes it, made line by line as it is read: {@code frames} frames, then comment lines up to {@code total} bytes. */
    private static InputStream listOf(int frames, long total) {
        return new InputStream() {
            private final StringBuilder line = new StringBuilder("# a test list; pts in 1/25 s\nindex,pts,sha256\n");
            private int at;
            private int frame;
            private long sent;

            @Override
            public int read(byte[] b, int off, int len) {
                int n = 0;
                while (n < len) {
                    int c = read();
                    if (c < 0) {
                        return n == 0 ? -1 : n;
                    }
                    b[off + n++] = (byte) c;
                    if (at < line.length() && sent < total) {
                        int bulk = (int) Math.min(Math.min(len - n, line.length() - at), total - sent);
                        for (int i = 0; i < bulk; i++) {
                            b[off + n++] = (byte) line.charAt(at++);
                        }
                        sent += bulk;
                    }
                }
                return n;
            }

            @Override
            public int read() {
                if (sent >= total) {
                    return -1;
                }
                if (at == line.length()) {
                    line.setLength(0);
                    at = 0;
                    if (frame < frames) {
                        line.append(frame).append(',').append(40L * frame).append(',').append(frame % 2 == 0 ? A : B).append('\n');
                        frame++;
                    } else {
                        long left = total - sent;
                        line.append('#').append("x".repeat((int) Math.max(0, Math.min(1000, left - 2)))).append('\n');
                    }
                }
                sent++;
                return line.charAt(at++);
            }
        };
    }

    /**
     * The bound follows the media's size: a list over 64 MiB of a video large enough to hold its frames is
     * read to its end, and one byte past the bound is not.
     */
    @Test
    void read_boundedByTheMediasSize_readsAListAtTheBound_refusesOneBytePast() throws Exception {
        int frames = 600_000;
        long media = Frames.MIN_FRAME_BYTES * frames; // a 4.8 MB video can hold 600,000 frames
        long bound = Frames.maxListBytes(media);
        assertThat(bound).isGreaterThan(FrameList.MAX_BYTES);
        assertThat(FrameList.maxBytes(java.util.OptionalLong.of(media))).isEqualTo(bound);

        // The bound is in bytes: a few frames, then comment lines up to it (the test with the most frames is below).
        int few = 1000;
        FrameList.Read at = FrameList.read(listOf(few, bound), java.util.OptionalLong.of(media));
        assertThat(at.problem()).isEmpty();
        assertThat(at.frames()).hasValueSatisfying(f -> assertThat(f.count()).isEqualTo(few));

        FrameList.Read past = FrameList.read(listOf(few, bound + 1), java.util.OptionalLong.of(media));
        assertThat(past.tooLarge()).isTrue();
        assertThat(past.problem()).startsWith(FrameList.TOO_LARGE + bound + " bytes (the most a " + media + "-byte video can have)");
        // Without the media's size, the bound of 64 MiB.
        assertThat(FrameList.read(listOf(few, bound)).tooLarge()).isTrue();
    }

    /**
     * The prover's longest lines at its most frames and seconds for a media size still fit the reader's bound.
     * (A list past the 64 MiB floor, written and read whole: some seconds, the price of the real writer and reader.)
     */
    @Test
    void list_atTheMostFramesAVideoCanHold_withTheLongestLines_isReadBack() throws Exception {
        int frames = 600_000;
        long media = Frames.MIN_FRAME_BYTES * frames;
        assertThat(Frames.maxFrames(media)).isEqualTo(frames);
        Frames.Builder b = new Frames.Builder();
        byte[] digest = HexFormat.of().parseHex(B);
        for (int i = 0; i < frames; i++) {
            b.add(Long.MIN_VALUE + i, digest).second(-1L - i);
        }
        Frames made = b.build("1/90000");
        byte[] list = made.list("ffmpeg " + "9".repeat(500));
        assertThat((long) list.length).isGreaterThan(FrameList.MAX_BYTES).isLessThanOrEqualTo(Frames.maxListBytes(media));
        assertThat(FrameList.read(list, java.util.OptionalLong.of(media)).frames()).contains(made);
    }

    @Test
    void mediaBytes_isTheRecordsFileSize_whenItIsANumber() {
        assertThat(FrameList.mediaBytes(ProofRecord.of(Map.of("File.Size", "123")))).hasValue(123);
        assertThat(FrameList.mediaBytes(ProofRecord.of(Map.of("File.Size", "-1")))).isEmpty();
        assertThat(FrameList.mediaBytes(ProofRecord.of(Map.of()))).isEmpty();
    }
}
