// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON form of a {@link VerificationReport}: the same document from the library, the CLI
 * ({@code verify --json}) and the server. Field names are a stable contract.
 */
public final class ReportJson {
    /** The version of this JSON layout. */
    public static final int FORMAT_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {}

    /** Renders one report. */
    public static String write(VerificationReport report) {
        return render(toNode(report));
    }

    /** Renders several reports as {@code {"reports": [...]}} with an overall verdict. */
    public static String write(List<VerificationReport> reports, Verdict overall) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("formatVersion", FORMAT_VERSION);
        root.put("verdict", overall.name());
        ArrayNode arr = root.putArray("reports");
        reports.forEach(r -> arr.add(toNode(r)));
        return render(root);
    }

    /** The report as a JSON tree. */
    public static ObjectNode toNode(VerificationReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("formatVersion", FORMAT_VERSION);
        root.put("source", report.source());
        root.put("verdict", report.verdict().name());
        checks(root.putArray("checks"), report.checks());
        ArrayNode proofs = root.putArray("proofs");
        for (ProofReport p : report.proofs()) {
            ObjectNode n = proofs.addObject();
            n.put("id", p.id());
            p.sha256().ifPresent(h -> n.put("sha256", h));
            p.media().ifPresent(m -> n.put("media", m));
            n.put("verdict", p.verdict().name());
            p.signer().ifPresent(s -> {
                ObjectNode sn = n.putObject("signer");
                sn.put("fingerprint", s.fingerprint());
                sn.put("algorithm", s.algorithm());
                sn.put("userId", s.userId());
                sn.put("trusted", s.trusted());
            });
            checks(n.putArray("checks"), p.checks());
            ObjectNode times = n.putObject("times");
            p.times().forEach(times::put);
            ObjectNode context = n.putObject("context");
            ContextSummary.of(p.record()).forEach(context::put);
            ObjectNode rec = n.putObject("record");
            p.record().forEach(rec::put);
        }
        return root;
    }

    /**
     * Reads a report back from its JSON tree (as {@link #toNode(VerificationReport)} wrote it, such as a
     * result an evidence server kept): the same report, so that a document made from it says what the
     * verification said. The {@code context} summary is derived again from {@code record}.
     *
     * @throws IllegalArgumentException if a field is missing or not what this layout writes
     */
    public static VerificationReport read(JsonNode root) {
        List<ProofReport> proofs = new ArrayList<>();
        for (JsonNode n : array(root, "proofs")) {
            Optional<Signer> signer = Optional.empty();
            JsonNode s = n.get("signer");
            if (s != null && s.isObject()) {
                signer = Optional.of(new Signer(text(s, "fingerprint"), text(s, "algorithm"), text(s, "userId"), s.path("trusted").asBoolean()));
            }
            proofs.add(new ProofReport(text(n, "id"), optional(n, "sha256"), optional(n, "media"), Verdict.valueOf(text(n, "verdict")),
                    checks(array(n, "checks")), signer, strings(n.get("record")), strings(n.get("times"))));
        }
        return new VerificationReport(text(root, "source"), Verdict.valueOf(text(root, "verdict")), checks(array(root, "checks")), proofs);
    }

    private static List<Check> checks(JsonNode arr) {
        List<Check> out = new ArrayList<>();
        for (JsonNode c : arr) {
            out.add(new Check(text(c, "code"), Status.valueOf(text(c, "status")), text(c, "subject"), text(c, "message")));
        }
        return out;
    }

    private static JsonNode array(JsonNode n, String field) {
        JsonNode a = n.get(field);
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException("not a verification report: no array " + field);
        }
        return a;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("not a verification report: no text " + field);
        }
        return v.asText();
    }

    private static Optional<String> optional(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }

    private static Map<String, String> strings(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n != null && n.isObject()) {
            n.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    /**
     * A comparison of two media ({@link MediaComparison}) as a JSON tree: {@code relation}, its
     * {@code status} (PASS, WARN or FAIL) and {@code outcome} (the relation in words), each side
     * ({@code name}, {@code kind} "proof" or "media", the proof's {@code verdict}, {@code sha256}), the
     * checks that show the relation, and {@code notes} (why a hash could not be made).
     */
    public static ObjectNode toNode(MediaComparison.Side a, MediaComparison.Side b, MediaComparison.Result result, List<String> notes) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("formatVersion", FORMAT_VERSION);
        root.put("relation", result.relation().name());
        root.put("status", result.relation().status().name());
        root.put("outcome", result.relation().words());
        ArrayNode sides = root.putArray("sides");
        for (MediaComparison.Side s : List.of(a, b)) {
            ObjectNode n = sides.addObject();
            n.put("name", s.name());
            n.put("kind", s.proof().isPresent() ? "proof" : "media");
            s.proof().ifPresent(v -> n.put("verdict", v.name()));
            s.sha256().ifPresent(h -> n.put("sha256", h));
        }
        checks(root.putArray("checks"), result.checks());
        ArrayNode noteArr = root.putArray("notes");
        notes.forEach(noteArr::add);
        return root;
    }

    private static void checks(ArrayNode arr, List<Check> checks) {
        for (Check c : checks) {
            ObjectNode n = arr.addObject();
            n.put("code", c.code());
            n.put("status", c.status().name());
            n.put("subject", c.subject());
            n.put("message", c.message());
        }
    }

    private static String render(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
