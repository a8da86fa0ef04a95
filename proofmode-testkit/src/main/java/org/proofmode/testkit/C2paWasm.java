// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
     * @param failure failure status codes
     * @param success success status codes
     * @param informational informational status codes
     * @param ingredients the active manifest's ingredients
     */
    public record Result(String state, List<String> failure, List<String> success, List<String> informational,
            List<Ingredient> ingredients) {
        /** Copies the lists. */
        public Result {
            failure = List.copyOf(failure);
            success = List.copyOf(success);
            informational = List.copyOf(informational);
            ingredients = List.copyOf(ingredients);
        }
    }

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
            JsonNode n = JSON.readTree(r.stdout());
            return new Result(n.path("state").asText(), list(n.path("failure")), list(n.path("success")),
                    list(n.path("informational")), ingredients(n.path("ingredients")));
        } catch (IOException e) {
            return fail("the C2PA validator printed no JSON: " + r.describe(), e);
        }
    }

    private static List<Ingredient> ingredients(JsonNode a) {
        List<Ingredient> out = new ArrayList<>();
        a.forEach(x -> out.add(new Ingredient(x.path("relationship").asText(), x.path("title").asText(), x.path("instance_id").asText())));
        return out;
    }

    private static List<String> list(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static synchronized Path installed() {
        Path dir = folder();
        if (!Files.isDirectory(dir.resolve("node_modules/@contentauth/c2pa-wasm"))) {
            Path npm = ExternalTool.require("npm");
            ProcessResult r = ExternalTool.run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund", "--prefix", dir.toString()),
                    Map.of(), Duration.ofMinutes(5));
            if (!r.succeeded()) {
                return fail("npm ci in " + dir + " failed: " + r.describe());
            }
        }
        return dir;
    }
}
