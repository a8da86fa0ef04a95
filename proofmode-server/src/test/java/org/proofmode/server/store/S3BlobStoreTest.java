// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** {@link S3BlobStore} against a real S3 server: s3proxy over a folder, with SigV4 authentication. */
class S3BlobStoreTest {
    private static final int MIB = 1 << 20;

    @TempDir
    static Path shared;

    static LocalS3 s3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = LocalS3.start(shared);
    }

    @AfterAll
    static void stopS3() throws IOException {
        s3.close();
    }

    private S3BlobStore store(S3Settings settings) throws IOException {
        return S3BlobStore.open(settings, tmp.resolve("staging"), Duration.ofHours(1));
    }

    /** A file of random bytes, written in pieces (never whole in memory). */
    private Path file(String name, long size, long seed) throws IOException {
        Path f = tmp.resolve(name);
        Random r = new Random(seed);
        byte[] piece = new byte[MIB];
        try (OutputStream out = Files.newOutputStream(f)) {
            for (long left = size; left > 0; left -= piece.length) {
                r.nextBytes(piece);
                out.write(piece, 0, (int) Math.min(piece.length, left));
            }
        }
        return f;
    }

    private static String key(String prefix, String sha) {
        return prefix + "/" + sha.substring(0, 2) + "/" + sha.substring(2, 4) + "/" + sha;
    }

    private static List<String> uploadsUnder(String prefix) {
        return s3.incompleteUploads().stream().map(MultipartUpload::key).filter(k -> k.startsWith(prefix + "/")).toList();
    }

    @Test
    void put_roundTripsBytes_whenNew() throws Exception {
        Path f = file("a.zip", 300_000, 1);
        byte[] bytes = Files.readAllBytes(f);
        String sha = Digests.sha256(f);
        try (S3BlobStore store = store(s3.settings("round/trip"))) {
            assertThat(store.exists(sha)).isFalse();
            store.put(f, sha);
            assertThat(f).doesNotExist();
            assertThat(store.exists(sha)).isTrue();
            assertThat(s3.keysUnder("round/trip/")).containsExactly(key("round/trip", sha));
            try (InputStream in = store.open(sha)) {
                assertThat(in.readAllBytes()).isEqualTo(bytes);
            }
            Path local;
            try (BlobStore.LocalCopy copy = store.local(sha)) {
                local = copy.path();
                assertThat(Files.readAllBytes(local)).isEqualTo(bytes);
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(local))).isEqualTo("rw-------");
            }
            assertThat(local).doesNotExist();
            assertThat(s3.client().headObject(b -> b.bucket(LocalS3.BUCKET).key(key("round/trip", sha))
                    .checksumMode(ChecksumMode.ENABLED)).checksumSHA256()).isEqualTo(S3Uploads.base64(org.proofmode.util.Hex.decode(sha)));
        }
    }

    @Test
    void open_learnsWhetherStoreChecksSha256_andLeavesNoProbe() throws Exception {
        try (S3BlobStore store = store(s3.settings("learn"))) {
            assertThat(store.uploads().learnChecksums("learn/.probe/x", Optional.empty())).isEqualTo(S3Uploads.Checksums.CHECKED);
        }
        assertThat(s3.keysUnder("learn/")).isEmpty();
    }

    @Test
    void put_hashesHereAndSendsMd5_forStoreThatDoesNotCheckSha256() throws Exception {
        try (S3BlobStore store = store(s3.settings("md5"))) {
            store.uploads().hashEveryBody();
            Path f = file("m.zip", 70_000, 6);
            byte[] bytes = Files.readAllBytes(f);
            String sha = Digests.sha256(f);
            store.put(f, sha);
            try (InputStream in = store.open(sha)) {
                assertThat(in.readAllBytes()).isEqualTo(bytes);
            }
            Path g = file("n.zip", 70_000, 7);
            String claimed = Digests.sha256Hex("something else".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThatThrownBy(() -> store.put(g, claimed)).isInstanceOf(IOException.class)
                    .hasMessage("the file's SHA-256 is not " + claimed);
            assertThat(s3.keysUnder("md5/")).containsExactly(key("md5", sha));
        }
    }

    /**
     * A store that answers {@code 501 NotImplemented} to the checksum headers (s3proxy 2.6, older MinIO, Ceph and
     * Garage): the start probe takes it for a store that does not check them, and every bundle, whole or in
     * parts, goes with its {@code Content-MD5} alone, hashed here, and reads back byte for byte.
     */
    @Test
    void put_roundTripsWithMd5Alone_storeAnswering501ToChecksumHeaders() throws Exception {
        try (ChecksumRefusingProxy old = new ChecksumRefusingProxy(s3.endpoint());
             S3BlobStore store = store(s3.settings("old").withAccess(old.endpoint(), s3.keys()))) {
            assertThat(old.refused()).as("the start probe met the 501").isPositive();
            assertThat(store.uploads().checksums()).isEqualTo(S3Uploads.Checksums.UNSUPPORTED);
            int refusedAtStart = old.refused();
            List<String> keys = new java.util.ArrayList<>();
            for (long size : new long[] {70_000, 17L * MIB}) {
                Path f = file("old-" + size + ".zip", size, size);
                byte[] bytes = Files.readAllBytes(f);
                String sha = Digests.sha256(f);
                store.put(f, sha);
                keys.add(key("old", sha));
                try (InputStream in = store.open(sha)) {
                    assertThat(in.readAllBytes()).isEqualTo(bytes);
                }
                assertThat(s3.read(key("old", sha))).isEqualTo(bytes);
            }
            Path g = file("wrong.zip", 70_000, 8);
            String claimed = Digests.sha256Hex("something else".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThatThrownBy(() -> store.put(g, claimed)).isInstanceOf(IOException.class)
                    .hasMessage("the file's SHA-256 is not " + claimed);
            store.probe();
            store.putPublic("log/checkpoint", "a checkpoint".getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/plain", "no-cache");
            assertThat(s3.read("old/log/checkpoint")).isEqualTo("a checkpoint".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(old.refused()).as("no checksum header sent once the store was known").isEqualTo(refusedAtStart);
            assertThat(old.relayed()).isPositive();
            assertThat(s3.keysUnder("old/")).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.Stream.concat(keys.stream(), java.util.stream.Stream.of("old/log/checkpoint")).toList());
        }
    }

    @Test
    void open_throwsNoSuchFile_whenMissing() throws Exception {
        try (S3BlobStore store = store(s3.settings("missing"))) {
            String sha = "ab".repeat(32);
            assertThatThrownBy(() -> store.open(sha)).isInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> store.local(sha)).isInstanceOf(NoSuchFileException.class);
            assertThat(store.exists(sha)).isFalse();
            assertThatThrownBy(() -> store.exists("../../etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void put_keepsOneObject_whenSameContentTwice() throws Exception {
        Path first = file("first.zip", 50_000, 2);
        Path second = Files.copy(first, tmp.resolve("second.zip"));
        String sha = Digests.sha256(first);
        try (S3BlobStore store = store(s3.settings("twice"))) {
            store.put(first, sha);
            store.put(second, sha);
            assertThat(second).doesNotExist();
            assertThat(s3.keysUnder("twice/")).containsExactly(key("twice", sha));
        }
    }

    @Test
    void put_uploadsInPartsWithFlatMemory_whenLarge() throws Exception {
        Path big = file("big.zip", 40L * MIB + 12_345, 3);
        String sha = Digests.sha256(big);
        // A JVM with 24 MiB of heap, most of which storing a 1 MiB file already needs (16 MiB are too few):
        // a copy of a 16 MiB part, let alone of the 40 MiB file, would not fit.
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessResult r = ExternalTool.run(List.of(java, "-Xmx24m", S3PutMain.class.getName(), "s3://" + LocalS3.BUCKET + "/large",
                big.toString(), sha, tmp.resolve("staging").toString()),
                Map.of("CLASSPATH", System.getProperty("java.class.path"), "AWS_ENDPOINT_URL", s3.endpoint().toString(), "AWS_ACCESS_KEY_ID", s3.keys().accessKeyId(),
                        "AWS_SECRET_ACCESS_KEY", s3.keys().secretAccessKey(), "AWS_REGION", "us-east-1"),
                Duration.ofMinutes(3));
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(big).doesNotExist();
        String k = key("large", sha);
        assertThat(s3.keysUnder("large/")).containsExactly(k);
        // 3 parts of 16 MiB at most, each checked by its SHA-256: the store's checksum of the object is theirs
        assertThat(s3.client().headObject(b -> b.bucket(LocalS3.BUCKET).key(k).checksumMode(ChecksumMode.ENABLED)).checksumSHA256())
                .endsWith("-3");
        try (InputStream in = s3.client().getObject(b -> b.bucket(LocalS3.BUCKET).key(k))) {
            assertThat(Digests.sha256(in)).isEqualTo(sha);
        }
        assertThat(uploadsUnder("large")).isEmpty();
    }

    @Test
    void put_leavesNothing_whenHashIsWrong() throws Exception {
        try (S3BlobStore store = store(s3.settings("wrong"))) {
            for (long size : new long[] {10_000, 17L * MIB}) {
                Path f = file("f.zip", size, size);
                String claimed = Digests.sha256Hex(("not " + size).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertThatThrownBy(() -> store.put(f, claimed)).isInstanceOf(IOException.class)
                        .hasMessageContaining("SHA-256 is not " + claimed);
                assertThat(store.exists(claimed)).isFalse();
            }
            assertThat(s3.keysUnder("wrong/")).isEmpty();
            assertThat(uploadsUnder("wrong")).isEmpty();
        }
    }

    @Test
    void put_leavesNoObjectAndAbortsParts_whenStoreGoesAwayMidUpload() throws Exception {
        Path big = file("cut.zip", 40L * MIB, 4);
        String sha = Digests.sha256(big);
        try (CuttableProxy proxy = new CuttableProxy(s3.endpoint(), 24L * MIB);
             S3BlobStore store = store(s3.settings("cut").withAccess(proxy.endpoint(), s3.keys()))) {
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> {
                try {
                    store.put(big, sha);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(proxy.awaitCut(120)).isTrue();
            assertThatThrownBy(() -> put.get(120, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(java.io.UncheckedIOException.class);
            // the store never saw a whole object; the abort could not reach it, so the upload is still open
            assertThat(s3.keysUnder("cut/")).isEmpty();
            assertThat(uploadsUnder("cut")).containsExactly(key("cut", sha));
            proxy.reopen();
            store.probe();
            assertThat(uploadsUnder("cut")).isEmpty();
            assertThat(store.exists(sha)).isFalse();
            assertThat(big).exists();
        }
    }

    @Test
    void open_abortsStaleUploadsOfBlobsOnly() throws Exception {
        String sha = "cd".repeat(32);
        String blob = key("stale", sha);
        String other = "stale/notes/draft.txt";
        for (String k : List.of(blob, other)) {
            s3.client().createMultipartUpload(b -> b.bucket(LocalS3.BUCKET).key(k).checksumAlgorithm(ChecksumAlgorithm.SHA256));
        }
        Thread.sleep(1_100);
        try (S3BlobStore store = S3BlobStore.open(s3.settings("stale"), tmp.resolve("staging"), Duration.ZERO)) {
            assertThat(store.location()).isEqualTo("s3://evidence/stale");
            assertThat(uploadsUnder("stale")).containsExactly(other);
        }
    }

    @Test
    void open_failsInOneLine_whenCredentialsAreWrong() {
        S3Settings.AccessKeys wrong = new S3Settings.AccessKeys(s3.keys().accessKeyId(), "not-the-secret", Optional.empty());
        assertThatThrownBy(() -> store(s3.settings("denied").withAccess(s3.endpoint(), wrong)))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot use s3://evidence/denied: ")
                .hasMessageContaining("HTTP 403")
                .hasMessageNotContaining("not-the-secret")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void open_failsInOneLine_whenStoreRefusesEncryption() {
        // s3proxy keeps no encrypted objects: it refuses the header, which shows that each PUT sends it
        S3Settings sse = s3.settings("sse").withObjectOptions(Optional.of(S3Settings.Encryption.parse("AES256", Optional.empty())),
                Optional.empty());
        assertThatThrownBy(() -> store(sse)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot use s3://evidence/sse: ").hasMessageContaining("HTTP 501");
    }

    @Test
    void put_leavesNothing_whenStoreRefusesRetention() throws Exception {
        // s3proxy has no object lock: it refuses the retention headers, which shows that each bundle's PUT sends them
        S3Settings locked = s3.settings("locked").withObjectOptions(Optional.empty(),
                Optional.of(new S3Settings.Retention(S3Settings.LockMode.COMPLIANCE, 3650)));
        try (S3BlobStore store = store(locked)) {
            for (long size : new long[] {10_000, 17L * MIB}) {
                Path f = file("l.zip", size, size);
                String sha = Digests.sha256(f);
                assertThatThrownBy(() -> store.put(f, sha)).isInstanceOf(IOException.class).hasMessageContaining("HTTP 501");
            }
        }
        assertThat(s3.keysUnder("locked/")).isEmpty();
        assertThat(uploadsUnder("locked")).isEmpty();
    }

    @Test
    void awsCli_readsWhatWasStored_byteForByte() throws Exception {
        Path aws = ExternalTool.require("aws");
        Path f = file("cli.zip", 2 * MIB + 7, 5);
        byte[] bytes = Files.readAllBytes(f);
        String sha = Digests.sha256(f);
        try (S3BlobStore store = store(s3.settings("cli"))) {
            store.put(f, sha);
        }
        Path out = tmp.resolve("read-back.zip");
        ProcessResult r = ExternalTool.run(List.of(aws.toString(), "--endpoint-url", s3.endpoint().toString(), "s3", "cp",
                "s3://" + LocalS3.BUCKET + "/" + key("cli", sha), out.toString()), s3.awsCliEnvironment(), Duration.ofMinutes(2));
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
    }
}
