// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.StampResult;

/**
 * The {@code --json} output of the commands that report results ({@code prove}, {@code export},
 * {@code publish}, {@code timestamp}, {@code notarize}): JSON lines, one object per result, written as each
 * is known. Text from outside (file names, a server's answer) is escaped by the JSON writer.
 */
final class JsonOut {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonOut() {}

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Prints one object on one line. */
    static void println(PrintWriter out, JsonNode n) {
        try {
            out.println(MAPPER.writeValueAsString(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out.flush();
    }

    /** A timestamp result: {@code {"sha256", "kind": "rfc3161"|"ots", "outcome", "detail"}}. */
    static ObjectNode stamp(StampResult r) {
        return object().put("sha256", r.sha256()).put("kind", r.kind() == StampResult.Kind.RFC3161 ? "rfc3161" : "ots")
                .put("outcome", r.outcome().name().toLowerCase(Locale.ROOT)).put("detail", r.detail());
    }

    static ArrayNode stamps(List<StampResult> results) {
        ArrayNode a = MAPPER.createArrayNode();
        results.forEach(r -> a.add(stamp(r)));
        return a;
    }

    /** An item that could not be done: {@code {"<key>": item, "error": {"exitCode", "message"}}}, as verify's batch writes it. */
    static ObjectNode error(String key, String item, ProofModeException e) {
        ObjectNode n = object().put(key, item);
        n.putObject("error").put("exitCode", ExitCodes.of(e.failure())).put("message", e.getMessage());
        return n;
    }
}
