// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.MediaKind;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The media source reads the metadata, not the media: a video whose 1 GiB of media data comes before
 * its movie header is read by skipping over the media data. Bytes read are counted by the kernel
 * ({@code rchar} in {@code /proc/thread-self/io}, Linux), for the reading thread only.
 */
class MediaMetadataReadsTest {
    private static final long MEDIA_DATA = 1L << 30;

    @TempDir
    Path dir;

    @Test
    void contribute_readsOnlyTheBoxes_notTheMediaDataOfALargeVideo() throws Exception {
        Path video = mp4WithMovieHeaderAfterMediaData(dir.resolve("camera.mp4"));
        MediaFile media = new MediaFile(video, new MediaType(MediaKind.VIDEO, "video/mp4"), Files.size(video), Instant.now());
        ProofRecord.Builder record = ProofRecord.builder();

        long before = bytesReadByThisThread();
        new MediaMetadataSource(false, Optional.empty()).contribute(media, record);
        long read = bytesReadByThisThread() - before;

        assertThat(record.get("Video.Duration")).as("the movie header after the media data was reached").contains("12.5");
        assertThat(read).as("bytes read of a %d-byte file", Files.size(video)).isLessThan(1L << 20);
    }

    /** {@code ftyp}, an {@code mdat} box of 1 GiB (sparse on disk), then {@code moov} with an {@code mvhd} of 12.5 s. */
    private static Path mp4WithMovieHeaderAfterMediaData(Path file) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        box(head, "ftyp", ByteBuffer.allocate(12).put("isom".getBytes(StandardCharsets.US_ASCII)).putInt(512)
                .put("isom".getBytes(StandardCharsets.US_ASCII)).array());
        head.write(ByteBuffer.allocate(8).putInt((int) (8 + MEDIA_DATA)).put("mdat".getBytes(StandardCharsets.US_ASCII)).array());
        ByteBuffer mvhd = ByteBuffer.allocate(100);
        mvhd.putInt(0); // version 0, no flags
        mvhd.putInt(0).putInt(0); // creation and modification time: not set
        mvhd.putInt(1000).putInt(12_500); // time scale, duration
        mvhd.putInt(0x00010000).putShort((short) 0x0100); // rate 1.0, volume 1.0
        mvhd.position(mvhd.position() + 10);
        for (int v : new int[] {0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000}) {
            mvhd.putInt(v); // identity matrix
        }
        mvhd.position(mvhd.position() + 24);
        mvhd.putInt(2); // next track id
        ByteArrayOutputStream mvhdBox = new ByteArrayOutputStream();
        box(mvhdBox, "mvhd", mvhd.array());
        ByteArrayOutputStream moov = new ByteArrayOutputStream();
        box(moov, "moov", mvhdBox.toByteArray());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(head.toByteArray()), 0);
            ch.write(ByteBuffer.wrap(moov.toByteArray()), head.size() + MEDIA_DATA);
        }
        return file;
    }

    private static void box(ByteArrayOutputStream out, String type, byte[] body) throws IOException {
        out.write(ByteBuffer.allocate(8).putInt(8 + body.length).put(type.getBytes(StandardCharsets.US_ASCII)).array());
        out.write(body);
    }

    private static long bytesReadByThisThread() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
            if (line.startsWith("rchar:")) {
                return Long.parseLong(line.substring(6).strip());
            }
        }
        throw new AssertionError("no rchar line in /proc/thread-self/io");
    }
}
