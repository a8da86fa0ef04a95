// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Stores one file in a bucket, as the server does, in a JVM of its own (the tests give it a heap smaller
 * than the file): {@code S3PutMain s3://BUCKET/PREFIX FILE SHA256 STAGING}, with the endpoint and keys
 * from the usual AWS variables and path-style addressing.
 */
public final class S3PutMain {
    private S3PutMain() {}

    /** Stores the file; exits non-zero with the reason if it cannot. */
    public static void main(String[] args) throws Exception {
        S3Settings settings = S3Settings.fromEnvironment(args[0], System.getenv()).withPathStyle(true);
        try (S3BlobStore store = S3BlobStore.open(settings, Path.of(args[3]), Duration.ofHours(1))) {
            store.put(Path.of(args[1]), args[2]);
        }
        System.out.println("stored, heap max " + Runtime.getRuntime().maxMemory());
    }
}
