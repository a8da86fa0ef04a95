// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * libjpeg-turbo's own Java binding, TurboJPEG, as the operating system provides it: Debian's
 * {@code libturbojpeg-java} (the jar {@code /usr/share/java/turbojpeg.jar}, whose native part is the
 * SIMD-optimised {@code libturbojpeg}; it also needs {@code libturbojpeg0-dev}, which holds the library
 * name the binding loads). It is not on Maven Central, so it is found at run time; without it, JPEGs go
 * to the JDK's decoder. {@code PROOFMODE_TURBOJPEG_JAR} names another copy of the jar.
 */
final class TurboJpeg {
    private static final String DEFAULT_JAR = "/usr/share/java/turbojpeg.jar";
    private static Optional<TurboJpeg> instance;
    private static String unavailable = "not looked for yet";

    private final MethodHandle width;
    private final MethodHandle height;
    private final MethodHandle decompress;
    private final MethodHandle close;
    private final MethodHandle createEmpty;
    private final MethodHandle setSource;
    private final MethodHandle subsampling;
    private final MethodHandle wrapYuv;
    private final MethodHandle toYuvInto;
    private final MethodHandle bufSizeYuv;
    private final MethodHandle yuvSize;
    private final MethodHandle yuvOffsets;
    private final MethodHandle yuvStrides;
    private final int rgb;

    private TurboJpeg(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> d = Class.forName("org.libjpegturbo.turbojpeg.TJDecompressor", true, loader);
        Class<?> tj = Class.forName("org.libjpegturbo.turbojpeg.TJ", true, loader);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        width = l.findVirtual(d, "getWidth", MethodType.methodType(int.class));
        height = l.findVirtual(d, "getHeight", MethodType.methodType(int.class));
        decompress = l.findVirtual(d, "decompress", MethodType.methodType(void.class, byte[].class, int.class, int.class, int.class,
                int.class, int.class, int.class, int.class));
        close = l.findVirtual(d, "close", MethodType.methodType(void.class));
        Class<?> yuv = Class.forName("org.libjpegturbo.turbojpeg.YUVImage", true, loader);
        createEmpty = l.findConstructor(d, MethodType.methodType(void.class));
        setSource = l.findVirtual(d, "setSourceImage", MethodType.methodType(void.class, byte[].class, int.class));
        subsampling = l.findVirtual(d, "getSubsamp", MethodType.methodType(int.class));
        wrapYuv = l.findConstructor(yuv, MethodType.methodType(void.class, byte[].class, int.class, int.class, int.class, int.class));
        toYuvInto = l.findVirtual(d, "decompressToYUV", MethodType.methodType(void.class, yuv, int.class));
        bufSizeYuv = l.findStatic(tj, "bufSizeYUV", MethodType.methodType(int.class, int.class, int.class, int.class, int.class));
        yuvSize = l.findVirtual(yuv, "getSize", MethodType.methodType(int.class));
        yuvOffsets = l.findVirtual(yuv, "getOffsets", MethodType.methodType(int[].class));
        yuvStrides = l.findVirtual(yuv, "getStrides", MethodType.methodType(int[].class));
        rgb = tj.getField("PF_RGB").getInt(null);
    }

    /** The binding, when the system has it. */
    static synchronized Optional<TurboJpeg> get() {
        if (instance == null) {
            instance = load();
        }
        return instance;
    }

    /** The binding, if it was looked for and found: nothing is loaded for this. */
    static synchronized Optional<TurboJpeg> ifLoaded() {
        return instance != null ? instance : Optional.empty();
    }

    /** Why {@link #get} is empty. */
    static synchronized String unavailable() {
        return unavailable;
    }

    private static Optional<TurboJpeg> load() {
        String set = System.getenv("PROOFMODE_TURBOJPEG_JAR");
        Path jar = Path.of(set != null && !set.isBlank() ? set : DEFAULT_JAR);
        if (!Files.isRegularFile(jar)) {
            unavailable = jar + " not found (Debian: apt-get install libturbojpeg-java libturbojpeg0-dev)";
            return Optional.empty();
        }
        try {
            @SuppressWarnings("resource") // lives as long as the process: its classes hold the native library
            URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, TurboJpeg.class.getClassLoader());
            // Initialising the classes loads the native library: a missing one is found here, not per file.
            TurboJpeg t = new TurboJpeg(loader);
            unavailable = "";
            return Optional.of(t);
        } catch (Throwable e) {
            unavailable = "TurboJPEG cannot be used: " + e;
            return Optional.empty();
        }
    }

    /**
     * The decoded planes of a JPEG, as the JPEG holds them: Y, Cb and Cr, each at the size the JPEG standard
     * gives its component ({@code ceil(X * Hi / Hmax)} by {@code ceil(Y * Vi / Vmax)}: for the usual 4:2:0
     * photo, chroma planes of half the width and height, rounded up). TurboJPEG pads a plane to whole MCUs
     * where the image is not a multiple of them; those samples are outside the image and not part of it.
     *
     * @param data the planes, plane {@code i} from {@code offsets[i]} with rows {@code strides[i]} apart
     * @param widths each plane's width
     * @param heights each plane's height
     */
    record Planes(byte[] data, int[] offsets, int[] strides, int[] widths, int[] heights) {}

    /**
     * Decodes a JPEG file to its Y, Cb and Cr planes (TurboJPEG's {@code tjDecompressToYUV2} with rows padded
     * to 1 byte, that is not at all; libjpeg's accurate integer IDCT, no upsampling, no colour conversion),
     * with a {@link Decoder} from {@link #take()}.
     *
     * @param size the file's size, at most what an {@code int} holds
     * @return the planes, in the decoder's buffer (valid until it decodes again or is given back); empty if
     *     TurboJPEG refuses the file or finds a size other than expected, after which the decoder is closed
     */
    Optional<Planes> yuvPlanes(Decoder decoder, Path file, long size, int w, int h) throws IOException {
        return decode(decoder, file, size, w, h, d -> {
            int subsamp = (int) subsampling.invoke(d.decompressor);
            byte[] buf = d.pixels((int) bufSizeYuv.invoke(w, 1, h, subsamp));
            Object yuv = wrapYuv.invoke(buf, w, 1, h, subsamp);
            toYuvInto.invoke(d.decompressor, yuv, 0);
            int[] offsets = (int[]) yuvOffsets.invoke(yuv);
            int[] strides = (int[]) yuvStrides.invoke(yuv);
            int total = (int) yuvSize.invoke(yuv);
            int n = offsets.length;
            if (n != 3 || offsets[0] != 0 || strides[0] < w) {
                return null;
            }
            int[] widths = new int[n];
            int[] heights = new int[n];
            int paddedHeight = offsets[1] / strides[0];
            for (int i = 0; i < n; i++) {
                int rows = ((i + 1 < n ? offsets[i + 1] : total) - offsets[i]) / strides[i];
                // Padded plane sizes keep the components' ratios; the image's own sizes round them up.
                widths[i] = (int) (((long) w * strides[i] + strides[0] - 1) / strides[0]);
                heights[i] = (int) (((long) h * rows + paddedHeight - 1) / paddedHeight);
            }
            return new Planes(buf, offsets, strides, widths, heights);
        });
    }

    /**
     * A decompressor and the buffers of the last JPEG it decoded, kept for the next: in a batch of photos,
     * no 12 MB of planes (or 24 MB of R, G, B) and no file buffer are allocated per 8 MP photo (for the JVM's collector each was a
     * humongous allocation, and its collections wait for the decodes running in native code to end). At
     * most one a processor is kept between decodes ({@link #give}); one unused for {@link #KEEP} is closed,
     * and {@link #release} closes them all at once.
     */
    final class Decoder {
        private final Object decompressor;
        private byte[] jpeg = new byte[0];
        /** The decoded pixels: planes or R, G, B rows. */
        private byte[] pixels = new byte[0];
        private long lastUsed;
        private boolean failed;

        private Decoder() throws Throwable {
            decompressor = createEmpty.invoke();
        }

        /** The file's first {@code size} bytes, in this decoder's buffer (zeros past a file that shrank). */
        private byte[] read(Path file, long size) throws IOException {
            if (jpeg.length < size) {
                jpeg = new byte[(int) size];
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer b = ByteBuffer.wrap(jpeg, 0, (int) size);
                while (b.hasRemaining() && ch.read(b) >= 0) {
                    // reads until the size or the end of the file
                }
                Arrays.fill(jpeg, b.position(), (int) size, (byte) 0);
            }
            return jpeg;
        }

        private byte[] pixels(int size) {
            if (pixels.length < size) {
                pixels = null; // the old buffer is garbage before the new one is allocated
                pixels = new byte[size];
            }
            return pixels;
        }

        private long bytes() {
            return (long) jpeg.length + pixels.length;
        }

        private void close() {
            try {
                close.invoke(decompressor);
            } catch (Throwable e) {
                // its native handle is freed either way (TJDecompressor's finalizer, at worst)
            }
        }
    }

    /** How long a decoder is kept unused. */
    static final Duration KEEP = Duration.ofSeconds(2);
    /** The buffers a decoder may hold and still be kept: an 8 to 16 MP photo's planes and file. */
    static final long KEEP_BYTES = 40L << 20;
    private static final int MAX_KEPT = Runtime.getRuntime().availableProcessors();
    private static final Executor SWEEPER = CompletableFuture.delayedExecutor(KEEP.toMillis(), TimeUnit.MILLISECONDS);
    private final Semaphore running = new Semaphore(MAX_KEPT);
    /** Kept decoders, the last given back first. */
    private final Deque<Decoder> kept = new ArrayDeque<>();
    private boolean sweeping;

    /**
     * A kept decoder, or a new one, once fewer decodes than processors run: more at once would not decode
     * sooner, and each would hold its buffers. Every decoder taken must be given back ({@link #give}).
     */
    Decoder take() throws IOException {
        running.acquireUninterruptibly();
        synchronized (kept) {
            Decoder d = kept.pollFirst();
            if (d != null) {
                return d;
            }
        }
        try {
            return new Decoder();
        } catch (Throwable e) {
            running.release();
            if (e instanceof Error err) {
                throw err;
            }
            throw new IOException("TurboJPEG cannot decode: " + e, e);
        }
    }

    /** Gives a decoder back after use: kept for the next decode, or closed. */
    void give(Decoder d) {
        running.release();
        boolean sweep = false;
        if (!d.failed && d.bytes() <= KEEP_BYTES) {
            d.lastUsed = System.nanoTime();
            synchronized (kept) {
                if (kept.size() < MAX_KEPT) {
                    kept.addFirst(d);
                    d = null;
                    sweep = !sweeping;
                    sweeping = true;
                }
            }
        }
        if (d != null) {
            d.close();
        }
        if (sweep) {
            SWEEPER.execute(this::sweep);
        }
    }

    /** Closes the decoders unused for {@link #KEEP}, and comes back later while any is left. */
    private void sweep() {
        List<Decoder> old = new ArrayList<>();
        boolean again;
        synchronized (kept) {
            long now = System.nanoTime();
            for (Iterator<Decoder> i = kept.iterator(); i.hasNext(); ) {
                Decoder d = i.next();
                if (now - d.lastUsed >= KEEP.toNanos()) {
                    i.remove();
                    old.add(d);
                }
            }
            again = !kept.isEmpty();
            sweeping = again;
        }
        old.forEach(Decoder::close);
        if (again) {
            SWEEPER.execute(this::sweep);
        }
    }

    /** Closes every kept decoder now. */
    void release() {
        List<Decoder> all;
        synchronized (kept) {
            all = new ArrayList<>(kept);
            kept.clear();
        }
        all.forEach(Decoder::close);
    }

    /** How many decoders are kept. */
    int kept() {
        synchronized (kept) {
            return kept.size();
        }
    }

    /**
     * Decodes a JPEG file to 8-bit R, G, B pixels, row by row, with libjpeg's accurate integer IDCT and smooth
     * chroma upsampling (TurboJPEG's defaults), with a {@link Decoder} from {@link #take()}.
     *
     * @param size the file's size, at most what an {@code int} holds
     * @return the pixels, {@code 3 * w} bytes a row from the start of the decoder's buffer (valid until it
     *     decodes again or is given back); empty as for {@link #yuvPlanes}
     */
    Optional<byte[]> rgbPixels(Decoder decoder, Path file, long size, int w, int h) throws IOException {
        return decode(decoder, file, size, w, h, d -> {
            byte[] buf = d.pixels(Math.multiplyExact(3 * w, h));
            decompress.invoke(d.decompressor, buf, 0, 0, w, 3 * w, h, rgb, 0);
            return buf;
        });
    }

    /** What is done with a decoder whose JPEG has the expected size; {@code null} for nothing. */
    @FunctionalInterface
    private interface Decode<T> {
        T apply(Decoder decoder) throws Throwable;
    }

    /**
     * Reads the file into the decoder, checks that the JPEG has the expected size and applies {@code decode};
     * a decoder that TurboJPEG failed in is marked, so that {@link #give} closes it.
     */
    private <T> Optional<T> decode(Decoder decoder, Path file, long size, int w, int h, Decode<T> decode) throws IOException {
        byte[] jpeg = decoder.read(file, size);
        try {
            setSource.invoke(decoder.decompressor, jpeg, (int) size);
            if ((int) width.invoke(decoder.decompressor) != w || (int) height.invoke(decoder.decompressor) != h) {
                return Optional.empty();
            }
            return Optional.ofNullable(decode.apply(decoder));
        } catch (OutOfMemoryError e) {
            decoder.failed = true;
            throw e;
        } catch (Throwable e) {
            decoder.failed = true; // TJException: a damaged file, or one TurboJPEG warns about
            return Optional.empty();
        }
    }
}
