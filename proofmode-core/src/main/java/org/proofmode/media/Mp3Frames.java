// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The duration of an MP3 file from its first frame, without reading the rest: the frame count of a
 * Xing, Info or VBRI header when the encoder wrote one (what LAME and ffmpeg do), else the size of the
 * audio over the first frame's bit rate (exact for constant bit rate). metadata-extractor reads the
 * frame header but gives no duration.
 */
public final class Mp3Frames {
    /** How far past the ID3 tag the first frame is looked for. */
    private static final int SEARCH = 64 * 1024;
    private static final int[] V1_L1 = {0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448};
    private static final int[] V1_L2 = {0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384};
    private static final int[] V1_L3 = {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320};
    private static final int[] V2_L1 = {0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256};
    private static final int[] V2_L23 = {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160};
    private static final int[] RATES_V1 = {44100, 48000, 32000};

    private Mp3Frames() {}

    /** One MPEG audio frame header. */
    private record Header(boolean mpeg1, int layer, int kbps, int sampleRate, boolean mono) {
        int samplesPerFrame() {
            return layer == 1 ? 384 : layer == 2 || mpeg1 ? 1152 : 576;
        }

        /** Bytes of side information between the header and a Xing or Info tag (layer III). */
        int sideInfo() {
            return mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17);
        }

        static Optional<Header> parse(int h) {
            int version = (h >>> 19) & 3; // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
            int layerBits = (h >>> 17) & 3;
            int rateIndex = (h >>> 10) & 3;
            int bitrateIndex = (h >>> 12) & 15;
            if ((h >>> 21) != 0x7FF || version == 1 || layerBits == 0 || rateIndex == 3 || bitrateIndex == 0 || bitrateIndex == 15) {
                return Optional.empty();
            }
            int layer = 4 - layerBits;
            boolean mpeg1 = version == 3;
            int[] table = mpeg1 ? (layer == 1 ? V1_L1 : layer == 2 ? V1_L2 : V1_L3) : (layer == 1 ? V2_L1 : V2_L23);
            int rate = RATES_V1[rateIndex] / (mpeg1 ? 1 : version == 2 ? 2 : 4);
            return Optional.of(new Header(mpeg1, layer, table[bitrateIndex], rate, ((h >>> 6) & 3) == 3));
        }
    }

    /**
     * The duration in seconds.
     *
     * @param file the MP3 file
     * @param audioStart where the audio starts (after an ID3v2 tag)
     * @param size the file's size
     * @return the duration, or empty if no frame header is found near the start
     */
    public static Optional<Double> duration(Path file, long audioStart, long size) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(SEARCH, Math.max(0, size - audioStart)));
            while (b.hasRemaining()) {
                if (ch.read(b, audioStart + b.position()) <= 0) {
                    break;
                }
            }
            for (int i = 0; i + 4 <= b.position(); i++) {
                Optional<Header> h = Header.parse(b.getInt(i));
                if (h.isPresent()) {
                    long frames = frameCount(b, i, h.get());
                    if (frames > 0) {
                        return Optional.of((double) frames * h.get().samplesPerFrame() / h.get().sampleRate());
                    }
                    long audio = size - audioStart - i - (hasId3v1(ch, size) ? 128 : 0);
                    return Optional.of(audio * 8.0 / (h.get().kbps() * 1000.0));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The frame count of a Xing/Info or VBRI header in the frame at {@code at}, or 0. */
    private static long frameCount(ByteBuffer b, int at, Header h) {
        int xing = at + 4 + h.sideInfo();
        if (h.layer() == 3 && xing + 12 <= b.position()) {
            String tag = tag(b, xing);
            if ((tag.equals("Xing") || tag.equals("Info")) && (b.getInt(xing + 4) & 1) != 0) {
                return Integer.toUnsignedLong(b.getInt(xing + 8));
            }
        }
        int vbri = at + 4 + 32;
        if (vbri + 18 <= b.position() && tag(b, vbri).equals("VBRI")) {
            return Integer.toUnsignedLong(b.getInt(vbri + 14));
        }
        return 0;
    }

    private static String tag(ByteBuffer b, int at) {
        byte[] t = new byte[4];
        b.get(at, t);
        return new String(t, StandardCharsets.US_ASCII);
    }

    private static boolean hasId3v1(FileChannel ch, long size) throws IOException {
        if (size < 128) {
            return false;
        }
        ByteBuffer t = ByteBuffer.allocate(3);
        ch.read(t, size - 128);
        return new String(t.array(), StandardCharsets.US_ASCII).equals("TAG");
    }
}
