// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.opentest4j.AssertionFailedError;

/**
 * The third-party sample data (the ProofMode app's bundles, the C2PA reference files): real files made
 * by others, read in place and never copied into the repository. Its folder is, in this order:
 * <ol>
 *   <li>the system property {@code proofmode.samples} ({@code ./mvnw verify -Dproofmode.samples=DIR});</li>
 *   <li>the environment variable {@code PROOFMODE_SAMPLES};</li>
 *   <li>a {@code shared/samples} folder beside the repository, when that folder exists;</li>
 *   <li>{@code target/samples} of the repository, where {@code testdata/fetch-samples} downloads the
 *       files pinned in {@code testdata/samples.lock} (the build runs it when the folder above is missing).</li>
 * </ol>
 * The repository is the system property {@code proofmode.root}, which the build sets. A missing folder or
 * sample fails the test: a test that cannot find its data must not pass by skipping.
 */
public final class Samples {
    /** The system property naming the samples folder. */
    public static final String PROPERTY = "proofmode.samples";

    /** The environment variable naming the samples folder when the property is not set. */
    public static final String ENV = "PROOFMODE_SAMPLES";

    /** The system property naming the repository's root folder (set by the build). */
    public static final String ROOT_PROPERTY = "proofmode.root";

    /** Fingerprint of the RSA-4096 key that signed the app's {@code good.zip} and {@code bad.zip}. */
    public static final String APP_GOOD_SIGNER = "E1C95C68BC5C0C18A01657F0FD2E7EFAD559FF84";

    /** SHA-256 of the JPEG inside the app's bundles; it names their proof files. */
    public static final String APP_MEDIA_SHA256 = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";

    private Samples() {}

    /**
     * The samples folder.
     *
     * @throws AssertionFailedError if no folder is found, or the one named is missing
     */
    public static Path root() {
        return locate(Optional.ofNullable(System.getProperty(PROPERTY)), Optional.ofNullable(System.getenv(ENV)),
                Optional.ofNullable(System.getProperty(ROOT_PROPERTY)).map(Path::of));
    }

    /**
     * The samples folder from the given property, variable and repository root, in the order of the
     * class comment.
     *
     * @throws AssertionFailedError if no folder is found, or the one named is missing
     */
    static Path locate(Optional<String> property, Optional<String> env, Optional<Path> repository) {
        Optional<String> named = property.filter(p -> !p.isBlank());
        String source = "-D" + PROPERTY;
        if (named.isEmpty()) {
            named = env.filter(p -> !p.isBlank());
            source = ENV;
        }
        if (named.isPresent()) {
            Path dir = Path.of(named.get()).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                return fail("sample folder missing: " + dir + " (from " + source + "=" + named.get() + ")");
            }
            return dir;
        }
        if (repository.isEmpty()) {
            return fail("no sample folder: set " + ENV + "=DIR or -D" + PROPERTY + "=DIR, or run the tests with "
                    + "Maven (./mvnw verify), which sets " + ROOT_PROPERTY);
        }
        Path repo = repository.get().toAbsolutePath().normalize();
        Path shared = repo.resolveSibling("shared").resolve("samples");
        if (Files.isDirectory(shared)) {
            return shared;
        }
        Path fetched = repo.resolve("target").resolve("samples");
        if (Files.isDirectory(fetched)) {
            return fetched;
        }
        return fail("no third-party sample folder: neither " + shared + " nor " + fetched + " exists; run "
                + repo.resolve("testdata/fetch-samples") + " (downloads the files pinned in testdata/samples.lock), "
                + "or set " + ENV + "=DIR");
    }

    /**
     * A sample file or folder by its path under the samples folder.
     *
     * @throws AssertionFailedError if it does not exist
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

    /**
     * The second, held-out set of C2PA files from the wild (AI generators, deep edit chains, capture apps,
     * CAWG identity, broken files), with a {@code README.md} whose table gives each file's source and the
     * reference validator's verdict.
     */
    public static Path c2paConformance2() {
        return file("c2pa-conformance-2");
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
}
