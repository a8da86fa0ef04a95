// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.server.store.ChecksumRefusingProxy;
import org.proofmode.server.store.LocalS3;
import org.proofmode.server.store.S3Settings;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/** The evidence server with its bundles in a bucket: a real S3 server (s3proxy over a folder, SigV4). */
class S3ServerTest {
    @TempDir
    Path tmp;

    private ServerConfig config(S3Settings bucket) {
        return ServerConfig.defaults(tmp.resolve("home")).withListen("127.0.0.1", 0).withBucket(Optional.of(bucket));
    }

    @Test
    void evidence_roundTripsThroughBucket_andAwsCliReadsTheSameBytes() throws Exception {
        Path aws = ExternalTool.require("aws");
        byte[] zip = Files.readAllBytes(TestBundles.good(tmp.resolve("bundles")));
        String sha = Digests.sha256Hex(zip);
        String key = "archive/" + sha.substring(0, 2) + "/" + sha.substring(2, 4) + "/" + sha;
        try (LocalS3 s3 = LocalS3.start(tmp); TestServer srv = TestServer.start(config(s3.settings("archive")))) {
            HttpResponse<String> ready = srv.get("/api/v1/ready", Optional.empty());
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo("{\"database\":\"ok\",\"blobs\":\"ok\",\"log\":\"ok\"}\n");

            String token = srv.token("desk");
            HttpResponse<String> created = srv.postZip("/api/v1/evidence?name=share.zip", zip, Optional.of(token));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(TestServer.json(created).get("sha256").asText()).isEqualTo(sha);
            HttpResponse<String> again = srv.postZip("/api/v1/evidence?name=share.zip", zip, Optional.of(token));
            assertThat(TestServer.json(again).get("created").asBoolean()).isFalse();

            // one object in the bucket, nothing kept in the local folder but the (empty) incoming area
            assertThat(s3.keysUnder("archive/")).containsExactly(key);
            assertThat(s3.read(key)).isEqualTo(zip);
            try (Stream<Path> local = Files.walk(srv.config.blobDir())) {
                assertThat(local.filter(Files::isRegularFile).toList()).isEmpty();
            }

            HttpResponse<byte[]> download = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/bundle"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(download.statusCode()).isEqualTo(200);
            assertThat(download.body()).isEqualTo(zip);

            HttpResponse<String> reverified = srv.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/reverify"))
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(reverified.statusCode()).as(reverified.body()).isEqualTo(200);
            assertThat(TestServer.json(reverified).get("verdict").asText()).isEqualTo("VALID");

            Path out = tmp.resolve("from-aws-cli.zip");
            ProcessResult r = ExternalTool.run(List.of(aws.toString(), "--endpoint-url", s3.endpoint().toString(), "s3", "cp",
                    "s3://" + LocalS3.BUCKET + "/" + key, out.toString()), s3.awsCliEnvironment(), Duration.ofMinutes(2));
            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(Files.readAllBytes(out)).isEqualTo(zip);
        }
    }

    /** A store that answers {@code 501} to the checksum headers (s3proxy 2.6, older MinIO): the server starts and keeps bundles. */
    @Test
    void evidence_roundTripsThroughBucket_storeAnswering501ToChecksumHeaders() throws Exception {
        byte[] zip = Files.readAllBytes(TestBundles.good(tmp.resolve("bundles")));
        String sha = Digests.sha256Hex(zip);
        try (LocalS3 s3 = LocalS3.start(tmp); ChecksumRefusingProxy old = new ChecksumRefusingProxy(s3.endpoint());
             TestServer srv = TestServer.start(config(s3.settings("archive").withAccess(old.endpoint(), s3.keys())))) {
            assertThat(old.refused()).isPositive();
            assertThat(srv.get("/api/v1/ready", Optional.empty()).statusCode()).isEqualTo(200);
            String token = srv.token("desk");
            HttpResponse<String> created = srv.postZip("/api/v1/evidence", zip, Optional.of(token));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(s3.read("archive/" + sha.substring(0, 2) + "/" + sha.substring(2, 4) + "/" + sha)).isEqualTo(zip);
            HttpResponse<byte[]> download = srv.http.send(HttpRequest.newBuilder(srv.uri("/api/v1/evidence/" + sha + "/bundle"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(download.statusCode()).isEqualTo(200);
            assertThat(download.body()).isEqualTo(zip);
        }
    }

    @Test
    void start_failsInOneLine_whenBucketRejectsTheKeys() throws Exception {
        try (LocalS3 s3 = LocalS3.start(tmp)) {
            S3Settings wrong = s3.settings("archive").withAccess(s3.endpoint(),
                    new S3Settings.AccessKeys("AKIDSOMEONEELSE", "wrong-secret", Optional.empty()));
            assertThatThrownBy(() -> ProofServer.start(config(wrong)))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> {
                        assertThat(e.failure()).isEqualTo(Failure.IO);
                        assertThat(e.getMessage()).contains("cannot use s3://evidence/archive: ").contains("HTTP 403")
                                .doesNotContain("wrong-secret").doesNotContain("\n");
                    });
        }
    }

    @Test
    void ready_saysBlobsFailing_whileBucketRejectsTheKeys() throws Exception {
        try (LocalS3 s3 = LocalS3.start(tmp); TestServer srv = TestServer.start(config(s3.settings("archive")))) {
            assertThat(srv.get("/api/v1/ready", Optional.empty()).statusCode()).isEqualTo(200);
            s3.stop();
            s3.restart(new S3Settings.AccessKeys("AKIDSOMEONEELSE", "rotated-secret", Optional.empty()));
            HttpResponse<String> denied = srv.get("/api/v1/ready", Optional.empty());
            assertThat(denied.statusCode()).isEqualTo(503);
            assertThat(denied.body()).isEqualTo("{\"database\":\"ok\",\"blobs\":\"failing\",\"log\":\"ok\"}\n");
            s3.stop();
            s3.restart(s3.keys());
            assertThat(srv.get("/api/v1/ready", Optional.empty()).statusCode()).isEqualTo(200);
        }
    }
}
