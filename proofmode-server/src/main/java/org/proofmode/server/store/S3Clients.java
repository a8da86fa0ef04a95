// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.time.Duration;
import org.proofmode.util.SafeText;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the S3 client of an {@link S3BlobStore} from its settings, and says SDK failures in one line. */
final class S3Clients {
    /** How long a connection to the store may take to open. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long a read from the store may wait for data. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    /** Connections kept to the store: uploads, downloads and probes at once. */
    static final int MAX_CONNECTIONS = 64;
    /**
     * Bodies from this size on ask {@code Expect: 100-continue} first, so that a refusal comes before the
     * body is sent; smaller ones are sent at once (the wait would cost more than the body).
     */
    static final long EXPECT_CONTINUE_BYTES = 1L << 20;

    private S3Clients() {}

    /**
     * A synchronous client on Apache HttpClient 5. Checksums are the ones {@link S3Uploads} sends
     * (the SDK adds none of its own, which stores other than AWS may not know).
     */
    static S3Client build(S3Settings settings) {
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder().connectionTimeout(CONNECT_TIMEOUT).socketTimeout(READ_TIMEOUT)
                        .maxConnections(MAX_CONNECTIONS))
                .credentialsProvider(credentials(settings))
                .region(region(settings))
                .forcePathStyle(settings.pathStyle())
                // Over plain HTTP (a store on the private network) the payload is signed whole, not as signed
                // chunks: a third less processor time per request here, and quicker for the store to take.
                .serviceConfiguration(c -> c.expectContinueThresholdInBytes(EXPECT_CONTINUE_BYTES).chunkedEncodingEnabled(false))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        settings.endpoint().ifPresent(b::endpointOverride);
        return b.build();
    }

    private static AwsCredentialsProvider credentials(S3Settings settings) {
        if (settings.keys().isPresent()) {
            S3Settings.AccessKeys k = settings.keys().get();
            return StaticCredentialsProvider.create(k.sessionToken().isPresent()
                    ? AwsSessionCredentials.create(k.accessKeyId(), k.secretAccessKey(), k.sessionToken().get())
                    : AwsBasicCredentials.create(k.accessKeyId(), k.secretAccessKey()));
        }
        return settings.profile().<AwsCredentialsProvider>map(ProfileCredentialsProvider::create)
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
    }

    /** The region given, else the SDK's chain (a profile's), else {@code us-east-1} as S3-compatible stores expect. */
    private static Region region(S3Settings settings) {
        if (settings.region().isPresent()) {
            return Region.of(settings.region().get());
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkException e) {
            return Region.US_EAST_1;
        }
    }

    /** An SDK failure in one line: the store's error code, message and HTTP status, or the client's reason. */
    static String describe(SdkException e) {
        String text;
        if (e instanceof AwsServiceException s && s.awsErrorDetails() != null) {
            String code = s.awsErrorDetails().errorCode();
            String message = s.awsErrorDetails().errorMessage();
            text = (code == null ? "" : code + ": ") + (message == null ? "no message" : message) + " (HTTP " + s.statusCode() + ")";
        } else {
            text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        return SafeText.escape(text.strip().lines().findFirst().orElse(""));
    }
}
