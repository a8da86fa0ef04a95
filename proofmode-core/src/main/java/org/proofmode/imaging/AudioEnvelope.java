// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.imaging.StreamHashes.NotHashed;

/**
 * What the first audio stream of a file sounds like, coarsely, block by block: the loudness and the zero
 * crossings of each {@value #BLOCK_MILLIS} ms of it, decoded by FFmpeg to mono at 8 kHz from the file's
 * time 0 (a stream that starts later is preceded by silence). Two recordings of the same sound, whether
 * copied or re-encoded, have envelopes alike block by block; other sound (another voice, another tone,
 * silence) does not. It is how {@code compare} checks that an excerpt has the original's audio at the
 * matching times, where a sample hash covers only a whole track.
 *
 * @param loudness each block's energy in dB below full scale (0 loudest, {@value #SILENT} and less silent)
 * @param crossings each block's zero crossings (a rough measure of pitch)
 */
public record AudioEnvelope(float[] loudness, int[] crossings) {
    /** The length of one block. */
    public static final int BLOCK_MILLIS = 20;
    /** Blocks quieter than this many dB below full scale count as silent. */
    public static final float SILENT = -50f;
    /** Samples a second after decoding. */
    private static final int RATE = 8000;
    private static final int BLOCK = RATE * BLOCK_MILLIS / 1000;
    /**
     * A second of real audio takes at least this many bytes of a file (8 kbit/s, below any codec's speech
     * setting): the seconds decoded are bounded by the file's size whatever its header claims.
     */
    private static final long MIN_BYTES_A_SECOND = 100;

    /** Copies the arrays. */
    public AudioEnvelope {
        Objects.requireNonNull(loudness, "loudness");
        Objects.requireNonNull(crossings, "crossings");
        if (loudness.length != crossings.length) {
            throw new IllegalArgumentException("one loudness and one crossing count a block");
        }
        loudness = loudness.clone();
        crossings = crossings.clone();
    }

    /** How many blocks. */
    public int blocks() {
        return loudness.length;
    }

    /**
     * The envelope of a file's first audio stream from its time 0 to {@code seconds} (or its end), bounded by
     * the file's size (at most its bytes / 100 seconds) and in time as {@link StreamHashes} bounds decoding.
     *
     * @throws NotHashed if FFmpeg is missing, fails, runs too long or the caller is interrupted
     */
    public static AudioEnvelope of(Path file, double seconds) throws NotHashed {
        long size = StreamHashes.size(file);
        double most = Math.min(Math.max(0, seconds), 10 + size / (double) MIN_BYTES_A_SECOND);
        int maxBlocks = (int) Math.ceil(most * 1000 / BLOCK_MILLIS) + 1;
        float[] loud = new float[Math.min(maxBlocks, 1 << 16)];
        int[] cross = new int[loud.length];
        int[] n = {0};
        float[][] l = {loud};
        int[][] c = {cross};
        StreamHashes.runReading(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-i", StreamHashes.input(file), "-map",
                "0:a:0", "-af", "aresample=async=1:first_pts=0", "-ac", "1", "-ar", Integer.toString(RATE), "-t",
                String.format(Locale.ROOT, "%.3f", most), "-f", "s16le", "-"), StreamHashes.decodeTime(Optional.of(most), size),
                out -> {
                    byte[] block = new byte[2 * BLOCK];
                    InputStream in = new BufferedInputStream(out, 1 << 16);
                    while (n[0] < maxBlocks && in.readNBytes(block, 0, block.length) == block.length) {
                        if (n[0] == l[0].length) {
                            l[0] = Arrays.copyOf(l[0], Math.min(maxBlocks, 2 * n[0]));
                            c[0] = Arrays.copyOf(c[0], l[0].length);
                        }
                        double energy = 0;
                        int crossings = 0;
                        int previous = 0;
                        for (int i = 0; i < BLOCK; i++) {
                            int s = (short) ((block[2 * i] & 0xFF) | (block[2 * i + 1] << 8));
                            energy += (double) s * s;
                            if (i > 0 && (s >= 0) != (previous >= 0)) {
                                crossings++;
                            }
                            previous = s;
                        }
                        double rms = Math.sqrt(energy / BLOCK) / 32768.0;
                        l[0][n[0]] = (float) (rms > 0 ? Math.max(-120, 20 * Math.log10(rms)) : -120);
                        c[0][n[0]] = crossings;
                        n[0]++;
                    }
                    in.transferTo(OutputStream.nullOutputStream());
                    return "";
                });
        return new AudioEnvelope(Arrays.copyOf(l[0], n[0]), Arrays.copyOf(c[0], n[0]));
    }

    /** How two envelopes match at their best alignment: the share of blocks alike and where. */
    public record Match(double alike, int overlap, int lag) {}

    /**
     * Compares {@code part} with this envelope, with block 0 of {@code part} at block {@code at} of this one,
     * give or take {@code slack} blocks (timestamps of cut files are that exact): the alignment where most
     * blocks are alike. Two blocks are alike when both are silent, or when their loudness is within 6 dB
     * and their zero crossings within a quarter (or 3) of each other.
     */
    public Match match(AudioEnvelope part, int at, int slack) {
        Match best = new Match(0, 0, at);
        // From the given alignment outwards: of equally good alignments (a periodic sound) the nearest wins.
        for (int step = 0; step <= 2 * slack; step++) {
            int lag = at + (step % 2 == 0 ? step / 2 : -(step + 1) / 2);
            int overlap = 0;
            int alike = 0;
            for (int k = Math.max(0, -lag); k < part.blocks() && k + lag < blocks(); k++) {
                overlap++;
                if (alike(part, k, k + lag)) {
                    alike++;
                }
            }
            double share = overlap == 0 ? 0 : alike / (double) overlap;
            if (share > best.alike() || share == best.alike() && overlap > best.overlap()) {
                best = new Match(share, overlap, lag);
            }
        }
        return best;
    }

    private boolean alike(AudioEnvelope part, int k, int j) {
        float a = part.loudness[k];
        float b = loudness[j];
        if (a < SILENT && b < SILENT) {
            return true;
        }
        int ca = part.crossings[k];
        int cb = crossings[j];
        return Math.abs(a - b) <= 6 && Math.abs(ca - cb) <= Math.max(3, Math.max(ca, cb) / 4);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AudioEnvelope e && Arrays.equals(e.loudness, loudness) && Arrays.equals(e.crossings, crossings);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(loudness) + Arrays.hashCode(crossings);
    }

    @Override
    public String toString() {
        return "AudioEnvelope[" + blocks() + " blocks of " + BLOCK_MILLIS + " ms]";
    }
}
