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
     * Decodes a JPEG to 8-bit R, G, B pixels, row by row, with libjpeg's accurate integer IDCT and smooth
     * chroma upsampling (TurboJPEG's defaults).
     *
     * @return the pixels, or empty if TurboJPEG refuses the file or finds a size other than expected
     */
    Optional<byte[]> rgbPixels(byte[] jpeg, int w, int h) {
        try {
            Object d = create.invoke(jpeg);
            try {
                if ((int) width.invoke(d) != w || (int) height.invoke(d) != h) {
                    return Optional.empty();
                }
                return Optional.of((byte[]) decompress.invoke(d, w, 0, h, rgb, 0));
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
