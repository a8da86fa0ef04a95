// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.proofmode.media.Digests;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Garage): {@code <prefix>/ab/cd/<sha256>}.
 *
 * <p>A bundle is uploaded as a stream from its file, with flat memory: one PUT up to
 * {@link S3Uploads#PART_SIZE}, a multipart upload above. Every request carries the body's
 * {@code x-amz-checksum-sha256}, so the store refuses bytes that changed on the way, unless the store does
 * not implement that header (answers {@code 501}: then every body goes with its {@code Content-MD5}
 * alone, computed here, with the SHA-256 checked here as it is read). A store found at
 * {@link #open} to check that checksum is sent a one-PUT bundle as it is, checked against the hash it was
 * received with; any other store is sent it with its {@code Content-MD5} too, both computed here from
 * the file. The parts of a multipart upload are hashed here and their whole must have the bundle's SHA-256
 * before the upload is completed. A PUT and a {@code CompleteMultipartUpload} are atomic: nothing is
 * visible under the key until the object is whole, and a failed multipart upload is aborted (a killed
 * process leaves parts that the bucket's {@code AbortIncompleteMultipartUpload} lifecycle rule removes;
 * they are never an object). After the upload the SHA-256 the store answered with (whole, or of the
 * parts' checksums) must be the one sent; a store that answers none is asked with a {@code HEAD}, which
 * checks the stored size and, where the store keeps it, the stored SHA-256. Names come only from hashes checked to be 64 hex digits.
 *
 * <p>Security: credentials come from the environment or a profile ({@link S3Settings}); no error message
 * carries them.
 */
public final class S3BlobStore implements BlobStore {
    private final S3Client s3;
    private final S3Settings settings;
    private final Path staging;
    private final S3Uploads uploads;

    S3BlobStore(S3Client s3, S3Settings settings, Path staging) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.staging = Objects.requireNonNull(staging, "staging");
        this.uploads = new S3Uploads(s3, settings);
    }

    /**
     * Connects to the bucket, checks that it can be written, read and cleaned (a {@link #probe()}, sent with
     * its {@code Content-MD5} alone), asks whether it checks, takes or does not implement SHA-256 checksums
     * ({@code S3Uploads.learnChecksums}; a store that does not is used all the same), and aborts
     * the multipart uploads under the prefix begun more than {@code staleUploads} ago (left by a process
     * killed during an upload).
     *
     * @param settings the bucket, prefix, endpoint, credentials and object options
     * @param staging an owner-only local folder for temporary copies ({@link #local})
     * @param staleUploads how old an unfinished upload must be to be taken for a dead process's
     * @throws IOException with a one-line message naming the bucket if it cannot be used
     */
    public static S3BlobStore open(S3Settings settings, Path staging, Duration staleUploads) throws IOException {
        S3BlobStore store = new S3BlobStore(S3Clients.build(settings), settings, staging);
        try {
            store.probe();
            store.uploads.learnChecksums(store.prefixed(".probe/" + UUID.randomUUID()), settings.encryption());
            store.uploads.abortStale(store.prefixed(""), store::isBlobKey, Instant.now().minus(staleUploads));
        } catch (SdkException e) {
            store.close();
            throw new IOException("cannot use " + settings.location() + ": " + S3Clients.describe(e), e);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw new IOException("cannot use " + settings.location() + ": " + e.getMessage(), e);
        }
        return store;
    }

    /** The bucket's location, {@code s3://BUCKET/PREFIX}. */
    public String location() {
        return settings.location();
    }

    @Override
    public void put(Path file, String sha256) throws IOException {
        String key = key(sha256);
        try {
            // A small bundle goes straight to the conditional PUT (one request: a store that holds it already
            // answers 412); a large one is looked for first rather than sent again part by part.
            if (Files.size(file) <= S3Uploads.PART_SIZE || !exists(sha256)) {
                uploads.upload(file, key, sha256, objectOptions());
            }
        } catch (SdkException e) {
            throw failure(key, e);
        }
        Files.deleteIfExists(file);
    }

    /**
     * Writes a small object for static serving under {@code <prefix>/<name>} (the transparency log's copy:
     * {@code log/checkpoint}, {@code log/tile/...}), with the server's encryption but no retention lock: a
     * checkpoint is replaced as the log grows.
     *
     * @param name a path under the prefix, made by the server (never from a request)
     */
    public void putPublic(String name, byte[] data, String contentType, String cacheControl) throws IOException {
        String key = prefixed(name);
        try {
            uploads.putBytes(key, data, settings.encryption(), contentType, cacheControl);
        } catch (SdkException e) {
            throw failure(key, e);
        }
    }

    @Override
    public void probe() throws IOException {
        uploads.retryAborts();
        String key = prefixed(".probe/" + UUID.randomUUID());
        byte[] probe = ("readiness probe " + Instant.now()).getBytes(StandardCharsets.UTF_8);
        try {
            uploads.putBytes(key, probe, settings.encryption());
            try {
                byte[] back = s3.getObjectAsBytes(b -> b.bucket(settings.bucket()).key(key)).asByteArray();
                if (!Arrays.equals(back, probe)) {
                    throw new IOException("the probe object read back differs from the one written");
                }
            } finally {
                s3.deleteObject(b -> b.bucket(settings.bucket()).key(key));
            }
        } catch (SdkException e) {
            throw failure(key, e);
        }
    }

    @Override
    public boolean exists(String sha256) throws IOException {
        String key = key(sha256);
        return ifStored(key, () -> s3.headObject(b -> b.bucket(settings.bucket()).key(key))).isPresent();
    }

    @Override
    public InputStream open(String sha256) throws IOException {
        String key = key(sha256);
        return ifStored(key, () -> s3.getObject(b -> b.bucket(settings.bucket()).key(key)))
                .orElseThrow(() -> new NoSuchFileException(sha256));
    }

    /** What a request about one object answers; empty if the store has no such object (404). */
    private <T> Optional<T> ifStored(String key, Supplier<T> request) throws IOException {
        try {
            return Optional.of(request.get());
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw failure(key, e);
        } catch (SdkException e) {
            throw failure(key, e);
        }
    }

    /** Downloads the blob into an owner-only file in the staging folder and checks its SHA-256. */
    @Override
    public LocalCopy local(String sha256) throws IOException {
        Path copy = AtomicFiles.createOwnerOnlyFile(AtomicFiles.privateDirectories(staging).resolve("download-" + UUID.randomUUID()));
        try {
            MessageDigest sha = Digests.newSha256();
            try (InputStream in = new DigestInputStream(open(sha256), sha); OutputStream out = Files.newOutputStream(copy)) {
                in.transferTo(out);
            }
            if (!Hex.encode(sha.digest()).equals(sha256)) {
                throw new IOException(location() + ": the object stored for " + sha256 + " has another SHA-256");
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
        return new LocalCopy() {
            @Override
            public Path path() {
                return copy;
            }

            @Override
            public void close() throws IOException {
                Files.deleteIfExists(copy);
            }
        };
    }

    /** Closes the client's connections. */
    @Override
    public void close() {
        s3.close();
    }

    /** The uploads to this bucket (for tests in this package). */
    S3Uploads uploads() {
        return uploads;
    }

    /** The object key of a blob: {@code <prefix>/ab/cd/<sha256>}. */
    String key(String sha256) {
        if (!Hex.isSha256(sha256) || !sha256.equals(sha256.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("not a lower-case SHA-256");
        }
        return prefixed(sha256.substring(0, 2) + "/" + sha256.substring(2, 4) + "/" + sha256);
    }

    /** Whether a key is one {@link #key} makes. */
    boolean isBlobKey(String key) {
        String sha = key.substring(key.lastIndexOf('/') + 1);
        return Hex.isSha256(sha) && sha.equals(sha.toLowerCase(Locale.ROOT)) && key.equals(key(sha));
    }

    private String prefixed(String name) {
        return settings.prefix().isEmpty() ? name : settings.prefix() + "/" + name;
    }

    /** What every stored bundle asks of the store: its hash as metadata, encryption and retention. */
    private S3Uploads.ObjectOptions objectOptions() {
        return new S3Uploads.ObjectOptions(settings.encryption(), settings.retention().map(r -> new S3Uploads.Lock(
                r.mode() == S3Settings.LockMode.COMPLIANCE ? ObjectLockMode.COMPLIANCE : ObjectLockMode.GOVERNANCE,
                Instant.now().plus(r.days(), ChronoUnit.DAYS))));
    }

    /** An SDK failure as one line naming the object, never the credentials. */
    IOException failure(String key, SdkException e) {
        return new IOException("s3://" + settings.bucket() + "/" + key + ": " + S3Clients.describe(e), e);
    }
}
