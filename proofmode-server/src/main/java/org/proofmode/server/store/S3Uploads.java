// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Uploads a file to one key of an {@link S3BlobStore}: one PUT, or a multipart upload in parts of
 * {@link #PART_SIZE} or more, with checksums the store verifies, nothing visible before the object is
 * whole, and an aborted upload on any failure.
 */
final class S3Uploads {
    /** Size of a part, and the largest file sent in one PUT. */
    static final long PART_SIZE = 16L << 20;
    /** The most parts S3 takes in one upload. */
    static final int MAX_PARTS = 10_000;
    private static final int BUFFER = 64 << 10;
    /** How much of a body is read at once while the SDK reads it. */
    private static final int READ_AHEAD = 128 << 10;
    /** The most failed aborts remembered for another try; beyond, the next start and the lifecycle rule remove them. */
    private static final int MAX_UNABORTED = 1_000;

    /** A retention lock: mode and the instant until which the object cannot be deleted or overwritten. */
    record Lock(ObjectLockMode mode, Instant until) {}

    /** What each stored object asks of the store. */
    record ObjectOptions(Optional<S3Settings.Encryption> encryption, Optional<Lock> lock) {}

    /** A multipart upload to abort: its key and id. */
    private record Pending(String key, String uploadId) {}

    private final S3Client s3;
    private final String bucket;
    private final Queue<Pending> unaborted = new ConcurrentLinkedQueue<>();
    /** What a store does with the {@code x-amz-checksum-sha256} of a body sent with it. */
    enum Checksums {
        /** Not known yet: no checksum header is sent, every body is hashed here and sent with its {@code Content-MD5}. */
        UNKNOWN,
        /** Refuses a body whose SHA-256 is not the one sent (AWS S3, s3proxy 4, current MinIO). */
        CHECKED,
        /** Takes the header but not as a check: it is sent, and every body is hashed here and sent with its MD5. */
        IGNORED,
        /**
         * Answers {@code 501 NotImplemented} (s3proxy 2.6, older MinIO, Ceph and Garage releases): no checksum
         * header is sent, every body is hashed here and sent with its {@code Content-MD5}, which every store checks.
         */
        UNSUPPORTED
    }

    /** What the store does with checksums, as {@link #learnChecksums} found. */
    private volatile Checksums checksums = Checksums.UNKNOWN;

    S3Uploads(S3Client s3, S3Settings settings) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.bucket = settings.bucket();
    }

    /**
     * Aborts again the multipart uploads whose abort failed (the store was away): called before each upload
     * and by the readiness probe, so parts left by a store that went away are removed once it is back.
     */
    void retryAborts() {
        for (int n = unaborted.size(); n > 0; n--) {
            Pending p = unaborted.poll();
            if (p == null) {
                return;
            }
            try {
                abort(p.key(), p.uploadId());
            } catch (S3Exception e) {
                if (e.statusCode() != 404) {
                    unaborted.add(p);
                }
            } catch (SdkException e) {
                unaborted.add(p);
            }
        }
    }

    /**
     * Aborts the multipart uploads to blob keys under {@code prefix} begun before {@code before}: what a
     * process killed during an upload left (younger ones may belong to another instance, uploading now).
     *
     * A store that does not list multipart uploads, or keys not allowed to ({@code 501}, {@code 403}), leaves
     * them to the bucket's lifecycle rule.
     *
     * @param ours which keys are blobs' (others in the bucket are left alone)
     * @return how many were aborted
     */
    int abortStale(String prefix, Predicate<String> ours, Instant before) {
        int n = 0;
        try {
            for (MultipartUpload u : s3.listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(prefix)).uploads()) {
                if (ours.test(u.key()) && u.initiated() != null && u.initiated().isBefore(before)) {
                    abort(u.key(), u.uploadId());
                    n++;
                }
            }
        } catch (S3Exception e) {
            if (e.statusCode() != 501 && e.statusCode() != 403) {
                throw e;
            }
        }
        return n;
    }

    /**
     * Asks the store whether it checks a PUT's {@code x-amz-checksum-sha256} against the bytes it receives:
     * a small object sent with the SHA-256 of other bytes (and no {@code Content-MD5}) must be refused with
     * {@code 400}, and the same object with its own SHA-256 taken. A store that does so (AWS S3, s3proxy,
     * others with the flexible checksums) is then sent a bundle of one PUT with that checksum alone: it checks
     * the bytes against the hash the bundle was received with, so the bundle is not read and hashed here
     * first. A store that takes the wrong one is sent the header with every body, hashed here and sent with
     * its {@code Content-MD5} too. A store that does not implement the header ({@code 501}, or the code
     * {@code NotImplemented}, or a {@code 400} for the right one as for the wrong one) is sent no checksum
     * header at all, every body hashed here and sent with its {@code Content-MD5}.
     *
     * @param key where the probe object goes (removed after)
     * @param encryption the server-side encryption every object is sent with
     * @return what the store does with the checksum
     * @throws SdkException if the store cannot be reached or refuses the correct object for another reason
     */
    Checksums learnChecksums(String key, Optional<S3Settings.Encryption> encryption) {
        byte[] data = ("checksum probe " + Instant.now()).getBytes(StandardCharsets.UTF_8);
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(key)
                .checksumSHA256(base64(digest("SHA-256", "another body".getBytes(StandardCharsets.UTF_8))));
        encryption.ifPresent(e -> put.serverSideEncryption(algorithm(e)).ssekmsKeyId(e.kmsKeyId().orElse(null)));
        Checksums found;
        try {
            s3.putObject(put.build(), RequestBody.fromBytes(data));
            found = Checksums.IGNORED;
        } catch (S3Exception e) {
            if (notImplemented(e)) {
                found = Checksums.UNSUPPORTED;
            } else if (e.statusCode() == 400) {
                found = Checksums.CHECKED;
            } else {
                throw e;
            }
        }
        try {
            if (found == Checksums.CHECKED) {
                s3.putObject(put.checksumSHA256(base64(digest("SHA-256", data))).build(), RequestBody.fromBytes(data));
            }
        } catch (S3Exception e) {
            if (!notImplemented(e) && e.statusCode() != 400) {
                throw e;
            }
            found = Checksums.UNSUPPORTED; // refuses the header whatever it says
        } finally {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        }
        checksums = found;
        return found;
    }

    /** Whether a store's answer says it does not implement what the request asked. */
    private static boolean notImplemented(S3Exception e) {
        return e.statusCode() == 501 || e.awsErrorDetails() != null && "NotImplemented".equals(e.awsErrorDetails().errorCode());
    }

    /** What the store does with checksums, as last learnt. */
    Checksums checksums() {
        return checksums;
    }

    /** Sends every body hashed here with its {@code Content-MD5}, as for a store that does not check checksums (tests). */
    void hashEveryBody() {
        checksums = Checksums.IGNORED;
    }

    /** Whether requests may carry the checksum headers: the store takes them, checked or not. */
    private boolean sendChecksums() {
        Checksums c = checksums;
        return c == Checksums.CHECKED || c == Checksums.IGNORED;
    }

    /**
     * Uploads {@code file} to {@code key} unless another writer stores it first (a conditional write,
     * {@code If-None-Match: *}, refused with 412, counts as stored), then checks what is stored.
     *
     * @throws IOException if the file cannot be read, does not have {@code sha256}, or the stored object
     *     is not the file
     * @throws SdkException if the store refuses or cannot be reached
     */
    void upload(Path file, String key, String sha256, ObjectOptions options) throws IOException {
        retryAborts();
        long size;
        Stored stored;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            size = ch.size();
            stored = size <= PART_SIZE ? putWhole(ch, key, sha256, size, options) : multipart(ch, key, sha256, size, options);
        }
        if (stored.written()) {
            verifyStored(key, size, stored);
        }
    }

    /**
     * What an upload left: whether it wrote the object (not when the key already held one), the checksum
     * the object must have (base64 SHA-256, or of the parts' SHA-256s with {@code -N}), and the one the
     * store answered with, if it did (else a {@code HEAD} asks).
     */
    private record Stored(boolean written, String expected, Optional<String> answered) {
        static Stored already() {
            return new Stored(false, "", Optional.empty());
        }
    }

    /**
     * One PUT of the whole file. A store that checks {@code x-amz-checksum-sha256} checks the file's bytes
     * against {@code sha256}; for any other, the file is hashed here first and sent with its MD5.
     */
    private Stored putWhole(FileChannel ch, String key, String sha256, long size, ObjectOptions options) throws IOException {
        Checksums known = checksums;
        boolean storeChecks = known == Checksums.CHECKED;
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(key).contentLength(size)
                .contentType("application/zip").metadata(Map.of("sha256", sha256)).ifNoneMatch("*");
        if (storeChecks || known == Checksums.IGNORED) {
            put.checksumSHA256(base64(Hex.decode(sha256)));
        }
        if (!storeChecks) {
            byte[][] d = digests(ch, 0, size, null);
            if (!Hex.encode(d[0]).equals(sha256)) {
                throw new IOException("the file's SHA-256 is not " + sha256);
            }
            put.contentMD5(base64(d[1]));
        }
        options.encryption().ifPresent(e -> put.serverSideEncryption(algorithm(e)).ssekmsKeyId(e.kmsKeyId().orElse(null)));
        options.lock().ifPresent(l -> put.objectLockMode(l.mode()).objectLockRetainUntilDate(l.until()));
        try {
            String answered = s3.putObject(put.build(), body(ch, 0, size, "application/zip")).checksumSHA256();
            return new Stored(true, base64(Hex.decode(sha256)), Optional.ofNullable(answered));
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                return Stored.already();
            }
            if (e.statusCode() == 400 && storeChecks && !Hex.encode(digests(ch, 0, size, null)[0]).equals(sha256)) {
                throw new IOException("the file's SHA-256 is not " + sha256 + " (the store refused its bytes)", e);
            }
            throw e;
        }
    }

    /**
     * A multipart upload: each part is hashed here (SHA-256 and MD5, which the store checks), the parts'
     * whole must have {@code sha256}, and only then is the upload completed. Any failure aborts it.
     *
     * @return what was stored, with the composite checksum the object must have
     */
    private Stored multipart(FileChannel ch, String key, String sha256, long size, ObjectOptions options) throws IOException {
        long partSize = Math.max(PART_SIZE, (size + MAX_PARTS - 1) / MAX_PARTS);
        boolean withChecksums = sendChecksums();
        CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder().bucket(bucket).key(key)
                .contentType("application/zip").checksumAlgorithm(withChecksums ? ChecksumAlgorithm.SHA256 : null)
                .metadata(Map.of("sha256", sha256));
        options.encryption().ifPresent(e -> create.serverSideEncryption(algorithm(e)).ssekmsKeyId(e.kmsKeyId().orElse(null)));
        options.lock().ifPresent(l -> create.objectLockMode(l.mode()).objectLockRetainUntilDate(l.until()));
        String uploadId = s3.createMultipartUpload(create.build()).uploadId();
        try {
            MessageDigest whole = Digests.newSha256();
            MessageDigest ofParts = Digests.newSha256();
            List<CompletedPart> parts = new ArrayList<>();
            for (long offset = 0; offset < size; offset += partSize) {
                long from = offset;
                long length = Math.min(partSize, size - offset);
                byte[][] d = digests(ch, from, length, whole);
                ofParts.update(d[0]);
                int number = parts.size() + 1;
                UploadPartResponse r = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                        .contentLength(length).contentMD5(base64(d[1])).checksumSHA256(withChecksums ? base64(d[0]) : null),
                        body(ch, from, length, "application/octet-stream"));
                parts.add(CompletedPart.builder().partNumber(number).eTag(r.eTag())
                        .checksumSHA256(withChecksums ? base64(d[0]) : null).build());
            }
            if (!Hex.encode(whole.digest()).equals(sha256)) {
                throw new IOException("the file's SHA-256 is not " + sha256);
            }
            String answered;
            try {
                answered = s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts)).ifNoneMatch("*")).checksumSHA256();
            } catch (S3Exception e) {
                if (e.statusCode() == 412) {
                    abort(key, uploadId);
                    return Stored.already();
                }
                throw e;
            }
            return new Stored(true, base64(ofParts.digest()) + "-" + parts.size(), Optional.ofNullable(answered));
        } catch (IOException | RuntimeException e) {
            try {
                abort(key, uploadId);
            } catch (SdkException a) {
                if (unaborted.size() < MAX_UNABORTED) {
                    unaborted.add(new Pending(key, uploadId));
                }
                e.addSuppressed(a);
            }
            throw e;
        }
    }

    /**
     * One PUT of a few bytes held in memory (the readiness probe), with its {@code Content-MD5}, its SHA-256
     * where the store takes the header, and the configured encryption, but no retention: the probe is deleted at once.
     */
    void putBytes(String key, byte[] data, Optional<S3Settings.Encryption> encryption) {
        putBytes(key, data, encryption, null, null);
    }

    /** {@link #putBytes(String, byte[], Optional)} with the headers a static reader of the object gets (null: none). */
    void putBytes(String key, byte[] data, Optional<S3Settings.Encryption> encryption, String contentType, String cacheControl) {
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(key).contentType(contentType).cacheControl(cacheControl)
                .contentMD5(base64(digest("MD5", data))).checksumSHA256(sendChecksums() ? base64(digest("SHA-256", data)) : null);
        encryption.ifPresent(e -> put.serverSideEncryption(algorithm(e)).ssekmsKeyId(e.kmsKeyId().orElse(null)));
        s3.putObject(put.build(), RequestBody.fromBytes(data));
    }

    private static ServerSideEncryption algorithm(S3Settings.Encryption e) {
        return e.kms() ? ServerSideEncryption.AWS_KMS : ServerSideEncryption.AES256;
    }

    private void abort(String key, String uploadId) {
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    }

    /**
     * Checks the stored object's checksum: the one the store answered the upload with (it computed it from
     * the bytes it received), else the one a {@code HEAD} reports, with the stored size.
     */
    private void verifyStored(String key, long size, Stored stored) throws IOException {
        String checksum = stored.answered().orElse(null);
        if (checksum == null) {
            ChecksumMode mode = sendChecksums() ? ChecksumMode.ENABLED : null;
            HeadObjectResponse h = s3.headObject(b -> b.bucket(bucket).key(key).checksumMode(mode));
            if (h.contentLength() == null || h.contentLength() != size) {
                throw new IOException("s3://" + bucket + "/" + key + ": stored " + h.contentLength() + " bytes, sent " + size);
            }
            checksum = h.checksumSHA256();
        }
        if (checksum != null && !checksum.equals(stored.expected())) {
            throw new IOException("s3://" + bucket + "/" + key + ": the store's SHA-256 " + checksum + " is not " + stored.expected());
        }
    }

    /**
     * The SHA-256 and MD5 of a range of the file, read once; {@code whole}, if given, is updated too.
     *
     * @return {@code {sha256, md5}}
     */
    private static byte[][] digests(FileChannel ch, long from, long length, MessageDigest whole) throws IOException {
        MessageDigest sha = Digests.newSha256();
        MessageDigest md5 = md5();
        byte[] buf = new byte[BUFFER];
        try (InputStream in = new RangeStream(ch, from, length)) {
            for (int n; (n = in.read(buf)) > 0;) {
                sha.update(buf, 0, n);
                md5.update(buf, 0, n);
                if (whole != null) {
                    whole.update(buf, 0, n);
                }
            }
        }
        return new byte[][] {sha.digest(), md5.digest()};
    }

    /**
     * A request body of a range of the file, read ahead in pieces of {@link #READ_AHEAD}: the SDK reads it
     * (to sign it over plain HTTP, then to send it) a few kilobytes at a time, each read otherwise a system call.
     */
    private static RequestBody body(FileChannel ch, long from, long length, String contentType) {
        return RequestBody.fromContentProvider(() -> new BufferedInputStream(new RangeStream(ch, from, length), READ_AHEAD), length,
                contentType);
    }

    /** A digest of bytes in memory ({@code MD5} or {@code SHA-256}). */
    static byte[] digest(String algorithm, byte[] data) {
        return "MD5".equals(algorithm) ? md5().digest(data) : Digests.newSha256().digest(data);
    }

    private static MessageDigest md5() {
        try {
            // MD5 only for Content-MD5, which every S3-compatible store checks; integrity rests on SHA-256.
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no MD5 in this Java runtime", e);
        }
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** A range of a file as a stream, read with positional reads (several may share the channel). */
    private static final class RangeStream extends InputStream {
        private final FileChannel ch;
        private long position;
        private final long end;

        RangeStream(FileChannel ch, long from, long length) {
            this.ch = ch;
            this.position = from;
            this.end = from + length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (position >= end) {
                return -1;
            }
            int n = ch.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - position)), position);
            if (n < 0) {
                throw new EOFException("the file ended before its part did");
            }
            position += n;
            return n;
        }
    }
}
