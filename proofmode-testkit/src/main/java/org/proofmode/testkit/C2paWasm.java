// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The reference C2PA validator (c2pa-rs compiled to WebAssembly, npm {@code @contentauth/c2pa-wasm},
 * pinned in {@code proofmode-testkit/c2pa-validator/package-lock.json}) run by Node.
 *
 * <p>The npm package is installed with {@code npm ci} by {@code .ci/run}; when its {@code node_modules}
 * is missing this helper runs {@code npm ci} itself. A missing {@code node} or {@code npm} fails the test.
 */
public final class C2paWasm {
    /** The system property naming the validator folder (set by the build). */
    public static final String PROPERTY = "proofmode.c2paValidator";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What the reference validator reported for the active manifest.
     *
     * @param state {@code Invalid}, {@code Valid}, {@code Trusted}, or {@code none} without a manifest
     * @param active the active manifest's label (empty without one)
     * @param failure failure status codes
     * @param success success status codes
     * @param informational informational status codes
     * @param ingredients the active manifest's ingredients
     * @param manifests every failure of the store (active and ingredient manifests), with its manifest
     * @param error the reference's read error when it refused the store (then {@code state} is
     *     {@code Invalid} and the code the reference's tests expect stands in {@code failure})
     * @param labels the label of every manifest of the store, as the reference read it
     */
    public record Result(String state, String active, List<String> failure, List<String> success, List<String> informational,
            List<Ingredient> ingredients, List<ManifestFailure> manifests, Optional<String> error, List<String> labels) {
        /** Copies the lists. */
        public Result {
            Objects.requireNonNull(active, "active");
            failure = List.copyOf(failure);
            success = List.copyOf(success);
            informational = List.copyOf(informational);
            ingredients = List.copyOf(ingredients);
            manifests = List.copyOf(manifests);
            Objects.requireNonNull(error, "error");
            labels = List.copyOf(labels);
        }
    }

    /**
     * One failure status of the store as the reference reports it.
     *
     * @param manifest the label of the manifest the status's URI points into; empty when the URI names
     *     none (then it belongs to the active manifest)
     * @param code the status code
     */
    public record ManifestFailure(String manifest, String code) {}

    /**
     * An ingredient as the reference validator reads it.
     *
     * @param relationship {@code parentOf}, {@code componentOf} or {@code inputTo}
     * @param title its title
     * @param instanceId its instance id
     */
    public record Ingredient(String relationship, String title, String instanceId) {}

    private C2paWasm() {}

    /** The validator's folder. */
    public static Path folder() {
        String p = System.getProperty(PROPERTY);
        if (p == null) {
            return fail("system property " + PROPERTY + " is not set (the Maven build sets it)");
        }
        return Path.of(p);
    }

    /**
     * Validates a file.
     *
     * @param file the asset
     * @param mediaType {@code image/jpeg}, {@code image/png}…
     * @param anchors a PEM file of trust anchors, or empty
     */
    public static Result validate(Path file, String mediaType, Optional<Path> anchors) {
        Path node = ExternalTool.require("node");
        Path dir = installed();
        List<String> cmd = new ArrayList<>(List.of(node.toString(), dir.resolve("validate.mjs").toString(),
                file.toAbsolutePath().toString(), mediaType));
        anchors.ifPresent(a -> cmd.add(a.toAbsolutePath().toString()));
        ProcessResult r = ExternalTool.run(cmd, Map.of(), Duration.ofSeconds(60));
        if (!r.succeeded()) {
            return fail("the C2PA validator failed: " + r.describe());
        }
        try {
            return result(JSON.readTree(r.stdout()));
        } catch (IOException e) {
            return fail("the C2PA validator printed no JSON: " + r.describe(), e);
        }
    }

    /**
     * An asset to validate in a batch.
     *
     * @param file the asset
     * @param mediaType {@code image/jpeg}, {@code video/mp4}…
     */
    public record Asset(Path file, String mediaType) {
        /** Checks the fields: the list the validator reads is tab- and line-separated. */
        public Asset {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(mediaType, "mediaType");
            if (mediaType.isEmpty() || (mediaType + file).chars().anyMatch(c -> c == '\t' || c == '\n' || c == '\r')) {
                throw new IllegalArgumentException("media type or path empty or with a tab or line break: " + mediaType + " " + file);
            }
        }
    }

    /**
     * Validates several files in one run of the validator (it loads once), each as {@link #validate}
     * would; a file the validator could not read fails the test, naming it.
     *
     * @param assets the files
     * @param anchors a PEM file of trust anchors, or empty
     * @param work a folder for the list of files
     * @return the results, in the order of {@code assets}
     */
    public static List<Result> validateAll(List<Asset> assets, Optional<Path> anchors, Path work) {
        return validateAll(assets, anchors, work, false);
    }

    /**
     * Validates several files in one run as {@link #validateAll(List, Optional, Path)} does, except that a
     * file the validator refuses to read (c2pa-rs returned an error, such as {@code PrereleaseError} or
     * {@code AssertionDecoding}) gets the state {@code Error} with the validator's message in
     * {@link Result#error()}, instead of failing the test: files from the wild include such files.
     *
     * @param assets the files
     * @param anchors a PEM file of trust anchors, or empty
     * @param work a folder for the list of files
     * @return the results, in the order of {@code assets}
     */
    public static List<Result> validateAllKeepingRefusals(List<Asset> assets, Optional<Path> anchors, Path work) {
        return validateAll(assets, anchors, work, true);
    }

    private static List<Result> validateAll(List<Asset> assets, Optional<Path> anchors, Path work, boolean keepRefusals) {
        Path node = ExternalTool.require("node");
        Path dir = installed();
        StringBuilder list = new StringBuilder();
        for (Asset a : assets) {
            list.append(a.mediaType()).append('\t').append(a.file().toAbsolutePath()).append('\n');
        }
        Path listFile;
        try {
            listFile = Files.createTempFile(work, "c2pa-validate", ".tsv");
            Files.writeString(listFile, list, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return fail("cannot write the list of files for the C2PA validator in " + work, e);
        }
        List<String> cmd = new ArrayList<>(List.of(node.toString(), dir.resolve("validate.mjs").toString(), "--batch",
                listFile.toAbsolutePath().toString()));
        anchors.ifPresent(a -> cmd.add(a.toAbsolutePath().toString()));
        ProcessResult r = ExternalTool.run(cmd, Map.of(), Duration.ofSeconds(60L + 30L * assets.size()));
        if (!r.succeeded()) {
            return fail("the C2PA validator failed: " + r.describe());
        }
        List<String> lines = r.stdout().lines().filter(l -> !l.isBlank()).toList();
        if (lines.size() != assets.size()) {
            return fail("the C2PA validator printed " + lines.size() + " results for " + assets.size() + " files: " + r.describe());
        }
        List<Result> out = new ArrayList<>();
        for (int i = 0; i < assets.size(); i++) {
            String expected = assets.get(i).file().toAbsolutePath().toString();
            try {
                JsonNode n = JSON.readTree(lines.get(i));
                if (!n.path("file").asText().equals(expected)) {
                    return fail("the C2PA validator's result " + (i + 1) + " is for " + n.path("file").asText() + ", not " + expected);
                }
                if (n.has("failed") && keepRefusals) {
                    out.add(new Result("Error", "", List.of(), List.of(), List.of(), List.of(), List.of(),
                            Optional.of(n.path("failed").asText()), List.of()));
                    continue;
                }
                if (n.has("failed")) {
                    return fail("the C2PA validator could not read " + expected + ": " + n.path("failed").asText());
                }
                out.add(result(n));
            } catch (IOException e) {
                return fail("the C2PA validator printed no JSON for " + expected + ": " + lines.get(i), e);
            }
        }
        return out;
    }

    private static Result result(JsonNode n) {
        return new Result(n.path("state").asText(), n.path("active").asText(), list(n.path("failure")), list(n.path("success")),
                list(n.path("informational")), ingredients(n.path("ingredients")), manifestFailures(n.path("manifests")),
                n.hasNonNull("error") ? Optional.of(n.get("error").asText()) : Optional.empty(), list(n.path("labels")));
    }

    private static List<Ingredient> ingredients(JsonNode a) {
        List<Ingredient> out = new ArrayList<>();
        a.forEach(x -> out.add(new Ingredient(x.path("relationship").asText(), x.path("title").asText(), x.path("instance_id").asText())));
        return out;
    }

    private static List<ManifestFailure> manifestFailures(JsonNode a) {
        List<ManifestFailure> out = new ArrayList<>();
        a.forEach(x -> out.add(new ManifestFailure(x.path("manifest").asText(), x.path("code").asText())));
        return out;
    }

    private static List<String> list(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static Path installed() {
        return Npm.ci(folder(), "node_modules/@contentauth/c2pa-wasm");
    }
}
