// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The native libraries in the jar a build makes (only those of the platform it is built on:
 * proofmode-cli/pom.xml's natives-* profiles), and face detection with Debian's OpenCV binding in a jar
 * without OpenCV, made as packaging/build.sh makes the .deb's: no {@code org/opencv} classes, no
 * {@code nu/pattern/opencv} libraries, {@code Class-Path} naming Debian's {@code /usr/share/java/opencv.jar}.
 */
class NativeLibrariesIT {
    private static final Path DEBIAN_OPENCV = Path.of("/usr/share/java/opencv.jar");

    @TempDir
    Path dir;

    @Test
    void jar_carriesOnlyThisPlatformsNatives_whenBuiltOnLinuxX8664() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (!os.contains("linux") || !arch.equals("amd64")) {
            fail("this test knows the natives of Linux amd64 only; this is " + os + " " + arch);
        }
        TreeSet<String> natives = new TreeSet<>();
        try (JarFile jar = new JarFile(ProofModeJar.jar().toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                String name = e.nextElement().getName();
                if (name.matches(".*\\.(so|dylib|dll|jnilib)")) {
                    natives.add(name);
                }
            }
        }
        assertThat(natives).containsExactly("nu/pattern/opencv/linux/x86_64/libopencv_java490.so",
                "org/sqlite/native/Linux/x86_64/libsqlitejdbc.so");
    }

    @Test
    void faces_findsThePlayersFace_withDebiansOpenCvBinding() throws IOException {
        if (!Files.isRegularFile(DEBIAN_OPENCV) || !Files.isRegularFile(RedactionIT.FACES)) {
            fail(DEBIAN_OPENCV + " or " + RedactionIT.FACES + " is missing; apt-get install libopencv-java opencv-data opencv-doc (.ci/run does)");
        }
        Path jar = jarWithoutOpenCv(DEBIAN_OPENCV.toString());

        ProcessResult r = run(jar, "redact", "--faces", "--dry-run", RedactionIT.FACES.toString(), "-o", dir.resolve("out.jpg").toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(RedactionIT.boxesTheFace(r.stdout())).as("a face box around the face centre in:\n" + r.stdout()).isTrue();
    }

    @Test
    void faces_exitsUnsupportedWithTheInstallHint_whenNoOpenCvBinding() throws IOException {
        Path jar = jarWithoutOpenCv(dir.resolve("missing/opencv.jar").toString());

        ProcessResult r = run(jar, "redact", "--faces", "--dry-run", RedactionIT.FACES.toString(), "-o", dir.resolve("out.jpg").toString());

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(13);
        assertThat(r.stderr().strip()).isEqualTo("proofmode: face detection needs OpenCV's Java binding (Debian: apt-get install libopencv-java)");
    }

    /** The shaded jar without OpenCV, its manifest's Class-Path naming {@code binding}. */
    private Path jarWithoutOpenCv(String binding) throws IOException {
        Path out = dir.resolve("proofmode-deb.jar");
        try (JarFile in = new JarFile(ProofModeJar.jar().toFile())) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, binding);
            try (OutputStream os = Files.newOutputStream(out); JarOutputStream jar = new JarOutputStream(os, manifest)) {
                for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements();) {
                    JarEntry entry = e.nextElement();
                    String name = entry.getName();
                    if (name.equals(JarFile.MANIFEST_NAME) || name.startsWith("org/opencv/") || name.startsWith("nu/pattern/opencv/")) {
                        continue;
                    }
                    jar.putNextEntry(new JarEntry(name));
                    try (InputStream data = in.getInputStream(entry)) {
                        data.transferTo(jar);
                    }
                    jar.closeEntry();
                }
            }
        }
        return out;
    }

    private ProcessResult run(Path jar, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, Map.of("PROOFMODE_HOME", dir.resolve("home").toString(),
                "PROOFMODE_NATIVE_CACHE", dir.resolve("cache").toString()), Duration.ofSeconds(120));
    }
}
