// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.testkit.AgeTool;

/**
 * A server with an age identity ({@code serve --identity}): bundles encrypted to its recipient by the
 * reference {@code age} tool are verified and kept decrypted; what it cannot open is refused.
 */
class EncryptedIntakeTest {
    @TempDir
    Path tmp;

    private Path identity(String name) throws Exception {
        Path f = tmp.resolve(name);
        AgeTool.keygen(f);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    private static String recipientOf(Path identity) throws Exception {
        return Files.readAllLines(identity).stream().filter(l -> l.startsWith("# public key: "))
                .map(l -> l.substring("# public key: ".length())).findFirst().orElseThrow();
    }

    private TestServer start(Optional<Path> identity) {
        return TestServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0).withIdentity(identity));
    }

    @Test
    void bundlesEncryptedToTheServer_verifyAndAreKeptDecrypted() throws Exception {
        Path key = identity("server.key");
        Path plain = TestBundles.good(tmp.resolve("bundle"));
        byte[] plainBytes = Files.readAllBytes(plain);
        String plainSha = Digests.sha256Hex(plainBytes);
        Path encrypted = tmp.resolve("share.zip.age");
        try (TestServer server = start(Optional.of(key))) {
            HttpResponse<String> rec = server.get("/api/v1/recipient", Optional.empty());
            assertThat(rec.statusCode()).isEqualTo(200);
            assertThat(TestServer.json(rec).get("recipient").asText()).isEqualTo(recipientOf(key));
            AgeTool.encrypt(TestServer.json(rec).get("recipient").asText(), false, plain, encrypted);
            byte[] sealed = Files.readAllBytes(encrypted);

            HttpResponse<String> v = server.postZip("/api/v1/verify?name=share.zip.age", sealed, Optional.empty());
            assertThat(v.statusCode()).as(v.body()).isEqualTo(200);
            assertThat(TestServer.json(v).get("verdict").asText()).isEqualTo("VALID");
            assertThat(TestServer.json(v).get("bundleSha256").asText()).isEqualTo(plainSha);

            String token = server.token("field");
            HttpResponse<String> kept = server.postZip("/api/v1/evidence?name=share.zip.age", sealed, Optional.of(token));
            assertThat(kept.statusCode()).as(kept.body()).isEqualTo(201);
            JsonNode item = TestServer.json(kept);
            assertThat(item.get("sha256").asText()).isEqualTo(plainSha);
            assertThat(item.get("name").asText()).isEqualTo("share.zip");
            HttpResponse<byte[]> back = server.http.send(HttpRequest.newBuilder(server.uri("/api/v1/evidence/" + plainSha + "/bundle"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(back.body()).isEqualTo(plainBytes);
            // The same bundle sent in the clear is the same item.
            HttpResponse<String> again = server.postZip("/api/v1/evidence", plainBytes, Optional.of(token));
            assertThat(TestServer.json(again).get("created").asBoolean()).isFalse();
            // As a multipart form too, armored.
            Path armored = tmp.resolve("share.zip.age.asc");
            AgeTool.encrypt(recipientOf(key), true, plain, armored);
            HttpResponse<String> form = server.postFiles("/api/v1/verify", java.util.Map.of("share.zip.age", Files.readAllBytes(armored)),
                    Optional.empty());
            assertThat(form.statusCode()).as(form.body()).isEqualTo(200);
            assertThat(TestServer.json(form).get("verdict").asText()).isEqualTo("VALID");
        }
        try (Stream<Path> left = Files.walk(tmp.resolve("server"))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("upload-"));
        }
    }

    @Test
    void aResumableUploadOfAnEncryptedBundle_isKeptDecrypted() throws Exception {
        Path key = identity("server.key");
        Path plain = TestBundles.good(tmp.resolve("bundle"));
        Path encrypted = tmp.resolve("share.zip.age");
        AgeTool.encrypt(recipientOf(key), false, plain, encrypted);
        byte[] sealed = Files.readAllBytes(encrypted);
        try (TestServer server = start(Optional.of(key))) {
            String token = server.token("field");
            HttpResponse<String> c = server.send(HttpRequest.newBuilder(server.uri("/api/v1/uploads?name=share.zip.age"))
                    .header("Authorization", "Bearer " + token).header("Upload-Length", Integer.toString(sealed.length))
                    .header("Upload-Sha256", Digests.sha256Hex(sealed)).POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(c.statusCode()).as(c.body()).isEqualTo(201);
            HttpResponse<String> done = server.send(HttpRequest.newBuilder(server.uri(c.headers().firstValue("Location").orElseThrow()))
                    .header("Authorization", "Bearer " + token).header("Upload-Offset", "0")
                    .header("Content-Type", "application/offset+octet-stream")
                    .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(sealed)));
            assertThat(done.statusCode()).as(done.body()).isEqualTo(201);
            assertThat(TestServer.json(done).get("sha256").asText()).isEqualTo(Digests.sha256Hex(Files.readAllBytes(plain)));
            assertThat(TestServer.json(done).get("verdict").asText()).isEqualTo("VALID");
        }
    }

    @Test
    void whatTheServerCannotOpen_isRefusedAsABadBundle() throws Exception {
        Path key = identity("server.key");
        Path other = identity("other.key");
        Path plain = TestBundles.good(tmp.resolve("bundle"));
        Path toOther = tmp.resolve("other.zip.age");
        AgeTool.encrypt(recipientOf(other), false, plain, toOther);
        byte[] sealed = Files.readAllBytes(toOther);
        Path toServer = tmp.resolve("server.zip.age");
        AgeTool.encrypt(recipientOf(key), false, plain, toServer);
        byte[] truncated = Arrays.copyOf(Files.readAllBytes(toServer), (int) Files.size(toServer) - 500);
        try (TestServer server = start(Optional.of(key))) {
            HttpResponse<String> r = server.postZip("/api/v1/verify", sealed, Optional.empty());
            assertThat(r.statusCode()).isEqualTo(422);
            assertThat(r.body()).contains("another recipient");
            HttpResponse<String> t = server.postZip("/api/v1/evidence", truncated, Optional.of(server.token("field")));
            assertThat(t.statusCode()).as(t.body()).isEqualTo(422);
            assertThat(t.body()).contains("damaged or truncated");
        }
        try (TestServer server = start(Optional.empty())) {
            assertThat(server.get("/api/v1/recipient", Optional.empty()).statusCode()).isEqualTo(404);
            HttpResponse<String> r = server.postZip("/api/v1/verify", sealed, Optional.empty());
            assertThat(r.statusCode()).isEqualTo(422);
            assertThat(r.body()).contains("holds no identity");
        }
    }

    @Test
    void anIdentityFileOthersCanRead_orThatIsNotOne_stopsTheStart() throws Exception {
        Path key = identity("server.key");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> start(Optional.of(key))).isInstanceOfSatisfying(ProofModeException.class, e -> {
            assertThat(e.failure()).isEqualTo(Failure.BAD_ARGUMENT);
            assertThat(e.getMessage()).contains("chmod 600");
        });
        Path garbled = Files.writeString(tmp.resolve("garbled.key"), "AGE-SECRET-KEY-1GARBLED\n");
        Files.setPosixFilePermissions(garbled, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> start(Optional.of(garbled))).isInstanceOfSatisfying(ProofModeException.class,
                e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
    }
}
