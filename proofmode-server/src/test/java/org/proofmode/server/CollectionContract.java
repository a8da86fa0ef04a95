// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.assertProblem;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.proofmode.ProofMode;
import org.proofmode.server.store.TokenScope;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.HttpsSite;

/**
 * Collections ({@code proofmode collect}) sent as bundles are: verified, kept with custody and a log entry,
 * found by the page's address; part of {@link ApiContract}, so run on every database engine.
 */
interface CollectionContract {
    /** A hostile page title: terminal escapes, markup and a bidirectional override. */
    String HOSTILE = "Fire \u001b]0;owned\u0007\u001b[2J <b>bold</b><img src=x onerror=alert(1)> \u202Eevil";

    /** The server under test. */
    TestServer srv();

    /** An upload token of it (unscoped: it may read everything). */
    String token();

    /** A folder for the test's files. */
    Path tmp();

    /** The key that signs the test bundles. */
    ProofMode signer();

    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    default void collection_isKeptAndFoundByUrl_withCustodyLogEntryAndItsTitleAsSent() throws Exception {
        try (HttpsSite site = HttpsSite.start()) {
            Path zip = TestCollections.archive(signer(), site, tmp().resolve("collections-found"), "/post/7", HOSTILE, 31);
            String page = site.uri("/post/7").toString();

            HttpResponse<String> put = srv().postZip("/api/v1/evidence?name=post7.zip", TestCollections.read(zip), Optional.of(token()));

            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
            String sha = json(put).get("sha256").asText();
            assertThat(json(put).get("verdict").asText()).isIn("VALID", "TRUSTED");
            for (String query : new String[] {"url=" + q(page), "prefix=" + q(site.uri("/post/").toString()), "host=127.0.0.1"}) {
                JsonNode found = json(srv().get("/api/v1/collections?" + query, Optional.of(token())));
                assertThat(found.get("results").findValuesAsText("evidence")).as(query).contains(sha);
            }
            JsonNode none = json(srv().get("/api/v1/collections?url=" + q(page + "x"), Optional.of(token())));
            assertThat(none.get("results").findValuesAsText("evidence")).doesNotContain(sha);
            JsonNode hit = json(srv().get("/api/v1/collections?url=" + q(page), Optional.of(token()))).get("results").get(0);
            assertThat(hit.get("title").asText()).isEqualTo(HOSTILE);
            assertThat(hit.get("tlsSubject").asText()).contains("CN=");

            JsonNode item = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token())));
            JsonNode capture = item.at("/report/collection");
            assertThat(capture.get("url").asText()).isEqualTo(page);
            assertThat(capture.get("finalUrl").asText()).isEqualTo(page);
            assertThat(capture.get("title").asText()).isEqualTo(HOSTILE);
            assertThat(capture.at("/tls/subject").asText()).isNotEmpty();
            assertThat(capture.get("media")).hasSize(1);
            assertThat(item.at("/report/proofs")).hasSize(1);
            assertThat(item.at("/report/proofs/0/sha256").asText()).isEqualTo(capture.at("/media/0/sha256").asText());
            assertThat(item.at("/report/proofs/0/verdict").asText()).isIn("VALID", "TRUSTED");
            assertThat(item.at("/report/checks").findValuesAsText("code")).contains("collect.warc.digest.match",
                    "collect.record.signature.valid", "collect.tls.chain.valid");
            assertThat(item.at("/report/source").asText()).isEqualTo("post7.zip");
            assertThat(item.toString()).doesNotContain(".collection-").doesNotContain("upload-");
            assertThat(item.at("/custody/0/action").asText()).isEqualTo("INTAKE");
            assertThat(item.at("/custody/0/detail").asText()).contains("a collection of " + page);
            assertThat(item.get("log").toString()).isNotEmpty();
            assertThat(item.get("proofs").findValuesAsText("mediaSha256")).contains(capture.at("/media/0/sha256").asText());

            HttpResponse<String> again = srv().postZip("/api/v1/evidence?name=post7.zip", TestCollections.read(zip), Optional.of(token()));
            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(json(srv().get("/api/v1/collections?url=" + q(page), Optional.of(token()))).get("results")).hasSize(1);
        }
    }

    @Test
    default void collection_isKeptInvalid_whenItsWarcChanged() throws Exception {
        try (HttpsSite site = HttpsSite.start()) {
            Path zip = TestCollections.archive(signer(), site, tmp().resolve("collections-tampered"), "/t", "tampered", 32);

            HttpResponse<String> put = srv().postZip("/api/v1/evidence?name=t.zip", TestCollections.withWarcChanged(zip), Optional.of(token()));

            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
            assertThat(json(put).get("verdict").asText()).isEqualTo("INVALID");
            String sha = json(put).get("sha256").asText();
            JsonNode item = json(srv().get("/api/v1/evidence/" + sha, Optional.of(token())));
            assertThat(item.at("/report/checks").findValuesAsText("code")).contains("collect.warc.digest.mismatch");
            JsonNode found = json(srv().get("/api/v1/collections?url=" + q(site.uri("/t").toString()), Optional.of(token())));
            assertThat(found.get("results").findValuesAsText("verdict")).containsExactly("INVALID");
            HttpResponse<String> verified = srv().postZip("/api/v1/verify?name=t.zip", TestCollections.withWarcChanged(zip), Optional.empty());
            assertThat(json(verified).get("verdict").asText()).isEqualTo("INVALID");
        }
    }

    @Test
    default void collections_refused_withoutOneAddressWithoutTokenOrWithAnUploadToken() throws Exception {
        assertProblem(srv().get("/api/v1/collections", Optional.of(token())), 400, "bad-request");
        assertProblem(srv().get("/api/v1/collections?url=a&host=b", Optional.of(token())), 400, "bad-request");
        assertProblem(srv().get("/api/v1/collections?host=b&limit=501", Optional.of(token())), 400, "bad-request");
        assertThat(srv().get("/api/v1/collections?host=b", Optional.empty()).statusCode()).isEqualTo(401);
        String field = new TokenStore(srv().db()).create("field-collections", TokenScope.UPLOAD).secret();
        assertProblem(srv().get("/api/v1/collections?host=b", Optional.of(field)), 403, "scope");
    }
}
