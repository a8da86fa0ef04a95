// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where and how an {@link S3BlobStore} keeps blobs: a bucket and key prefix ({@code s3://BUCKET/PREFIX}),
 * the endpoint, region and credentials of the usual AWS environment, and what each stored object asks of
 * the store (server-side encryption, object-lock retention).
 *
 * <p>Security: credentials come only from the environment or an AWS profile, never from a command line;
 * {@link #toString()} never prints the secret key.
 *
 * @param bucket the bucket's name
 * @param prefix the key prefix without leading or trailing {@code /}; empty for the bucket's root
 * @param endpoint an S3-compatible store's URL ({@code AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL});
 *     empty for AWS
 * @param region the signing region ({@code AWS_REGION}); empty: the SDK's chain (profile), else
 *     {@code us-east-1}
 * @param pathStyle {@code https://host/bucket/key} instead of {@code https://bucket.host/key} (MinIO, Ceph
 *     RGW, Garage, s3proxy)
 * @param keys access keys from the environment; empty: the profile ({@code AWS_PROFILE}) or the SDK's
 *     default chain
 * @param profile the AWS profile to read credentials (and region) from
 * @param encryption server-side encryption asked for on each object
 * @param retention object-lock retention set on each stored bundle
 */
public record S3Settings(String bucket, String prefix, Optional<URI> endpoint, Optional<String> region, boolean pathStyle,
        Optional<AccessKeys> keys, Optional<String> profile, Optional<Encryption> encryption, Optional<Retention> retention) {
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9!_.*'()-]+(/[A-Za-z0-9!_.*'()-]+)*");

    /** Validates the fields. */
    public S3Settings {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(encryption, "encryption");
        Objects.requireNonNull(retention, "retention");
        if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
            throw new IllegalArgumentException("not a bucket name: " + bucket);
        }
        if (!prefix.isEmpty() && (!PREFIX.matcher(prefix).matches() || prefix.equals(".")
                || (("/" + prefix + "/").contains("/../")) || ("/" + prefix + "/").contains("/./"))) {
            throw new IllegalArgumentException("not a key prefix (letters, digits, !_.*'()- and / between names): " + prefix);
        }
        endpoint.ifPresent(u -> {
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) endpoint: " + u);
            }
        });
    }

    /**
     * Access keys, as {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and {@code AWS_SESSION_TOKEN}
     * give them.
     *
     * @param accessKeyId the key id
     * @param secretAccessKey the secret; never printed
     * @param sessionToken a temporary session's token
     */
    public record AccessKeys(String accessKeyId, String secretAccessKey, Optional<String> sessionToken) {
        /** Validates the fields. */
        public AccessKeys {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            Objects.requireNonNull(sessionToken, "sessionToken");
        }

        @Override
        public String toString() {
            return "AccessKeys[" + accessKeyId + ", secret hidden]";
        }
    }

    /**
     * Server-side encryption of each object.
     *
     * @param kms {@code aws:kms} with the key {@code kmsKeyId} (or the bucket's default KMS key) if true,
     *     else {@code AES256} (keys managed by the store)
     * @param kmsKeyId the KMS key id or ARN, only with {@code aws:kms}
     */
    public record Encryption(boolean kms, Optional<String> kmsKeyId) {
        /** Validates the fields. */
        public Encryption {
            Objects.requireNonNull(kmsKeyId, "kmsKeyId");
            if (!kms && kmsKeyId.isPresent()) {
                throw new IllegalArgumentException("a KMS key id goes only with aws:kms");
            }
        }

        /** Reads {@code AES256} or {@code aws:kms}. */
        public static Encryption parse(String algorithm, Optional<String> kmsKeyId) {
            return switch (algorithm) {
                case "AES256" -> new Encryption(false, kmsKeyId);
                case "aws:kms" -> new Encryption(true, kmsKeyId);
                default -> throw new IllegalArgumentException("server-side encryption is AES256 or aws:kms, not " + algorithm);
            };
        }
    }

    /** Object-lock retention modes (WORM): a governance lock can be lifted by a privileged user, a compliance lock by nobody. */
    public enum LockMode { GOVERNANCE, COMPLIANCE }

    /**
     * Object-lock retention of each stored bundle: it cannot be overwritten or deleted for {@code days}.
     *
     * @param mode governance or compliance
     * @param days how long, from the upload
     */
    public record Retention(LockMode mode, int days) {
        /** Validates the fields. */
        public Retention {
            Objects.requireNonNull(mode, "mode");
            if (days < 1 || days > 36_500) {
                throw new IllegalArgumentException("object-lock retention is 1 to 36500 days");
            }
        }
    }

    /**
     * Reads a location {@code s3://BUCKET[/PREFIX]} and takes the endpoint, region and credentials from the
     * usual AWS variables of {@code env}: {@code AWS_ENDPOINT_URL_S3} (else {@code AWS_ENDPOINT_URL}),
     * {@code AWS_REGION} (else {@code AWS_DEFAULT_REGION}), {@code AWS_ACCESS_KEY_ID} with
     * {@code AWS_SECRET_ACCESS_KEY} (and {@code AWS_SESSION_TOKEN}), {@code AWS_PROFILE}.
     *
     * @throws IllegalArgumentException if the location or a variable is malformed, or only one of the key
     *     variables is set
     */
    public static S3Settings fromEnvironment(String location, Map<String, String> env) {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(env, "env");
        if (!isS3(location)) {
            throw new IllegalArgumentException("not an s3:// location: " + location);
        }
        String rest = location.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        while (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        Optional<URI> endpoint = variable(env, "AWS_ENDPOINT_URL_S3").or(() -> variable(env, "AWS_ENDPOINT_URL")).map(S3Settings::uri);
        Optional<String> region = variable(env, "AWS_REGION").or(() -> variable(env, "AWS_DEFAULT_REGION"));
        Optional<String> id = variable(env, "AWS_ACCESS_KEY_ID");
        Optional<String> secret = variable(env, "AWS_SECRET_ACCESS_KEY");
        if (id.isPresent() != secret.isPresent()) {
            throw new IllegalArgumentException("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together");
        }
        Optional<AccessKeys> keys = id.map(i -> new AccessKeys(i, secret.orElseThrow(), variable(env, "AWS_SESSION_TOKEN")));
        return new S3Settings(bucket, prefix, endpoint, region, false, keys, variable(env, "AWS_PROFILE"),
                Optional.empty(), Optional.empty());
    }

    /** Whether a {@code --blobs} value names a bucket rather than a folder. */
    public static boolean isS3(String location) {
        return location.regionMatches(true, 0, "s3://", 0, 5);
    }

    /** The location as given: {@code s3://BUCKET/PREFIX}. */
    public String location() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    /** A copy with path-style addressing on or off. */
    public S3Settings withPathStyle(boolean on) {
        return new S3Settings(bucket, prefix, endpoint, region, on, keys, profile, encryption, retention);
    }

    /** A copy with server-side encryption and object-lock retention. */
    public S3Settings withObjectOptions(Optional<Encryption> newEncryption, Optional<Retention> newRetention) {
        return new S3Settings(bucket, prefix, endpoint, region, pathStyle, keys, profile, newEncryption, newRetention);
    }

    /** A copy with another endpoint and access keys (tests, and tools that do not read the environment). */
    public S3Settings withAccess(URI newEndpoint, AccessKeys newKeys) {
        return new S3Settings(bucket, prefix, Optional.of(newEndpoint), region, pathStyle, Optional.of(newKeys), profile,
                encryption, retention);
    }

    private static Optional<String> variable(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static URI uri(String s) {
        try {
            return new URI(s);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not an endpoint URL: " + s, e);
        }
    }
}
