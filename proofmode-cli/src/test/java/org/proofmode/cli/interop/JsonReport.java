// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.proofmode.testkit.ProcessResult;

/**
 * The JSON report of {@code proofmode verify --json} for one bundle, read with Jackson.
 *
 * @param root the parsed document
 */
record JsonReport(JsonNode root) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Parses the standard output of a {@code verify --json} run; fails the test if it is not JSON. */
    static JsonReport of(ProcessResult r) {
        try {
            JsonNode root = MAPPER.readTree(r.stdout());
            assertThat(root).as(r.describe()).isNotNull();
            assertThat(root.isObject()).as(r.describe()).isTrue();
            return new JsonReport(root);
        } catch (IOException e) {
            throw new AssertionError("verify --json printed no valid JSON: " + r.describe(), e);
        }
    }

    /** The overall verdict: INVALID, VALID or TRUSTED. */
    String verdict() {
        return root.path("verdict").asText();
    }

    /** Every check of the bundle and of its proofs. */
    List<JsonNode> checks() {
        List<JsonNode> out = new ArrayList<>();
        root.path("checks").forEach(out::add);
        root.path("proofs").forEach(p -> p.path("checks").forEach(out::add));
        return out;
    }

    /** The failed checks: code to subject, sorted by code. */
    Map<String, String> failures() {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode c : checks()) {
            if (c.path("status").asText().equals("FAIL")) {
                out.put(c.path("code").asText(), c.path("subject").asText());
            }
        }
        return out;
    }

    /** The status of the check with this code (PASS, FAIL, WARN, INFO), or "" if none has it. */
    String status(String code) {
        return checks().stream().filter(c -> c.path("code").asText().equals(code)).map(c -> c.path("status").asText())
                .findFirst().orElse("");
    }

    /** The signer's fingerprint in the first proof, or "" if none. */
    String signerFingerprint() {
        return root.path("proofs").path(0).path("signer").path("fingerprint").asText();
    }
}
