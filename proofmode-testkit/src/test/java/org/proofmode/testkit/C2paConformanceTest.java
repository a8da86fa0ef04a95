// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paStatus;

/**
 * Our C2PA reader against the reference validator (c2pa-rs as WebAssembly) over every file of the
 * conformance samples ({@code c2pa-conformance}) and of the reference's own samples ({@code c2pa}): the
 * verdict (Valid, Invalid, Trusted or none) and the failure codes of every manifest of the store (active
 * or ingredient) must agree. Both read without trust anchors, so {@code signingCredential.untrusted},
 * which the reference keeps out of the Invalid state, is left out of the comparison.
 *
 * <p>Every difference must be listed in {@code c2pa-conformance-differences.tsv} with the section of the
 * specification that justifies it ({@code justified}), or as {@code pending} with the reason it is not
 * yet agreed. The test fails on a difference that is not listed and on a listed difference that no longer
 * occurs, so the list stays exact. It prints the comparison as a table and writes it to
 * {@code target/c2pa-conformance.md}.
 */
class C2paConformanceTest {
    private static final String UNTRUSTED = C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED;
    private static final String DIFFERENCES = "/c2pa-conformance-differences.tsv";

    /** One file of the corpus and its media type. */
    private record Sample(String name, Path file, String mediaType) {}

    /** A verdict and the failure codes per manifest ({@code active} or the ingredient manifest's label). */
    private record Verdict(String state, TreeSet<String> codes) {
        String describe() {
            return codes.isEmpty() ? state : state + " " + String.join(", ", codes);
        }
    }

    /** A listed difference. */
    private record Listed(String kind, String section, String why) {}

    @Test
    void read_agreesWithReference_everyConformanceFileOrListedDifference(@TempDir Path work) throws Exception {
        Map<String, Listed> listed = listedDifferences();
        List<String> unexpected = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        StringBuilder table = new StringBuilder("| file | reference | ours | differences |\n|---|---|---|---|\n");
        List<Sample> corpus = corpus();
        List<C2paWasm.Result> refs = C2paWasm.validateAllKeepingRefusals(corpus.stream().map(s -> new C2paWasm.Asset(s.file(), s.mediaType())).toList(),
                Optional.empty(), work);
        for (int i = 0; i < corpus.size(); i++) {
            Sample s = corpus.get(i);
            Verdict ref = verdict(refs.get(i));
            Verdict ours = ours(s);
            List<String> diffs = differences(ref, ours);
            List<String> marks = new ArrayList<>();
            for (String d : diffs) {
                String key = s.name() + "\t" + d;
                seen.add(key);
                Listed l = listed.get(key);
                if (l == null) {
                    unexpected.add(s.name() + ": " + d);
                    marks.add("UNLISTED " + d);
                } else {
                    marks.add(l.kind() + " " + d);
                }
            }
            table.append("| `").append(s.name()).append("` | ").append(ref.describe()).append(" | ").append(ours.describe())
                    .append(" | ").append(marks.isEmpty() ? "agree" : String.join("; ", marks)).append(" |\n");
        }
        List<String> stale = listed.keySet().stream().filter(k -> !seen.contains(k)).map(k -> k.replace('\t', ':'))
                .collect(Collectors.toList());
        long pending = listed.values().stream().filter(l -> l.kind().equals("pending")).count();
        table.append("\nlisted differences: ").append(listed.size()).append(" (pending: ").append(pending).append(")\n");
        System.out.println(table);
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            Files.writeString(target.resolve("c2pa-conformance.md"), table, StandardCharsets.UTF_8);
        }
        assertThat(unexpected).as("differences from the reference not listed in " + DIFFERENCES + "\n" + table).isEmpty();
        assertThat(stale).as("listed differences that no longer occur (remove them from " + DIFFERENCES + ")").isEmpty();
    }

    @Test
    void validateAll_sameResultsAsOneRunPerFile_filesOfDifferentVerdicts(@TempDir Path work) {
        Path dir = Samples.c2paConformance();
        List<C2paWasm.Asset> assets = List.of(new C2paWasm.Asset(dir.resolve("PTS_INVALID_INGREDIENT.mp4"), "video/mp4"),
                new C2paWasm.Asset(dir.resolve("adobe-20220124-A.jpg"), "image/jpeg"),
                new C2paWasm.Asset(dir.resolve("adobe-20220124-E-dat-CA.jpg"), "image/jpeg"),
                new C2paWasm.Asset(dir.resolve("adobe-20220124-C.jpg"), "image/jpeg"));

        List<C2paWasm.Result> batch = C2paWasm.validateAll(assets, Optional.empty(), work);

        assertThat(batch).extracting(C2paWasm.Result::state).containsExactly("Invalid", "none", "Invalid", "Valid");
        for (int i = 0; i < assets.size(); i++) {
            assertThat(batch.get(i)).as(assets.get(i).file().getFileName().toString())
                    .isEqualTo(C2paWasm.validate(assets.get(i).file(), assets.get(i).mediaType(), Optional.empty()));
        }
    }

    @Test
    void read_ingredientSignatureMismatch_bothReaders_flippedByteInIngredientSignature(@TempDir Path work) throws Exception {
        Path original = Samples.c2paConformance().resolve("adobe-20220124-CACA.jpg");
        byte[] b = Files.readAllBytes(original);
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int label = text.indexOf("c2pa.signature\u0000");
        int cbor = text.indexOf("cbor", label);
        int boxStart = cbor - 4;
        int boxLength = ((b[boxStart] & 0xFF) << 24) | ((b[boxStart + 1] & 0xFF) << 16) | ((b[boxStart + 2] & 0xFF) << 8) | (b[boxStart + 3] & 0xFF);
        assertThat(text.indexOf("c2pa.signature\u0000", label + 1)).as("a second manifest follows the ingredient's").isGreaterThan(boxStart + boxLength);
        b[boxStart + boxLength - 8] ^= 0x01;
        Path damaged = work.resolve("ingredient-signature-flipped.jpg");
        Files.write(damaged, b);

        Verdict ref = reference(new Sample(damaged.getFileName().toString(), damaged, "image/jpeg"));
        Verdict ours = ours(new Sample(damaged.getFileName().toString(), damaged, "image/jpeg"));

        assertThat(ref.state()).isEqualTo("Invalid");
        assertThat(ref.codes()).singleElement().asString().endsWith(":claimSignature.mismatch").doesNotStartWith("active:");
        assertThat(ours).isEqualTo(ref);
        assertThat(reference(new Sample("original", original, "image/jpeg")).state()).isEqualTo("Valid");
    }

    @Test
    void read_boxesHashMismatch_bothReaders_flippedByteInImageDataOfBoxHashedJpeg(@TempDir Path work) throws Exception {
        Path original = Samples.c2paConformance2().resolve("bing_creator_cloud_surfing_puppy.jpg");
        byte[] b = Files.readAllBytes(original);
        b[b.length - 1000] ^= 0x01; // inside the entropy-coded data, far from any marker
        Path damaged = work.resolve("box-hash-flipped.jpg");
        Files.write(damaged, b);

        Verdict ref = reference(new Sample(damaged.getFileName().toString(), damaged, "image/jpeg"));
        Verdict ours = ours(new Sample(damaged.getFileName().toString(), damaged, "image/jpeg"));

        assertThat(ref).isEqualTo(new Verdict("Invalid", new TreeSet<>(List.of("active:" + C2paStatus.Codes.BOXES_HASH_MISMATCH))));
        assertThat(ours).isEqualTo(ref);
        assertThat(ours(new Sample("original", original, "image/jpeg")).state()).isEqualTo("Valid");
    }

    @Test
    void read_agreesWithReference_audioInMp4ContainerNamedM4a(@TempDir Path work) throws Exception {
        Path m4a = work.resolve("t6.m4a");
        Files.copy(Samples.c2paConformance2().resolve("truepic-lensdemo-t6-audio.mp4"), m4a);

        Verdict ref = reference(new Sample("t6.m4a", m4a, "audio/mp4"));
        Verdict ours = ours(new Sample("t6.m4a", m4a, "audio/mp4"));

        assertThat(ref.state()).isEqualTo("Valid");
        assertThat(ours).isEqualTo(ref);
    }

    @Test
    void corpus_coversEveryFile_conformanceFolderAndItsReadme() throws Exception {
        List<Sample> corpus = corpus();
        try (Stream<Path> files = Files.list(Samples.c2paConformance())) {
            List<String> inFolder = files.map(p -> p.getFileName().toString()).filter(n -> !n.equals("README.md")).sorted().toList();
            assertThat(corpus.stream().map(Sample::name).filter(n -> !n.startsWith("c2pa/") && !n.startsWith("c2pa-conformance-2/")).sorted().toList())
                    .containsExactlyElementsOf(inFolder);
        }
        try (Stream<Path> files = Files.list(Samples.c2paConformance2())) {
            List<String> inFolder = files.map(p -> "c2pa-conformance-2/" + p.getFileName()).filter(n -> !n.endsWith("/README.md")).sorted().toList();
            assertThat(corpus.stream().map(Sample::name).filter(n -> n.startsWith("c2pa-conformance-2/")).sorted().toList())
                    .containsExactlyElementsOf(inFolder);
        }
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(85);
    }

    /**
     * Every file of the conformance folder, with the media type its README's table gives (a file the
     * table does not name fails), and the reference's own samples.
     */
    private static List<Sample> corpus() throws IOException {
        Path dir = Samples.c2paConformance();
        Map<String, String> mime = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("README.md"), StandardCharsets.UTF_8)) {
            String[] cells = line.split("\\|");
            if (cells.length > 5 && cells[1].trim().startsWith("`")) {
                mime.put(cells[1].trim().replace("`", ""), cells[4].trim());
            }
        }
        List<Sample> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (name.equals("README.md")) {
                    continue;
                }
                String type = mime.get(name);
                assertThat(type).as(name + " is not in the table of " + dir.resolve("README.md")).isNotNull();
                out.add(new Sample(name, p, type));
            }
        }
        Path second = Samples.c2paConformance2();
        try (Stream<Path> files = Files.list(second)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (!name.equals("README.md")) {
                    out.add(new Sample("c2pa-conformance-2/" + name, p, mediaTypeOf(name)));
                }
            }
        }
        Path own = Samples.file("c2pa");
        try (Stream<Path> files = Files.list(own)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (!name.equals("README.md")) {
                    out.add(new Sample("c2pa/" + name, p, name.endsWith(".png") ? "image/png" : "image/jpeg"));
                }
            }
        }
        return out;
    }

    /** The media type of a file of the second set by its name, as the bar's MIME table gives it. */
    private static String mediaTypeOf(String name) {
        String ext = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        return switch (ext) {
            case "jpg", "jpeg" -> "image/jpeg";
            case "png" -> "image/png";
            case "webp" -> "image/webp";
            case "avif" -> "image/avif";
            case "heic" -> "image/heic";
            case "tiff", "tif" -> "image/tiff";
            case "mp4" -> "video/mp4";
            case "m4a" -> "audio/mp4";
            case "mp3" -> "audio/mpeg";
            case "wav" -> "audio/wav";
            default -> throw new AssertionError("no media type for " + name);
        };
    }

    private static Verdict reference(Sample s) {
        return verdict(C2paWasm.validate(s.file(), s.mediaType(), Optional.empty()));
    }

    /**
     * The reference's verdict and failure codes per manifest, {@code signingCredential.untrusted} left out.
     * A status whose URI names no manifest but a structure ({@code Cose_Sign1}, which c2pa-rs gives for a
     * claim signature it cannot parse) belongs to the active manifest.
     */
    private static Verdict verdict(C2paWasm.Result r) {
        TreeSet<String> codes = new TreeSet<>();
        for (C2paWasm.ManifestFailure f : r.manifests()) {
            if (!f.code().equals(UNTRUSTED)) {
                String manifest = f.manifest().equals("Cose_Sign1") ? "" : f.manifest();
                codes.add(scope(manifest, r.active()) + ":" + f.code());
            }
        }
        return new Verdict(r.state(), codes);
    }

    private static Verdict ours(Sample s) throws IOException {
        Optional<C2paReport> report = new C2paReader(List.of(), List.of()).read(s.file());
        if (report.isEmpty()) {
            return new Verdict("none", new TreeSet<>());
        }
        C2paReport r = report.get();
        TreeSet<String> codes = new TreeSet<>();
        for (C2paStatus st : r.statuses()) {
            if (st.outcome() == C2paStatus.Outcome.FAILURE && !st.code().equals(UNTRUSTED)) {
                codes.add(scope(manifestOf(st.url()), r.activeManifest()) + ":" + st.code());
            }
        }
        String state = r.state().name().toLowerCase(Locale.ROOT);
        return new Verdict(Character.toUpperCase(state.charAt(0)) + state.substring(1), codes);
    }

    /** {@code active} for the active manifest (or a status that names none), else the manifest's label. */
    private static String scope(String manifest, String active) {
        return manifest.isEmpty() || manifest.equals(active) ? "active" : manifest;
    }

    /** The manifest label a status URI points into, as the reference's wrapper derives it. */
    private static String manifestOf(String url) {
        String prefix = "self#jumbf=/c2pa/";
        if (url.startsWith(prefix)) {
            String rest = url.substring(prefix.length());
            int slash = rest.indexOf('/');
            return slash < 0 ? rest : rest.substring(0, slash);
        }
        return url.startsWith("self#jumbf=") || url.contains("/") ? "" : url;
    }

    /** The differences, each in the form the differences file lists. */
    private static List<String> differences(Verdict ref, Verdict ours) {
        List<String> out = new ArrayList<>();
        if (!ref.state().equals(ours.state())) {
            out.add("verdict reference=" + ref.state() + " ours=" + ours.state());
        }
        for (String c : ref.codes()) {
            if (!ours.codes().contains(c)) {
                out.add("reference-only " + c);
            }
        }
        for (String c : ours.codes()) {
            if (!ref.codes().contains(c)) {
                out.add("ours-only " + c);
            }
        }
        return out;
    }

    /**
     * The listed differences: tab-separated file, difference, kind ({@code justified} or
     * {@code pending}), specification section, why; {@code #} starts a comment line.
     */
    private static Map<String, Listed> listedDifferences() throws IOException {
        Map<String, Listed> out = new LinkedHashMap<>();
        try (var in = C2paConformanceTest.class.getResourceAsStream(DIFFERENCES)) {
            assertThat(in).as(DIFFERENCES + " on the test class path").isNotNull();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                assertThat(f).as("five tab-separated fields: " + line).hasSize(5);
                assertThat(f[2]).as("kind of: " + line).isIn("justified", "pending");
                assertThat(f[3]).as("section of: " + line).isNotBlank();
                assertThat(f[4]).as("reason of: " + line).isNotBlank();
                Listed previous = out.put(f[0] + "\t" + f[1], new Listed(f[2], f[3], f[4]));
                assertThat(previous).as("listed twice: " + line).isNull();
            }
        }
        return out;
    }
}
