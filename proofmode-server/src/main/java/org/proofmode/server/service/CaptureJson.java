// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.proofmode.collect.CollectionRecord;

/**
 * The capture of a collection as the API shows it ({@code collection} in a collection's report,
 * docs/http-api.md): what was asked for and where it came from, when, by whom, over which TLS chain, and
 * the media kept. Every text is the collector's or the page's, untrusted: clients show it as text.
 */
final class CaptureJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CaptureJson() {}

    static ObjectNode of(CollectionRecord r) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("url", r.url());
        n.put("finalUrl", r.finalUrl());
        if (r.title() != null) {
            n.put("title", r.title());
        }
        n.put("collected", r.collected());
        putIf(n, "collector", r.collector());
        putIf(n, "tool", r.tool());
        putIf(n, "method", r.method());
        putIf(n, "purpose", r.purpose());
        putIf(n, "notes", r.notes());
        if (r.tls() != null) {
            ObjectNode t = n.putObject("tls");
            putIf(t, "subject", r.tls().subject());
            putIf(t, "issuer", r.tls().issuer());
            putIf(t, "serverSha256", r.tls().serverSha256());
            t.put("certificates", r.tls().certificates());
        }
        n.put("warcSha256", r.warc().sha256());
        n.put("records", r.records().size());
        ArrayNode media = n.putArray("media");
        for (CollectionRecord.MediaEntry m : r.media()) {
            ObjectNode e = media.addObject();
            putIf(e, "file", m.file());
            putIf(e, "uri", m.uri());
            putIf(e, "sha256", m.sha256());
        }
        ArrayNode skipped = n.putArray("skipped");
        for (CollectionRecord.Skipped s : r.skipped()) {
            ObjectNode e = skipped.addObject();
            putIf(e, "uri", s.uri());
            putIf(e, "why", s.why());
        }
        return n;
    }

    private static void putIf(ObjectNode n, String field, String value) {
        if (value != null) {
            n.put(field, value);
        }
    }
}
