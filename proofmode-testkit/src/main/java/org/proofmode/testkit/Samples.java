package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The external sample data ({@code ../shared/samples}, see its README), read in place and never copied
 * into the repository. Its folder comes from the system property {@code proofmode.samples}, which the
 * build sets. A missing sample fails the test: a test that cannot find its data must not pass by
 * skipping.
 */
public final class Samples {
    /** The system property naming the samples folder. */
    public static final String PROPERTY = "proofmode.samples";

    /** Fingerprint of the RSA-4096 key that signed the app's {@code good.zip} and {@code bad.zip}. */
    public static final String APP_GOOD_SIGNER = "E1C95C68BC5C0C18A01657F0FD2E7EFAD559FF84";

    /** SHA-256 of the JPEG inside the app's bundles; it names their proof files. */
    public static final String APP_MEDIA_SHA256 = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";

    private Samples() {}

    /**
     * The samples folder.
     *
     * @throws org.opentest4j.AssertionFailedError if the property is unset or the folder is missing
     */
    public static Path root() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) {
            return fail("system property " + PROPERTY + " is not set; run the tests with Maven (./mvnw verify), which sets it");
        }
        Path dir = Path.of(p).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            return fail("sample folder missing: " + dir + " (" + PROPERTY + "=" + p + ")");
        }
        return dir;
    }

    /**
     * A sample file or folder by its path under the samples folder.
     *
     * @throws org.opentest4j.AssertionFailedError if it does not exist
     */
    public static Path file(String relative) {
        Path f = root().resolve(relative).normalize();
        if (!Files.exists(f)) {
            return fail("sample missing: " + f);
        }
        return f;
    }

    /**
     * The C2PA conformance files: content credentials written by others, with a {@code README.md} whose
     * table gives each file's source, media type and the reference validator's verdict.
     */
    public static Path c2paConformance() {
        return file("c2pa-conformance");
    }

    /** The app's complete bundle, RSA-4096, all three signatures good. */
    public static Path appGoodZip() {
        return file("proofmode/starlinglab-integrity-preprocessor/good.zip");
    }

    /** The app's bundle whose {@code .proof.json.asc} was replaced by another key's signature. */
    public static Path appBadZip() {
        return file("proofmode/starlinglab-integrity-preprocessor/bad.zip");
    }

    /** The app's older bundle without {@code .proof.json}, whose media signature is bad. */
    public static Path appNoJsonZip() {
        return file("proofmode/starlinglab-integrity-preprocessor/no-json.zip");
    }

    /** The app's 2016 proof folder: files named after the media, CSV only, no public key. */
    public static Path legacyProofFolder() {
        return file("proofmode/proofmode-android-sample-proof-1");
    }
}
