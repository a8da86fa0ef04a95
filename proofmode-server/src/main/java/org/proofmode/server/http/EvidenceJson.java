// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.proofmode.server.store.CustodyChain;
import org.proofmode.server.store.CustodyEntry;
import org.proofmode.server.store.CustodyLog;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.NotarizationStore;
import org.proofmode.server.store.ProofRow;

/** The JSON documents of the evidence API; field names are a stable contract (docs/http-api.md). */
public final class EvidenceJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private EvidenceJson() {}

    /** A stored item with its intake report, custody log and the state of its hash chain. */
    public static ObjectNode item(EvidenceStore.Item item, CustodyLog custody, List<ProofRow> proofs,
            List<NotarizationStore.Notarization> notarizations) {
        ObjectNode n = summary(item);
        n.set("report", parse(item.report()));
        ArrayNode ps = n.putArray("proofs");
        proofs.forEach(p -> ps.add(proof(p)));
        ObjectNode chain = n.putObject("custodyChain");
        CustodyChain.State st = custody.state();
        chain.put("intact", st.intact());
        chain.put("head", st.head());
        chain.put("length", st.length());
        st.brokenAt().ifPresent(i -> chain.put("brokenAt", i));
        st.problem().ifPresent(p -> chain.put("problem", p));
        ArrayNode cs = n.putArray("custody");
        for (CustodyEntry c : custody.lines()) {
            ObjectNode e = cs.addObject();
            e.put("at", c.at());
            e.put("action", c.action().name());
            e.put("actor", c.actor());
            e.put("remote", c.remote());
            c.verdict().ifPresent(v -> e.put("verdict", v));
            e.put("detail", c.detail());
            e.put("prev", c.prev());
            e.put("hash", c.hash());
        }
        n.set("notarizations", notarizations(notarizations));
        return n;
    }

    /** The short form of an item. */
    public static ObjectNode summary(EvidenceStore.Item item) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("sha256", item.sha256());
        n.put("name", item.name());
        n.put("size", item.size());
        n.put("verdict", item.verdict());
        n.put("receivedAt", item.receivedAt());
        n.put("url", "/api/v1/evidence/" + item.sha256());
        n.put("permalink", "/#/evidence/" + item.sha256());
        return n;
    }

    /** One searchable proof. */
    public static ObjectNode proof(ProofRow p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("evidence", p.evidenceSha256());
        n.put("proof", p.proofId());
        p.mediaSha256().ifPresent(v -> n.put("mediaSha256", v));
        p.signer().ifPresent(v -> n.put("signer", v));
        n.put("verdict", p.verdict());
        p.capturedAt().ifPresent(v -> n.put("capturedAt", v));
        p.proofTime().ifPresent(v -> n.put("proofTime", v));
        p.latitude().ifPresent(v -> n.put("latitude", v));
        p.longitude().ifPresent(v -> n.put("longitude", v));
        n.put("permalink", "/#/evidence/" + p.evidenceSha256() + "/" + p.proofId());
        return n;
    }

    /** Notarizations. */
    public static ArrayNode notarizations(List<NotarizationStore.Notarization> list) {
        ArrayNode a = MAPPER.createArrayNode();
        for (NotarizationStore.Notarization x : list) {
            ObjectNode n = a.addObject();
            n.put("id", x.id());
            n.put("text", x.text());
            n.put("mediaSha256", x.mediaSha256());
            x.fingerprint().ifPresent(v -> n.put("fingerprint", v));
            x.proofTime().ifPresent(v -> n.put("proofTime", v));
            n.put("receivedAt", x.receivedAt());
        }
        return a;
    }

    /** Renders a document. */
    public static String write(JsonNode n) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored report is not JSON", e);
        }
    }
}
