// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;

/** Resumable uploads ({@code /api/v1/uploads}): create, offset, append in parts, finish into evidence; and what is refused. */
class ResumableUploadTest {
    @TempDir
    Path tmp;

    private TestServer server;
    private String token;
    private byte[] bundle;
    private String sha;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(TestServer.small(tmp.resolve("server"), 1 << 20, 600));
        token = server.token("field");
        bundle = Files.readAllBytes(TestBundles.good(tmp.resolve("bundle")));
        sha = Digests.sha256Hex(bundle);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> create(long length, String claimed, String bearer) throws Exception {
        return server.send(HttpRequest.newBuilder(server.uri("/api/v1/uploads?name=share.zip"))
                .header("Authorization", "Bearer " + bearer).header("Upload-Length", Long.toString(length))
                .header("Upload-Sha256", claimed).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> patch(String location, long offset, byte[] part) throws Exception {
        return server.send(HttpRequest.newBuilder(server.uri(location)).header("Authorization", "Bearer " + token)
                .header("Upload-Offset", Long.toString(offset)).header("Content-Type", "application/offset+octet-stream")
                .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(part)));
    }

    private HttpResponse<String> head(String location, String bearer) throws Exception {
        return server.send(HttpRequest.newBuilder(server.uri(location)).header("Authorization", "Bearer " + bearer)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    @Test
    void upload_inParts_becomesTheSameEvidenceAsOnePost() throws Exception {
        HttpResponse<String> c = create(bundle.length, sha, token);
        assertThat(c.statusCode()).as(c.body()).isEqualTo(201);
        String at = c.headers().firstValue("Location").orElseThrow();
        assertThat(at).matches("/api/v1/uploads/[0-9a-f]{32}");
        int half = bundle.length / 2;

        HttpResponse<String> first = patch(at, 0, Arrays.copyOfRange(bundle, 0, half));
        assertThat(first.statusCode()).isEqualTo(204);
        assertThat(first.headers().firstValue("Upload-Offset")).contains(Integer.toString(half));
        assertThat(head(at, token).headers().firstValue("Upload-Offset")).contains(Integer.toString(half));
        assertThat(server.get("/api/v1/evidence/" + sha, Optional.of(token)).statusCode()).as("nothing visible before it is whole").isEqualTo(404);

        HttpResponse<String> wrongPlace = patch(at, 3, Arrays.copyOfRange(bundle, 3, half));
        assertThat(wrongPlace.statusCode()).isEqualTo(409);
        assertThat(wrongPlace.headers().firstValue("Upload-Offset")).contains(Integer.toString(half));

        HttpResponse<String> done = patch(at, half, Arrays.copyOfRange(bundle, half, bundle.length));
        assertThat(done.statusCode()).as(done.body()).isEqualTo(201);
        assertThat(TestServer.JSON.readTree(done.body()).path("sha256").asText()).isEqualTo(sha);
        assertThat(server.get("/api/v1/evidence/" + sha, Optional.of(token)).statusCode()).isEqualTo(200);
        assertThat(head(at, token).statusCode()).as("finished: gone").isEqualTo(404);
        assertThat(server.postZip("/api/v1/evidence", bundle, Optional.of(token)).statusCode()).as("the same item").isEqualTo(200);
    }

    @Test
    void upload_refused_tooLargeOtherTokenPastItsLengthOrOtherBytes() throws Exception {
        assertThat(create(2 << 20, sha, token).statusCode()).as("over --max-upload").isEqualTo(413);
        assertThat(create(bundle.length, sha, "pm_nope").statusCode()).isEqualTo(401);
        assertThat(create(bundle.length, "xyz", token).statusCode()).isEqualTo(400);

        String at = create(bundle.length, sha, token).headers().firstValue("Location").orElseThrow();
        assertThat(head(at, server.token("someone else")).statusCode()).as("another token's upload is not found").isEqualTo(404);
        byte[] longer = Arrays.copyOf(bundle, bundle.length + 10);
        assertThat(patch(at, 0, longer).statusCode()).as("past the length").isEqualTo(413);
        assertThat(head(at, token).headers().firstValue("Upload-Offset")).contains("0");

        byte[] other = bundle.clone();
        other[other.length / 2] ^= 1;
        HttpResponse<String> mismatch = patch(at, 0, other);
        assertThat(mismatch.statusCode()).isEqualTo(409);
        assertThat(mismatch.body()).contains("not the " + sha);
        assertThat(server.get("/api/v1/evidence/" + Digests.sha256Hex(other), Optional.of(token)).statusCode()).isEqualTo(404);
        try (Stream<Path> left = Files.list(tmp.resolve("server/server/blobs/incoming/resumable"))) {
            assertThat(left.toList()).as("a dropped upload leaves nothing").isEmpty();
        }
    }
}
