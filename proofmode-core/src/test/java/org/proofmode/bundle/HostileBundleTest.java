// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Zips made to hurt a verifier: unsafe names, too many entries, duplicates, decompression bombs,
 * truncation. Each must end in {@link Failure#BAD_DATA} or an INVALID report, write nothing, and
 * never surface another exception.
 */
class HostileBundleTest {
    /** 600 MiB of zeros deflate to about 600 KB. */
    private static final long BOMB_SIZE = 600L << 20;

    @TempDir
    static Path proved;

    private static Path media;
    private static Path folder;
    private static String h;
    private static RawZip.Deflated bomb;

    @TempDir
    Path root;

    private Path in;

    @BeforeAll
    static void proveAndMakeBomb() {
        ProofMode pm = ProofMode.at(proved.resolve("home"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        media = TestHomes.jpegLike(proved.resolve("photo.jpg"), 4, 100);
        ProveResult r = TestHomes.prove(pm, key, media);
        folder = r.proofFolder().orElseThrow();
        h = r.sha256().orElseThrow();
        bomb = RawZip.Deflated.zeros(BOMB_SIZE);
    }

    @BeforeEach
    void makeInputFolder() throws IOException {
        in = Files.createDirectory(root.resolve("in"));
    }

    @Test
    void verify_valid_honestRawZipOfProof() {
        Path zip = RawZip.write(in.resolve("bundle.zip"), proofEntries());

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil.txt", "a/../../evil.txt", "..", "/etc/proofmode-hostile-test", "/evil.txt",
        "C:\\proofmode-hostile-test", "C:/evil.txt", "c:evil.txt", "a\\b.txt", "..\\evil.txt", "\\evil.txt",
        "evil\u0000.txt", ""})
    void open_failsWithBadDataAndWritesNothing_unsafeEntryName(String name) {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.add(RawZip.Entry.stored(name, "x".getBytes(StandardCharsets.UTF_8)));
        Path zip = RawZip.write(in.resolve("bundle.zip"), entries);

        assertBadData(() -> Bundle.open(zip, BundleLimits.DEFAULT), "bundle.zip");
        assertBadData(() -> verifier().verify(zip, Optional.empty()), "bundle.zip");

        assertWroteNothing();
        assertThat(Path.of("/etc/proofmode-hostile-test")).doesNotExist();
        assertThat(Path.of("C:\\proofmode-hostile-test")).doesNotExist();
    }

    @Test
    void open_failsWithBadData_3000Entries() throws IOException {
        Path zip = in.resolve("many.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (int i = 0; i < 3_000; i++) {
                z.putNextEntry(new ZipEntry("f" + i + ".txt"));
                z.write('x');
                z.closeEntry();
            }
        }

        assertBadData(() -> Bundle.open(zip, BundleLimits.DEFAULT), "many.zip");
        assertBadData(() -> verifier().verify(zip, Optional.empty()), "many.zip");
        assertWroteNothing();
    }

    @Test
    void open_failsWithBadData_3000DirectoryEntries() throws IOException {
        Path zip = in.resolve("dirs.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (int i = 0; i < 3_000; i++) {
                z.putNextEntry(new ZipEntry("d" + i + "/"));
                z.closeEntry();
            }
        }

        assertBadData(() -> Bundle.open(zip, BundleLimits.DEFAULT), "dirs.zip");
    }

    @Test
    void open_failsWithBadData_duplicateEntryName() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.add(RawZip.Entry.stored(h + ".proof.json", "{\"File Hash SHA256\":\"other\"}".getBytes(StandardCharsets.UTF_8)));
        Path zip = RawZip.write(in.resolve("dup.zip"), entries);

        assertBadData(() -> Bundle.open(zip, BundleLimits.DEFAULT), "dup.zip");
        assertBadData(() -> verifier().verify(zip, Optional.empty()), "dup.zip");
        assertWroteNothing();
    }

    @Test
    void open_failsWithBadData_namesDifferingOnlyInCase() throws IOException {
        Path zip = in.resolve("case.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (String name : List.of("Photo.jpg", "photo.jpg")) {
                z.putNextEntry(new ZipEntry(name));
                z.write(Files.readAllBytes(media));
                z.closeEntry();
            }
        }

        assertBadData(() -> Bundle.open(zip, BundleLimits.DEFAULT), "case.zip");
    }

    @Test
    void verify_notValid_sameProofFileNameInTwoFolders() {
        List<RawZip.Entry> entries = new ArrayList<>();
        entries.add(RawZip.Entry.stored("forged/" + h + ".proof.json",
                ("{\"File Hash SHA256\":\"" + h + "\",\"Notes\":\"forged, never signed\"}").getBytes(StandardCharsets.UTF_8)));
        proofEntries().forEach(e -> entries.add(e.named("real/" + e.name())));
        Path zip = RawZip.write(in.resolve("twice.zip"), entries);

        try {
            VerificationReport r = verifier().verify(zip, Optional.empty());
            assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        } catch (ProofModeException e) {
            assertThat(e.failure()).isEqualTo(Failure.BAD_DATA);
        }
    }

    @Test
    void verify_failsWithBadData_decompressionBombAsMedia() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries(false));
        entries.add(bomb.entry(media.getFileName().toString()));
        Path zip = RawZip.write(in.resolve("bomb.zip"), entries);

        assertBadData(() -> verifier().verify(zip, Optional.empty()), "photo.jpg");
        assertWroteNothing();
    }

    @Test
    void verify_failsWithBadData_decompressionBombAsMediaDeclaringSmallSize() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries(false));
        entries.add(bomb.entry(media.getFileName().toString()).declaring(1_000));
        Path zip = RawZip.write(in.resolve("bomb.zip"), entries);

        assertBadData(() -> verifier().verify(zip, Optional.empty()), "photo.jpg");
        assertWroteNothing();
    }

    @Test
    void verify_failsWithBadData_decompressionBombAsProofJson() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.removeIf(e -> e.name().equals(h + ".proof.json"));
        entries.add(bomb.entry(h + ".proof.json"));
        Path zip = RawZip.write(in.resolve("bomb.zip"), entries);

        assertBadData(() -> verifier().verify(zip, Optional.empty()), ".proof.json");
    }

    @Test
    void verify_failsWithBadData_decompressionBombAsProofJsonDeclaringSmallSize() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.removeIf(e -> e.name().equals(h + ".proof.json"));
        entries.add(bomb.entry(h + ".proof.json").declaring(1_000));
        Path zip = RawZip.write(in.resolve("bomb.zip"), entries);

        assertBadData(() -> verifier().verify(zip, Optional.empty()), ".proof.json");
    }

    @Test
    void verify_failsWithBadDataNamingFile_truncatedZip() throws IOException {
        Path whole = root.resolve("whole.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(folder, Optional.of(media))), whole, false);
        byte[] bytes = Files.readAllBytes(whole);
        assertThat(verifier().verify(whole, Optional.empty()).verdict()).isEqualTo(Verdict.VALID);
        Path half = Files.write(in.resolve("half.zip"), Arrays.copyOf(bytes, bytes.length / 2));

        assertBadData(() -> Bundle.open(half, BundleLimits.DEFAULT), "half.zip");
        assertBadData(() -> verifier().verify(half, Optional.empty()), "half.zip");
        assertWroteNothing();
    }

    @Test
    void verify_failsWithBadDataNamingFile_notAZip() throws IOException {
        Path text = Files.writeString(in.resolve("notes.zip"), "this is not a zip archive\n");
        Path empty = Files.write(root.resolve("empty-file.zip"), new byte[0]);

        assertBadData(() -> verifier().verify(text, Optional.empty()), "notes.zip");
        assertBadData(() -> verifier().verify(empty, Optional.empty()), "empty-file.zip");
    }

    @Test
    void verify_invalidProofMissing_emptyZip() throws IOException {
        Path zip = in.resolve("empty.zip");
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(out)) {
            z.finish();
        }

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find(CheckCodes.BUNDLE_PROOF_MISSING)).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(Status.FAIL));
        assertThat(r.proofs()).isEmpty();
    }

    @Test
    void verify_invalidSignatureMissing_zipWithoutCsvSignature() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.removeIf(e -> e.name().equals(h + ".proof.csv.asc"));
        Path zip = RawZip.write(in.resolve("nosig.zip"), entries);

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find("signature.proofCsv.missing")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(Status.FAIL));
        assertThat(r.has("signature.proofJson.valid")).isTrue();
    }

    @Test
    void verify_invalidSignatureMissing_zipWithoutMediaSignature() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.removeIf(e -> e.name().equals(h + ".asc"));
        Path zip = RawZip.write(in.resolve("nosig.zip"), entries);

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find("signature.media.missing")).hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(Status.FAIL));
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
    }

    @Test
    void verify_invalidSignatureMalformed_zipWithGarbageJsonSignature() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.replaceAll(e -> e.name().equals(h + ".proof.json.asc")
                ? RawZip.Entry.stored(e.name(), "garbage, not a signature\n".getBytes(StandardCharsets.UTF_8)) : e);
        Path zip = RawZip.write(in.resolve("garbage.zip"), entries);

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find("signature.proofJson.malformed")).hasValueSatisfying(c -> {
            assertThat(c.status()).isEqualTo(Status.FAIL);
            assertThat(c.subject()).isEqualTo(h + ".proof.json.asc");
        });
        assertThat(r.has("signature.proofCsv.valid")).isTrue();
    }

    @Test
    void verify_invalidSignatureMalformed_zipWithEmptyMediaSignature() {
        List<RawZip.Entry> entries = new ArrayList<>(proofEntries());
        entries.replaceAll(e -> e.name().equals(h + ".asc") ? RawZip.Entry.stored(e.name(), new byte[0]) : e);
        Path zip = RawZip.write(in.resolve("empty-sig.zip"), entries);

        VerificationReport r = verifier().verify(zip, Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.malformed")).isTrue();
    }

    private static Verifier verifier() {
        return new Verifier(List.of(), BundleLimits.DEFAULT);
    }

    /** The media and every proof file, as honest STORED entries. */
    private static List<RawZip.Entry> proofEntries() {
        return proofEntries(true);
    }

    private static List<RawZip.Entry> proofEntries(boolean withMedia) {
        List<RawZip.Entry> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            if (withMedia) {
                out.add(RawZip.Entry.stored(media.getFileName().toString(), Files.readAllBytes(media)));
            }
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                out.add(RawZip.Entry.stored(f.getFileName().toString(), Files.readAllBytes(f)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The test's folders hold only the input zip(s) they held before: nothing was extracted. */
    private void assertWroteNothing() {
        try (Stream<Path> inFiles = Files.list(in); Stream<Path> rootFiles = Files.list(root)) {
            assertThat(inFiles.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".zip")).toList()).isEmpty();
            assertThat(rootFiles.map(p -> p.getFileName().toString()).filter(n -> !n.equals("in") && !n.endsWith(".zip")).toList())
                    .isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertBadData(Runnable action, String namePart) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(ProofModeException.class, e -> {
            assertThat(e.failure()).as(e.getMessage()).isEqualTo(Failure.BAD_DATA);
            assertThat(e.getMessage()).contains(namePart);
        });
    }
}
