// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class JpegSegmentsTest {
    /** A segment as written: its marker, fill bytes before it and its payload (none for TEM and RSTn). */
    record Written(int marker, int fill, byte[] payload) {}

    /** An in-memory JPEG that fails the test on any read outside it. */
    record Bytes(byte[] b) implements JpegSegments.Source {
        @Override
        public long size() {
            return b.length;
        }

        @Override
        public void read(long pos, byte[] dst, int off, int len) throws IOException {
            assertThat(pos).as("read at %d of %d bytes", pos, len).isBetween(0L, b.length - (long) len);
            if (pos + len > b.length) {
                throw new EOFException("read past the end at " + pos);
            }
            System.arraycopy(b, (int) pos, dst, off, len);
        }
    }

    static byte[] write(List<Written> segments, int last) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xFF);
        out.write(0xD8);
        for (Written w : segments) {
            for (int i = 0; i < w.fill(); i++) {
                out.write(0xFF);
            }
            out.write(0xFF);
            out.write(w.marker());
            if (!standalone(w.marker())) {
                int length = w.payload().length + 2;
                out.write(length >> 8);
                out.write(length);
                out.writeBytes(w.payload());
            }
        }
        out.write(0xFF);
        out.write(last);
        return out.toByteArray();
    }

    static boolean standalone(int marker) {
        return marker == JpegSegments.TEM || marker >= 0xD0 && marker <= 0xD7;
    }

    static JpegSegments.Walk walk(byte[] jpeg, List<JpegSegments.Segment> into) throws IOException {
        return JpegSegments.walk(new Bytes(jpeg), 10_000, m -> true, s -> into.add(s));
    }

    @Provide
    Arbitrary<List<Written>> segments() {
        Arbitrary<Integer> marker = Arbitraries.integers().between(0x01, 0xFE)
                .filter(m -> m != 0xD8 && m != JpegSegments.SOS && m != JpegSegments.EOI && (m < 0x02 || m > 0xBF || m == 0x01));
        Arbitrary<Integer> fill = Arbitraries.integers().between(0, 3);
        Arbitrary<byte[]> payload = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Combinators.combine(marker, fill, payload)
                .as((m, f, p) -> new Written(m, f, standalone(m) ? new byte[0] : p))
                .list().ofMaxSize(30);
    }

    @Property(tries = 300)
    void walk_givesEverySegment_writtenThenWalked(@ForAll("segments") List<Written> segments) throws IOException {
        byte[] jpeg = write(segments, JpegSegments.SOS);
        List<JpegSegments.Segment> read = new ArrayList<>();
        JpegSegments.Walk w = walk(jpeg, read);

        assertThat(w.end()).isEqualTo(JpegSegments.End.IMAGE_DATA);
        assertThat(w.at()).isEqualTo(jpeg.length - 2);
        assertThat(w.markers()).isEqualTo(segments.size() + 1);
        assertThat(read).hasSameSizeAs(segments);
        for (int i = 0; i < segments.size(); i++) {
            Written s = segments.get(i);
            JpegSegments.Segment r = read.get(i);
            assertThat(r.marker()).isEqualTo(s.marker());
            assertThat(r.offset() - r.fillFrom()).isEqualTo(s.fill());
            int length = standalone(s.marker()) ? 0 : s.payload().length + 2;
            assertThat(r.length()).isEqualTo(length);
            byte[] payload = length == 0 ? new byte[0] : Arrays.copyOfRange(jpeg, (int) r.payload(), (int) r.end());
            assertThat(payload).isEqualTo(s.payload());
        }
    }

    @Property(tries = 300)
    void walk_endsDamagedWithoutReadingPastTheEnd_truncatedAnywhere(@ForAll("segments") List<Written> segments,
            @ForAll @IntRange(min = 0, max = 100_000) int cut) throws IOException {
        byte[] whole = write(segments, JpegSegments.EOI);
        byte[] jpeg = Arrays.copyOf(whole, cut % whole.length);
        List<JpegSegments.Segment> read = new ArrayList<>();

        JpegSegments.Walk w = walk(jpeg, read);

        assertThat(w.end().whole()).isFalse();
        assertThat(w.at()).isBetween(0L, (long) jpeg.length);
        assertThat(read).allSatisfy(s -> assertThat(s.end()).isLessThanOrEqualTo(jpeg.length));
    }

    @Property(tries = 500)
    void walk_endsWithoutReadingPastTheEnd_anyByteChanged(@ForAll("segments") List<Written> segments,
            @ForAll @IntRange(min = 0, max = 100_000) int where, @ForAll byte value) throws IOException {
        byte[] jpeg = write(segments, JpegSegments.SOS);
        jpeg[where % jpeg.length] = value; // a length that lies, a marker that is not one, a lost SOI…
        List<JpegSegments.Segment> read = new ArrayList<>();

        JpegSegments.Walk w = walk(jpeg, read);

        assertThat(w.at()).isBetween(0L, (long) jpeg.length);
        assertThat(read).allSatisfy(s -> assertThat(s.end()).isLessThanOrEqualTo(jpeg.length));
    }

    @Test
    void walk_endsTooManySegments_pastTheLimit() throws IOException {
        List<Written> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(new Written(0xE0, 0, new byte[0]));
        }
        JpegSegments.Walk w = JpegSegments.walk(new Bytes(write(many, JpegSegments.SOS)), 4, m -> true, s -> true);

        assertThat(w.end()).isEqualTo(JpegSegments.End.TOO_MANY_SEGMENTS);
        assertThat(w.markers()).isEqualTo(4);
    }

    @Test
    void walk_handsOnlyWantedMarkers_andStopsWhenAsked() throws IOException {
        byte[] jpeg = write(List.of(new Written(0xE0, 0, new byte[3]), new Written(0xEB, 1, new byte[5]),
                new Written(0xD3, 0, new byte[0]), new Written(0xEB, 0, new byte[1])), JpegSegments.SOS);
        List<JpegSegments.Segment> read = new ArrayList<>();

        JpegSegments.Walk w = JpegSegments.walk(new Bytes(jpeg), 100, m -> m == JpegSegments.APP11, s -> read.add(s) && false);

        assertThat(w.end()).isEqualTo(JpegSegments.End.STOPPED);
        assertThat(read).containsExactly(new JpegSegments.Segment(0xEB, 10, 7, 9));
    }

    @Test
    void walk_namesTheDamage_badLengthAndStuffedMarker() throws IOException {
        byte[] badLength = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE1, 0, 1, 0, 0};
        byte[] stuffed = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 0, 0, 0};
        byte[] notJpeg = {(byte) 0x89, 'P', 'N', 'G'};

        assertThat(walk(badLength, new ArrayList<>())).isEqualTo(new JpegSegments.Walk(JpegSegments.End.BAD_LENGTH, 2, 2, 1, 1));
        assertThat(walk(stuffed, new ArrayList<>()).end()).isEqualTo(JpegSegments.End.NOT_A_MARKER);
        assertThat(walk(notJpeg, new ArrayList<>()).end()).isEqualTo(JpegSegments.End.NO_START_OF_IMAGE);
    }

    @Test
    void walkFrom_goesScanAfterScan_imageDataWithStuffedBytesAndRestartMarkers() throws IOException {
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8,
            (byte) 0xFF, (byte) 0xDA, 0, 2, // SOS at 2, image data at 6
            1, (byte) 0xFF, 0, 2, (byte) 0xFF, (byte) 0xD3, 3, // a stuffed 0xFF 0x00 and RST3 inside the data
            (byte) 0xFF, (byte) 0xC4, 0, 3, 7, // DHT between the scans, at 13
            (byte) 0xFF, (byte) 0xDA, 0, 2, 9, // the second scan at 18, its data at 22
            (byte) 0xFF, (byte) 0xFF, (byte) 0xD9}; // fill, then EOI at 24
        JpegSegments.Source src = new Bytes(jpeg);
        List<JpegSegments.Segment> read = new ArrayList<>();

        JpegSegments.Walk first = JpegSegments.walk(src, 100, m -> true, read::add);
        assertThat(first.end()).isEqualTo(JpegSegments.End.IMAGE_DATA);
        assertThat(first.at()).isEqualTo(2);
        long data = JpegSegments.imageDataEnd(src, 6);
        assertThat(data).isEqualTo(13);
        JpegSegments.Walk second = JpegSegments.walkFrom(src, data, 100, m -> true, read::add);
        assertThat(second.end()).isEqualTo(JpegSegments.End.IMAGE_DATA);
        assertThat(second.at()).isEqualTo(18);
        assertThat(read).containsExactly(new JpegSegments.Segment(0xC4, 13, 3, 13));
        JpegSegments.Walk last = JpegSegments.walkFrom(src, JpegSegments.imageDataEnd(src, 22), 100, m -> true, read::add);
        assertThat(last).isEqualTo(new JpegSegments.Walk(JpegSegments.End.END_OF_IMAGE, 24, 23, 0, 1));
        assertThat(JpegSegments.imageDataEnd(src, jpeg.length - 1)).as("a last 0xFF ends the data at the end").isEqualTo(jpeg.length);
    }
}
