// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.opencv.core.Core;

/**
 * Loads OpenCV's native library once per process. From the {@code org.openpnp:opencv} jar, the library
 * (65 MB on Linux x86-64) is unpacked once into an owner-only cache folder, named by its size and
 * checksum in the jar, and loaded from there by every later process; OpenPNP's own loader unpacks it
 * into a new temporary folder on every start, which costs a fresh process more than a photo's decode.
 * Where no cache folder can be used, OpenPNP's loader is the fallback. The Debian package carries no
 * OpenCV of its own: its jar names Debian's binding ({@code libopencv-java}, {@code /usr/share/java/opencv.jar})
 * in its class path, whose JNI library is {@code /usr/lib/jni/libopencv_javaNNN.so}, NNN being that
 * binding's own version (so the Java classes and the library always match).
 */
final class OpenCvLibrary {
    private static final String CACHE_ENV = "PROOFMODE_NATIVE_CACHE";
    /** Where Debian's {@code libopencv406-jni} (and its later versions) put OpenCV's JNI library. */
    private static final String SYSTEM_JNI = "/usr/lib/jni";
    /** Why face detection cannot run when OpenCV's Java classes are missing (the .deb without libopencv-java). */
    static final String MISSING = "face detection needs OpenCV's Java binding (Debian: apt-get install libopencv-java)";
    private static final Map<String, String> ARCH = Map.of("amd64", "x86_64", "x86_64", "x86_64", "aarch64", "ARMv8", "arm", "ARMv7");

    private static Optional<String> failure;

    private OpenCvLibrary() {}

    /**
     * Loads the library, if not done yet.
     *
     * @return empty once loaded; otherwise why it cannot be loaded on this platform
     */
    static synchronized Optional<String> load() {
        if (failure == null) {
            failure = tryLoad();
        }
        return failure;
    }

    private static Optional<String> tryLoad() {
        try {
            Optional<Path> cached = cached();
            Path system = Path.of(SYSTEM_JNI, "lib" + Core.NATIVE_LIBRARY_NAME + ".so");
            if (cached.isPresent()) {
                System.load(cached.get().toString());
            } else if (Files.isRegularFile(system)) {
                System.load(system.toString());
            } else {
                nu.pattern.OpenCV.loadLocally();
            }
            return Optional.empty();
        } catch (NoClassDefFoundError e) {
            return Optional.of(MISSING);
        } catch (LinkageError | RuntimeException e) {
            return Optional.of("OpenCV cannot be loaded on this platform (" + System.getProperty("os.name") + " "
                    + System.getProperty("os.arch") + "): " + e.getMessage());
        }
    }

    /** The library unpacked into the cache folder, when this platform's is in the jar and the folder can be used. */
    private static Optional<Path> cached() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = ARCH.get(System.getProperty("os.arch", "").toLowerCase(Locale.ROOT));
        if (!os.contains("linux") || arch == null) {
            return Optional.empty(); // other systems: OpenPNP's loader knows their names and rules
        }
        String name = "lib" + Core.NATIVE_LIBRARY_NAME + ".so";
        URL url = OpenCvLibrary.class.getResource("/nu/pattern/opencv/linux/" + arch + "/" + name);
        Optional<Path> dir = cacheFolder();
        if (url == null || dir.isEmpty()) {
            return Optional.empty();
        }
        try {
            URLConnection c = url.openConnection();
            long size = c.getContentLengthLong();
            long crc = c instanceof JarURLConnection j ? j.getJarEntry().getCrc() : -1;
            if (size < 0 || crc < 0) {
                return Optional.empty();
            }
            Path lib = dir.get().resolve(String.format("%s-%d-%08x.so", name.replace(".so", ""), size, crc));
            if (Files.isRegularFile(lib) && Files.size(lib) == size) {
                return Optional.of(lib);
            }
            Path tmp = Files.createTempFile(dir.get(), name, ".tmp");
            try {
                try (InputStream in = c.getInputStream()) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                if (Files.size(tmp) != size) {
                    return Optional.empty();
                }
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return Optional.of(lib);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code $PROOFMODE_NATIVE_CACHE}, else {@code $XDG_CACHE_HOME/proofmode/native}, else {@code ~/.cache/proofmode/native}; owner-only. */
    private static Optional<Path> cacheFolder() {
        try {
            String set = System.getenv(CACHE_ENV);
            String xdg = System.getenv("XDG_CACHE_HOME");
            Path dir = set != null && !set.isBlank() ? Path.of(set)
                    : xdg != null && !xdg.isBlank() ? Path.of(xdg, "proofmode", "native")
                    : Path.of(System.getProperty("user.home"), ".cache", "proofmode", "native");
            if (!dir.isAbsolute()) {
                return Optional.empty();
            }
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            }
            // A folder others may write to could hold a library that is not ours.
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)
                    || !Files.getOwner(dir).getName().equals(System.getProperty("user.name"))) {
                return Optional.empty();
            }
            return Optional.of(dir);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
