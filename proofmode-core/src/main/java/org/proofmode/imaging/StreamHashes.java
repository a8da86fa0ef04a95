// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;
import org.proofmode.util.IoErrors;
import org.proofmode.util.OsCommand;

/**
 * Hashes of what a video or audio file decodes to, computed by FFmpeg itself so that anyone can
 * recompute them with FFmpeg alone:
 * <ul>
 *   <li>the frame hash of the first video stream: SHA-256 over the concatenated 32-byte SHA-256 digests of
 *       its decoded frames, each digest exactly as {@code ffmpeg -i FILE -map 0:v:0 -f framehash -hash
 *       sha256 -} prints it (frames in the stream's own pixel format, in FFmpeg's output order);</li>
 *   <li>the sample hash of the first audio stream: exactly what {@code ffmpeg -i FILE -map 0:a:0 -f hash
 *       -hash sha256 -} prints.</li>
 * </ul>
 * FFmpeg runs as a separate process, the {@code ffmpeg} and {@code ffprobe} found on {@code PATH}: the
 * value recorded is by construction the one a skeptic's FFmpeg prints; a decoder fed hostile media runs
 * outside the process that holds the device key, and a crash there costs a warning, not the key; and the
 * system's package manager keeps FFmpeg's decoders patched.
 */
public final class StreamHashes {
    /** Time given to {@code ffprobe}. */
    private static final Duration PROBE_TIME = Duration.ofSeconds(30);
    /** Error output kept for a message. */
    private static final int MAX_ERRORS = 16 * 1024;

    private StreamHashes() {}

    /** Why a stream could not be hashed: the message is one line, fit for a proof's warning field. */
    public static final class NotHashed extends Exception {
        private static final long serialVersionUID = 1L;

        /** Why, in one line. */
        public NotHashed(String message) {
            super(message);
        }
    }

    /**
     * What FFmpeg decoded, and the first error it reported on the way though it finished (a damaged
     * stream decodes to what it decodes to, the same for anyone who runs FFmpeg on it).
     */
    public record Decoded<T>(T value, Optional<String> errors) {}

    /** The streams FFmpeg finds in a file. */
    public record Streams(boolean video, boolean audio, Optional<Double> seconds) {}

    /**
     * The decoded frames of a video stream.
     *
     * @param timeBase the time base of {@code pts}, as FFmpeg prints it (e.g. {@code 1/25})
     * @param pts each frame's presentation time, in the time base
     * @param digests each frame's SHA-256, 32 bytes per frame, in order
     * @param seconds the perceptual hash of one frame per second of playing time ({@link #SECONDS_FILTER}),
     *     in order; empty when not taken (frame lists of earlier versions)
     */
    public record Frames(String timeBase, long[] pts, byte[] digests, long[] seconds) {
        /**
         * The FFmpeg filters that pick and reduce the frames whose perceptual hashes {@code seconds} holds:
         * one frame per second of playing time (the {@code fps} filter, which takes the frame nearest each
         * second from the first frame on), averaged down to 32 by 32 grey pixels. Then the 64-bit DCT hash
         * of {@link ImageHashes}. Frames at fixed times, unlike key frames, exist in every copy of a video,
         * whatever its encoder chose as key frames.
         */
        public static final String SECONDS_FILTER = "fps=1,scale=32:32:flags=area,format=gray";

        /**
         * The fewest bytes a coded frame takes in a media file, container included: every container we know
         * spends more on each frame (MP4: a 4-byte size entry and a 4-byte NAL length; Matroska: a 6-byte
         * block header; AVI: a 16-byte index entry; MPEG-TS: 188-byte packets), so a file of {@code n} bytes
         * holds at most {@code n / 8} frames, whatever its header claims about its duration.
         */
        public static final long MIN_FRAME_BYTES = 8;
        /** The most frames of one list (the digests of one list fit one array): 2^26, 25 days at 30 fps. */
        public static final int MAX_FRAMES = 1 << 26;
        /** The longest frame line: a 10-digit index, a 20-character pts (a sign and 19 digits), 64 hex digits, two commas, '\n'. */
        static final long FRAME_LINE_BYTES = 10 + 1 + 20 + 1 + 64 + 1;
        /** The longest per-second line: a 10-digit second, 16 hex digits, a comma, '\n'. */
        static final long SECOND_LINE_BYTES = 10 + 1 + 16 + 1;
        /** The comment and header lines of a list, at most. */
        static final long LIST_HEAD_BYTES = 8192;
        /** Lists up to this size are read whatever the media's size (the bound before it depended on it). */
        static final long LIST_FLOOR_BYTES = 64L << 20;

        /**
         * The most frames, and the most per-second hashes, that a media file of this many bytes can hold:
         * {@code mediaBytes / }{@value #MIN_FRAME_BYTES}, at least 1, at most {@value #MAX_FRAMES}. The
         * prover keeps no more ({@link StreamHashes#frames} stops FFmpeg there) and the verifier reads no
         * more, so a claimed duration cannot make either do more work than the bytes can hold.
         */
        public static int maxFrames(long mediaBytes) {
            return (int) Math.max(1, Math.min(MAX_FRAMES, mediaBytes / MIN_FRAME_BYTES));
        }

        /**
         * The largest frame list of a media file of this many bytes: {@link #maxFrames} frame lines and as
         * many per-second lines at their longest, with the comments, and never less than 64 MiB. The prover
         * writes no larger list, and the verifier reads any list up to this size.
         */
        public static long maxListBytes(long mediaBytes) {
            long frames = maxFrames(mediaBytes);
            return Math.max(LIST_FLOOR_BYTES, LIST_HEAD_BYTES + frames * (FRAME_LINE_BYTES + SECOND_LINE_BYTES));
        }

        /** Frames without per-second perceptual hashes. */
        public Frames(String timeBase, long[] pts, byte[] digests) {
            this(timeBase, pts, digests, new long[0]);
        }

        /** How many frames. */
        public int count() {
            return pts.length;
        }

        /** The frame hash: SHA-256 over the concatenated frame digests, lower-case hex. */
        public String frameHash() {
            return Hex.encode(Digests.newSha256().digest(digests));
        }

        /** One frame's digest, lower-case hex. */
        public String digest(int frame) {
            return Hex.encode(Arrays.copyOfRange(digests, 32 * frame, 32 * frame + 32));
        }

        /**
         * The frame list as the {@code .frames} file beside a proof: two comment lines, a header, then one
         * line per frame, {@code index,pts,sha256}.
         */
        public byte[] list(String decoder) {
            // The decoder's name goes into a comment line: one line, of a length the reader takes.
            String named = decoder.replaceAll("[^\\x20-\\x7e]", " ");
            decoder = named.length() > 200 ? named.substring(0, 200) : named;
            ByteArrayOutputStream out = new ByteArrayOutputStream(90 * count() + 512);
            ascii(out, "# Video.FrameHash = SHA-256 of the concatenated frame digests below, in order (" + count() + " frames)\n");
            ascii(out, "# first video stream, as 'ffmpeg -i FILE -map 0:v:0 -f framehash -hash sha256 -' prints it; pts in "
                    + timeBase + " s; " + decoder + "\n");
            ascii(out, "index,pts,sha256\n");
            for (int i = 0; i < count(); i++) {
                ascii(out, i + "," + pts[i] + "," + digest(i) + "\n");
            }
            if (seconds.length > 0) {
                ascii(out, "# one frame per second of playing time, its perceptual hash (ffmpeg -vf " + SECONDS_FILTER
                        + ", then the 64-bit DCT hash of Image.PerceptualHash)\n");
                ascii(out, SECONDS_HEADER + "\n");
                for (int i = 0; i < seconds.length; i++) {
                    ascii(out, i + "," + HexFormat.of().toHexDigits(seconds[i]) + "\n");
                }
            }
            return out.toByteArray();
        }

        /** The header of the per-second section of a frame list. */
        public static final String SECONDS_HEADER = "second,phash";

        private static void ascii(ByteArrayOutputStream out, String s) {
            out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        }

        /** Collects frames in order: what a frame list is read into. */
        public static final class Builder {
            private long[] pts = new long[1024];
            private byte[] digests = new byte[32 * 1024];
            private int n;

            /** Adds the next frame. */
            public Builder add(long framePts, byte[] sha256) {
                if (sha256.length != 32) {
                    throw new IllegalArgumentException("a frame digest is 32 bytes");
                }
                if (n >= MAX_FRAMES) {
                    throw new IllegalStateException("more than " + MAX_FRAMES + " frames");
                }
                if (n == pts.length) {
                    int grown = (int) Math.min(MAX_FRAMES, 2L * n);
                    pts = Arrays.copyOf(pts, grown);
                    digests = Arrays.copyOf(digests, 32 * grown);
                }
                pts[n] = framePts;
                System.arraycopy(sha256, 0, digests, 32 * n, 32);
                n++;
                return this;
            }

            private long[] seconds = new long[64];
            private int secondCount;

            /** Adds the perceptual hash of the next second's frame. */
            public Builder second(long perceptualHash) {
                if (secondCount >= MAX_FRAMES) {
                    throw new IllegalStateException("more than " + MAX_FRAMES + " seconds");
                }
                if (secondCount == seconds.length) {
                    seconds = Arrays.copyOf(seconds, (int) Math.min(MAX_FRAMES, 2L * secondCount));
                }
                seconds[secondCount++] = perceptualHash;
                return this;
            }

            /** How many frames so far. */
            public int count() {
                return n;
            }

            /** How many seconds' perceptual hashes so far. */
            public int secondCount() {
                return secondCount;
            }

            /** The frames added, with the time base of their pts. */
            public Frames build(String timeBase) {
                return new Frames(timeBase, Arrays.copyOf(pts, n), Arrays.copyOf(digests, 32 * n), Arrays.copyOf(seconds, secondCount));
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Frames f && f.timeBase.equals(timeBase) && Arrays.equals(f.pts, pts)
                    && Arrays.equals(f.digests, digests) && Arrays.equals(f.seconds, seconds);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Arrays.hashCode(pts) + Arrays.hashCode(digests)) + Arrays.hashCode(seconds);
        }

        @Override
        public String toString() {
            return "Frames[" + count() + " frames, " + seconds.length + " seconds, " + frameHash() + "]";
        }
    }

    /** Whether {@code ffmpeg} and {@code ffprobe} are on {@code PATH}. */
    public static boolean available() {
        return OsCommand.find("ffmpeg").isPresent() && OsCommand.find("ffprobe").isPresent();
    }

    /** The decoder, as recorded in proofs: {@code ffmpeg} and its version. */
    public static String decoder() throws NotHashed {
        Path ffmpeg = OsCommand.find("ffmpeg").orElseThrow(() -> new NotHashed("ffmpeg not found on PATH (install FFmpeg)"));
        String seen = ffmpeg + "@" + ffmpeg.toFile().lastModified();
        String[] known = lastDecoder;
        if (known != null && known[0].equals(seen)) {
            return known[1];
        }
        String out = OsCommand.output(List.of("ffmpeg", "-hide_banner", "-version"), PROBE_TIME)
                .orElseThrow(() -> new NotHashed("ffmpeg -version failed"));
        String first = out.lines().findFirst().orElse("");
        // "ffmpeg version 5.1.9-0+deb12u1 Copyright (c) ..."
        String[] words = first.split(" ");
        if (words.length < 3 || !words[0].equals("ffmpeg") || !words[1].equals("version")) {
            throw new NotHashed("ffmpeg -version printed no version");
        }
        String decoder = "ffmpeg " + words[2];
        lastDecoder = new String[] {seen, decoder};
        return decoder;
    }

    /** The last {@link #decoder()} and the program file it was read from: one {@code -version} per FFmpeg. */
    private static volatile String[] lastDecoder;

    /**
     * Which streams FFmpeg finds in a file, and how long it plays.
     *
     * @throws NotHashed if {@code ffprobe} cannot read it
     */
    public static Streams probe(Path file) throws NotHashed {
        String out = run(List.of("ffprobe", "-v", "error", "-show_entries", "stream=codec_type:format=duration", "-of",
                "default=noprint_wrappers=1", input(file)), PROBE_TIME, line -> { }).text();
        boolean video = false;
        boolean audio = false;
        Optional<Double> seconds = Optional.empty();
        for (String line : out.split("\n")) {
            String l = line.strip();
            if (l.equals("codec_type=video")) {
                video = true;
            } else if (l.equals("codec_type=audio")) {
                audio = true;
            } else if (l.startsWith("duration=")) {
                try {
                    double d = Double.parseDouble(l.substring("duration=".length()));
                    seconds = Double.isFinite(d) && d >= 0 ? Optional.of(d) : Optional.empty();
                } catch (NumberFormatException e) {
                    // N/A: unknown
                }
            }
        }
        return new Streams(video, audio, seconds);
    }

    /**
     * Decodes the first video stream and hashes each frame.
     *
     * <p>The work is bounded by the file's size, not by what its header claims: at most
     * {@link Frames#maxFrames} frames (a file that decodes to more is not hashed) and as many per-second
     * hashes (FFmpeg stops there: a two-frame file claiming 28 hours between them would otherwise be
     * repeated into 100,000 seconds), within {@link #decodeTime}. The temporary file of the per-second
     * frames is removed however this ends (done, failed, timed out or interrupted).
     *
     * @param seconds how long the file plays, if known: bounds the time given to FFmpeg
     * @throws NotHashed if FFmpeg fails, prints no frame or more than the file can hold, runs too long, or
     *     the calling thread is interrupted (FFmpeg is then stopped)
     */
    public static Decoded<Frames> frames(Path file, Optional<Double> seconds) throws NotHashed {
        return frames(file, seconds, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * {@link #frames(Path, Optional)} with the per-second frames' temporary file in the given folder.
     *
     * @throws NotHashed as {@link #frames(Path, Optional)}
     */
    public static Decoded<Frames> frames(Path file, Optional<Double> seconds, Path temporaryFolder) throws NotHashed {
        long size = size(file);
        int most = Frames.maxFrames(size);
        FrameParser parser = new FrameParser(most, size);
        // The same decode feeds a second output: one frame per second, 32 by 32 grey, into an owner-only
        // temporary file (1 KiB a second of video), read into perceptual hashes once FFmpeg is done.
        Path grey;
        try {
            grey = Files.createTempFile(temporaryFolder, "proofmode-seconds", ".grey"); // owner-only on POSIX systems
        } catch (IOException e) {
            throw new NotHashed("no temporary file for the per-second frames: " + IoErrors.describe(e));
        }
        try {
            Ran ran = run(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-i", input(file), "-map", "0:v:0", "-f",
                    "framehash", "-hash", "sha256", "-", "-map", "0:v:0", "-vf", Frames.SECONDS_FILTER, "-frames:v",
                    Integer.toString(most), "-f", "rawvideo", "-y", grey.toString()), decodeTime(seconds, size), parser::line);
            parser.seconds(grey);
            return new Decoded<>(parser.frames(), ran.errors());
        } finally {
            try {
                Files.deleteIfExists(grey);
            } catch (IOException e) {
                grey.toFile().deleteOnExit();
            }
        }
    }

    static long size(Path file) throws NotHashed {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new NotHashed("the file's size could not be read: " + IoErrors.describe(e));
        }
    }

    /**
     * Decodes the first audio stream and hashes its samples.
     *
     * @return the hash, lower-case hex
     * @throws NotHashed if FFmpeg fails or runs too long
     */
    public static Decoded<String> samples(Path file, Optional<Double> seconds) throws NotHashed {
        Ran ran = run(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-i", input(file), "-map", "0:a:0", "-f",
                "hash", "-hash", "sha256", "-"), decodeTime(seconds, size(file)), line -> { });
        String out = ran.text().strip();
        if (!out.startsWith("SHA256=") || !Hex.isSha256(out.substring(7))) {
            throw new NotHashed("ffmpeg printed no sample hash");
        }
        return new Decoded<>(out.substring(7).toLowerCase(Locale.ROOT), ran.errors());
    }

    /**
     * A file as FFmpeg's input: its absolute path, so that a relative name such as {@code concat:a|b} or
     * {@code http:x} is never taken for one of FFmpeg's protocols.
     */
    /**
     * One frame of the first video stream as a JPEG no larger than {@code maxSide} on its longer side, for
     * a report's key frames: {@code ffmpeg -ss SECONDS -i FILE -frames:v 1}, scaled, MJPEG. The same file
     * and time give the same bytes.
     *
     * @throws NotHashed if FFmpeg is missing, fails, or prints no frame
     */
    public static byte[] frameJpeg(Path file, double seconds, int maxSide) throws NotHashed {
        Path out;
        try {
            out = Files.createTempFile("proofmode-frame", ".jpg"); // owner-only on POSIX systems
        } catch (IOException e) {
            throw new NotHashed("no temporary file for a frame: " + IoErrors.describe(e));
        }
        try {
            String scale = "scale=" + maxSide + ":" + maxSide + ":force_original_aspect_ratio=decrease:flags=area";
            run(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-ss", String.format(Locale.ROOT, "%.3f", seconds),
                    "-i", input(file), "-map", "0:v:0", "-frames:v", "1", "-vf", scale, "-c:v", "mjpeg", "-q:v", "3", "-f", "image2",
                    "-bitexact", "-y", out.toString()), decodeTime(Optional.empty(), size(file)), line -> { });
            byte[] jpeg = Files.readAllBytes(out);
            if (jpeg.length == 0) {
                throw new NotHashed("ffmpeg wrote no frame at " + seconds + " s");
            }
            return jpeg;
        } catch (IOException e) {
            throw new NotHashed("the frame could not be read: " + IoErrors.describe(e));
        } finally {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // a temporary file left behind; the system's cleaning removes it
            }
        }
    }

    static String input(Path file) {
        return file.toAbsolutePath().toString();
    }

    /**
     * Ten minutes plus ten times the playing time, generous for any decoder on any machine we know, but
     * never more than two minutes plus ten seconds per MB of the file: a header that claims a long
     * duration cannot buy more time than the bytes can take to decode.
     */
    static Duration decodeTime(Optional<Double> seconds, long fileBytes) {
        Duration claimed = Duration.ofMinutes(10).plusSeconds((long) Math.min(10 * seconds.orElse(3600.0), 1e9));
        Duration bySize = Duration.ofMinutes(2).plusMillis(fileBytes / 100);
        return claimed.compareTo(bySize) < 0 ? claimed : bySize;
    }

    private interface LineSink {
        void line(String line) throws NotHashed;
    }

    /** Reads a command's whole output as it comes, and returns what to keep of it as text. */
    interface OutputReader {
        String read(InputStream out) throws IOException, NotHashed;
    }

    /** A command's output (its first 64 KiB) and the first line of its error output, if any. */
    record Ran(String text, Optional<String> errors) {}

    /**
     * Runs a command, handing each line of its output to {@code sink} as it comes, within a time limit.
     */
    private static Ran run(List<String> command, Duration limit, LineSink sink) throws NotHashed {
        return runReading(command, limit, out -> {
            StringBuilder text = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.US_ASCII))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    sink.line(line);
                    if (text.length() < 64 * 1024) {
                        text.append(line).append('\n');
                    }
                }
            }
            return text.toString();
        });
    }

    /**
     * Runs a command, handing its output to {@code reader} as it comes, within a time limit; the process is
     * stopped when time runs out, when the calling thread is interrupted, or when the reader fails.
     */
    static Ran runReading(List<String> command, Duration limit, OutputReader reader) throws NotHashed {
        String program = command.get(0);
        if (Thread.currentThread().isInterrupted()) {
            throw new NotHashed(program + " not started: interrupted");
        }
        if (OsCommand.find(program).isEmpty()) {
            throw new NotHashed(program + " not found on PATH (install FFmpeg)");
        }
        Process p;
        try {
            p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new NotHashed(program + " could not be started: " + IoErrors.describe(e));
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        Thread errorReader = new Thread(() -> keep(p.getErrorStream(), errors), program + "-errors");
        errorReader.setDaemon(true);
        errorReader.start();
        AtomicBoolean timedOut = new AtomicBoolean();
        Thread caller = Thread.currentThread();
        // Stops the process when time runs out or when the caller is interrupted (a server that answered
        // 503, a task cancelled): the caller may be blocked reading the process's output, which no
        // interrupt ends, so the process is ended instead and its output closes.
        Thread watchdog = new Thread(() -> {
            long deadline = System.nanoTime() + limit.toNanos();
            try {
                while (!p.waitFor(Math.min(50, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)), TimeUnit.MILLISECONDS)) {
                    if (caller.isInterrupted()) {
                        p.destroyForcibly();
                        return;
                    }
                    if (System.nanoTime() - deadline >= 0) {
                        timedOut.set(true);
                        p.destroyForcibly();
                        return;
                    }
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }, program + "-limit");
        watchdog.setDaemon(true);
        watchdog.start();
        try (InputStream out = p.getInputStream()) {
            String text = reader.read(out);
            int exit = p.waitFor();
            errorReader.join(1000);
            String err = firstLine(errors);
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            if (timedOut.get()) {
                throw new NotHashed(program + " did not finish within " + limit.toSeconds() + " s; stopped");
            }
            if (exit != 0) {
                throw new NotHashed(program + " failed (exit " + exit + ")" + (err.isEmpty() ? "" : ": " + err));
            }
            return new Ran(text, err.isEmpty() ? Optional.empty() : Optional.of(err));
        } catch (IOException e) {
            throw new NotHashed(program + " output could not be read: " + IoErrors.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotHashed(program + " interrupted");
        } finally {
            p.destroyForcibly();
            reap(p);
        }
    }

    /**
     * Waits a little for a stopped process to be gone, so no child outlives the call that started it (a reader
     * that stopped at a bound returns while the process may still be running). An interrupt is kept for the caller.
     */
    private static void reap(Process p) {
        boolean interrupted = Thread.interrupted();
        try {
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void keep(InputStream in, ByteArrayOutputStream into) {
        byte[] buf = new byte[4096];
        try (in) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                synchronized (into) {
                    if (into.size() < MAX_ERRORS) {
                        into.write(buf, 0, Math.min(n, MAX_ERRORS - into.size()));
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** The first non-empty line of the error output, made safe for one line of a warning. */
    private static String firstLine(ByteArrayOutputStream errors) {
        String all;
        synchronized (errors) {
            all = errors.toString(StandardCharsets.UTF_8);
        }
        return all.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst()
                // "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d0c4a2e6c0] moov atom not found": the address differs every run
                .map(l -> l.replaceAll("\\p{Cntrl}", " ").replaceAll(" @ 0x[0-9a-f]+\\]", "]"))
                .map(l -> l.length() > 300 ? l.substring(0, 300) + "…" : l).orElse("");
    }

    /** Reads {@code -f framehash} output: header lines start with '#', then one line per packet. */
    private static final class FrameParser {
        private final int most;
        private final long fileBytes;
        private String timeBase;
        private final Frames.Builder frames = new Frames.Builder();

        FrameParser(int most, long fileBytes) {
            this.most = most;
            this.fileBytes = fileBytes;
        }

        void line(String line) throws NotHashed {
            if (line.startsWith("#")) {
                // "#tb 0: 1/25"
                if (line.startsWith("#tb 0:")) {
                    timeBase = line.substring("#tb 0:".length()).strip();
                }
                return;
            }
            if (line.isBlank()) {
                return;
            }
            // "0,          0,          0,        1,   115200, <64 hex>"
            String[] f = line.split(",");
            if (f.length != 6) {
                throw new NotHashed("ffmpeg printed a frame line that is not stream,dts,pts,duration,size,hash");
            }
            String hash = f[5].strip();
            if (!f[0].strip().equals("0") || !Hex.isSha256(hash)) {
                throw new NotHashed("ffmpeg printed a frame line without a SHA-256");
            }
            long pts;
            try {
                pts = Long.parseLong(f[2].strip());
            } catch (NumberFormatException e) {
                throw new NotHashed("ffmpeg printed a frame line without a time");
            }
            if (frames.count() >= most) {
                throw new NotHashed("ffmpeg decoded more than " + most + " frames from " + fileBytes
                        + " bytes, more than a file of that size can hold (" + Frames.MIN_FRAME_BYTES + " bytes a frame at least)");
            }
            frames.add(pts, HexFormat.of().parseHex(hash));
        }

        /** Reads the per-second frames FFmpeg wrote: 32 by 32 grey bytes each. */
        void seconds(Path grey) throws NotHashed {
            int size = 32 * 32;
            try (InputStream in = new BufferedInputStream(Files.newInputStream(grey))) {
                byte[] frame = new byte[size];
                while (frames.secondCount() < most && in.readNBytes(frame, 0, size) == size) {
                    double[][] px = new double[32][32];
                    for (int i = 0; i < size; i++) {
                        px[i / 32][i % 32] = frame[i] & 0xFF;
                    }
                    frames.second(ImageHashes.perceptual(px));
                }
            } catch (IOException e) {
                throw new NotHashed("the per-second frames could not be read: " + IoErrors.describe(e));
            }
        }

        Frames frames() throws NotHashed {
            if (frames.count() == 0) {
                throw new NotHashed("ffmpeg decoded no frame");
            }
            return frames.build(timeBase == null ? "?" : timeBase);
        }
    }
}
