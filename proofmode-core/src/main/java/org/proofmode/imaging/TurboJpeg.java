// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

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

    private final MethodHandle create;
    private final MethodHandle width;
    private final MethodHandle height;
    private final MethodHandle decompress;
    private final MethodHandle close;
    private final MethodHandle toYuv;
    private final MethodHandle yuvBuf;
    private final MethodHandle yuvSize;
    private final MethodHandle yuvOffsets;
    private final MethodHandle yuvStrides;
    private final int rgb;

    private TurboJpeg(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> d = Class.forName("org.libjpegturbo.turbojpeg.TJDecompressor", true, loader);
        Class<?> tj = Class.forName("org.libjpegturbo.turbojpeg.TJ", true, loader);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        create = l.findConstructor(d, MethodType.methodType(void.class, byte[].class));
        width = l.findVirtual(d, "getWidth", MethodType.methodType(int.class));
        height = l.findVirtual(d, "getHeight", MethodType.methodType(int.class));
        decompress = l.findVirtual(d, "decompress", MethodType.methodType(byte[].class, int.class, int.class, int.class, int.class, int.class));
        close = l.findVirtual(d, "close", MethodType.methodType(void.class));
        Class<?> yuv = Class.forName("org.libjpegturbo.turbojpeg.YUVImage", true, loader);
        toYuv = l.findVirtual(d, "decompressToYUV", MethodType.methodType(yuv, int.class, int.class, int.class, int.class));
        yuvBuf = l.findVirtual(yuv, "getBuf", MethodType.methodType(byte[].class));
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
     * Decodes a JPEG to its Y, Cb and Cr planes (TurboJPEG's {@code tjDecompressToYUV2} with rows padded to
     * 1 byte, that is not at all; libjpeg's accurate integer IDCT, no upsampling, no colour conversion).
     *
     * @return the planes, or empty if TurboJPEG refuses the file or finds a size other than expected
     */
    Optional<Planes> yuvPlanes(byte[] jpeg, int w, int h) {
        return decode(jpeg, w, h, d -> {
            Object yuv = toYuv.invoke(d, w, 1, h, 0);
            int[] offsets = (int[]) yuvOffsets.invoke(yuv);
            int[] strides = (int[]) yuvStrides.invoke(yuv);
            int size = (int) yuvSize.invoke(yuv);
            int n = offsets.length;
            if (n != 3 || offsets[0] != 0 || strides[0] < w) {
                return null;
            }
            int[] widths = new int[n];
            int[] heights = new int[n];
            int paddedHeight = offsets[1] / strides[0];
            for (int i = 0; i < n; i++) {
                int rows = ((i + 1 < n ? offsets[i + 1] : size) - offsets[i]) / strides[i];
                // Padded plane sizes keep the components' ratios; the image's own sizes round them up.
                widths[i] = (int) (((long) w * strides[i] + strides[0] - 1) / strides[0]);
                heights[i] = (int) (((long) h * rows + paddedHeight - 1) / paddedHeight);
            }
            return new Planes((byte[]) yuvBuf.invoke(yuv), offsets, strides, widths, heights);
        });
    }

    /**
     * Decodes a JPEG to 8-bit R, G, B pixels, row by row, with libjpeg's accurate integer IDCT and smooth
     * chroma upsampling (TurboJPEG's defaults).
     *
     * @return the pixels, or empty if TurboJPEG refuses the file or finds a size other than expected
     */
    Optional<byte[]> rgbPixels(byte[] jpeg, int w, int h) {
        return decode(jpeg, w, h, d -> (byte[]) decompress.invoke(d, w, 0, h, rgb, 0));
    }

    /** What is done with a decompressor; {@code null} for nothing. */
    @FunctionalInterface
    private interface Decode<T> {
        T apply(Object decompressor) throws Throwable;
    }

    /** Opens a decompressor on a JPEG of the expected size, applies {@code decode}, and closes it. */
    private <T> Optional<T> decode(byte[] jpeg, int w, int h, Decode<T> decode) {
        try {
            Object d = create.invoke(jpeg);
            try {
                if ((int) width.invoke(d) != w || (int) height.invoke(d) != h) {
                    return Optional.empty();
                }
                return Optional.ofNullable(decode.apply(d));
            } finally {
                close.invoke(d);
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            return Optional.empty(); // TJException: a damaged file, or one TurboJPEG warns about
        }
    }
}
