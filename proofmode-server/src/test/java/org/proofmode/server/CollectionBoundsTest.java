// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.RawClient.loopback;
import static org.proofmode.server.RawClient.status;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.server.service.Verification;
import org.proofmode.testkit.HttpsSite;

/**
 * The bounds on a collection sent to the server, each passed tenfold, one request after another and many at
 * once from many addresses: the upload's size (the server's body bound, as for a bundle: {@code 413}) and
 * the bytes its archive unpacks to (twice its size and 16 MiB more: {@code 422}).
 */
class CollectionBoundsTest {
    private static final int MAX_UPLOAD = 128 << 10;

    @TempDir
    Path tmp;

    @Test
    void evidence_answersTooLarge_collectionTenTimesTheBoundOneAfterAnotherAndAtOnceFromManyAddresses() throws Exception {
        byte[] noise = new byte[10 * MAX_UPLOAD + (64 << 10)];
        new Random(44).nextBytes(noise);
        try (HttpsSite site = HttpsSite.start(); TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), MAX_UPLOAD, 1000))) {
            String token = srv.token("desk");
            Path signer = tmp.resolve("signer");
            Path big = TestCollections.archive(TestBundles.signer(signer), site, tmp, "/big", "big", 1,
                    "<!-- " + Base64.getEncoder().encodeToString(noise) + " -->");
            Path small = TestCollections.archive(org.proofmode.ProofMode.at(signer), site, tmp, "/small", "small", 2);
            assertThat(Files.size(big)).isGreaterThan(10L * MAX_UPLOAD);
            assertThat(Files.size(small)).isLessThan(MAX_UPLOAD);
            String head = "POST /api/v1/evidence HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\nAuthorization: Bearer "
                    + token + "\r\n";
            byte[] bigBytes = Files.readAllBytes(big);

            for (int i = 0; i < 10; i++) {
                String answer = RawClient.send(loopback(2), srv.server.port(), head, bigBytes, 30_000);
                assertThat(status(answer)).as(answer).isEqualTo(413);
                assertThat(answer).contains("urn:proofmode:problem:too-large");
            }
            List<Integer> atOnce = RequestBoundsTest.atOnce(20, 20, i -> () -> status(RawClient.send(loopback(10 + i % 10), srv.server.port(),
                    head, bigBytes, 30_000)));
            assertThat(atOnce).hasSize(20).containsOnly(413);

            String kept = RawClient.send(loopback(2), srv.server.port(), head, Files.readAllBytes(small), 30_000);
            assertThat(status(kept)).as(kept).isEqualTo(201);
            assertThat(srv.count("evidence_collections")).isEqualTo(1);
            try (Stream<Path> left = Files.list(srv.config.blobDir().resolve("incoming"))) {
                assertThat(left.filter(p -> !p.getFileName().toString().equals("resumable")).toList()).isEmpty();
            }
        }
    }

    @Test
    void verify_answersBadBundle_collectionUnpackingToTenTimesItsBoundOneAfterAnotherAndAtOnce() throws Exception {
        // Zeros deflate a thousandfold: the archive's own ratio bound is raised so that the unpacking bound is what stops it.
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        long zeros = 10 * (2L * (200 << 10) + Verification.UNPACK_ALLOWANCE);
        try (ZipOutputStream z = new ZipOutputStream(zip)) {
            z.putNextEntry(new ZipEntry("collection.json"));
            z.write("{}".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            z.putNextEntry(new ZipEntry("capture.warc.gz"));
            byte[] block = new byte[1 << 20];
            for (long n = 0; n < zeros; n += block.length) {
                z.write(block);
            }
        }
        byte[] bomb = zip.toByteArray();
        assertThat((long) bomb.length).isLessThan(200 << 10);
        try (TestServer srv = TestServer.start(TestServer.small(tmp.resolve("home"), 1 << 20, 1000)
                .withBounds(1 << 20, new BundleLimits(2_000, 16L << 20, 5_000), Duration.ofSeconds(20), 1000))) {
            String head = "POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\n";
            for (int i = 0; i < 3; i++) {
                String answer = RawClient.send(loopback(2), srv.server.port(), head, bomb, 30_000);
                assertThat(status(answer)).as(answer).isEqualTo(422);
                assertThat(answer).contains("urn:proofmode:problem:bad-bundle").contains("unpacks to more than");
            }
            List<Integer> atOnce = RequestBoundsTest.atOnce(6, 6, i -> () -> status(RawClient.send(loopback(10 + i), srv.server.port(),
                    head, bomb, 30_000)));
            assertThat(atOnce).hasSize(6).containsOnly(422);
            try (Stream<Path> left = Files.list(srv.config.blobDir().resolve("incoming"))) {
                assertThat(left.filter(p -> !p.getFileName().toString().equals("resumable")).toList()).as("nothing unpacked is left").isEmpty();
            }
        }
    }
}
