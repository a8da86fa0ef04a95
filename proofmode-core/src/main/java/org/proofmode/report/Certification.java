// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.media.Digests;

/**
 * What the certification page says about the verification: the software and its own hash, the system, the
 * date, and the key the report is signed with. Who verified is left for the person to write in.
 *
 * @param software the software's name and version
 * @param installationSha256 SHA-256 of the installed program (its jar), when it runs from one
 * @param system the operating system and Java runtime
 * @param date the date of the report, ISO-8601 UTC, when given
 * @param keyFingerprint the fingerprint of the verifying installation's key that signs the report, if it is signed
 */
public record Certification(String software, Optional<String> installationSha256, String system, Optional<String> date,
        Optional<String> keyFingerprint) {
    /** Validates the fields. */
    public Certification {
        Objects.requireNonNull(software, "software");
        Objects.requireNonNull(installationSha256, "installationSha256");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(keyFingerprint, "keyFingerprint");
    }

    /**
     * The certification of the program that runs now: its name and version (from its jar's manifest), the
     * SHA-256 of that jar, and the operating system and Java runtime.
     *
     * @param product the program's name, e.g. {@code proofmode}
     * @param program a class of the program, whose jar is hashed
     * @param date the report's date
     * @param keyFingerprint the key that signs the report, if any
     */
    public static Certification of(String product, Class<?> program, Optional<String> date, Optional<String> keyFingerprint) {
        String version = Optional.ofNullable(program.getPackage().getImplementationVersion()).orElse("dev");
        String system = System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch")
                + "), Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")";
        return new Certification(product + " " + version, jarSha256(program), system, date, keyFingerprint);
    }

    private static Optional<String> jarSha256(Class<?> program) {
        try {
            Path jar = Path.of(program.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(jar) ? Optional.of(Digests.sha256(jar)) : Optional.empty();
        } catch (URISyntaxException | IOException | SecurityException | NullPointerException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
