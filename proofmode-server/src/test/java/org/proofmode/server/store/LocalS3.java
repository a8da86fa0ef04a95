// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3 server for tests: s3proxy in this JVM on 127.0.0.1, over a folder, with SigV4 authentication
 * (an access key and secret made for the test), and one bucket. It can be stopped and started again on the
 * same port and folder, with the same or other keys.
 */
public final class LocalS3 implements AutoCloseable {
    /** The bucket every test uses. */
    public static final String BUCKET = "evidence";

    private final Path root;
    private final S3Settings.AccessKeys keys;
    private S3Proxy proxy;
    private int port;
    private S3Client client;

    private LocalS3(Path root, S3Settings.AccessKeys keys) {
        this.root = root;
        this.keys = keys;
    }

    /** Starts a server over a new folder under {@code dir} and creates {@link #BUCKET}. */
    public static LocalS3 start(Path dir) throws Exception {
        LocalS3 s3 = new LocalS3(Files.createDirectories(dir.resolve("s3")),
                new S3Settings.AccessKeys("AKIDPROOFMODETEST", "secret-" + System.nanoTime(), Optional.empty()));
        s3.run(s3.keys, 0);
        s3.client = S3Clients.build(s3.settings(""));
        s3.client.createBucket(b -> b.bucket(BUCKET));
        return s3;
    }

    private void run(S3Settings.AccessKeys as, int onPort) throws Exception {
        proxy = S3Proxy.builder().blobStore(new FilesystemNio2BlobStore(root.toString()))
                .endpoint(URI.create("http://127.0.0.1:" + onPort))
                .awsAuthentication(AuthenticationType.AWS_V4, as.accessKeyId(), as.secretAccessKey())
                .build();
        proxy.start();
        for (int i = 0; i < 500 && !"STARTED".equals(proxy.getState()); i++) {
            Thread.sleep(10);
        }
        port = proxy.getPort();
    }

    /** Stops the server (the folder and port are kept for {@link #restart}). */
    public void stop() throws Exception {
        proxy.stop();
    }

    /** Starts it again on the same port and folder, accepting only {@code as}. */
    public void restart(S3Settings.AccessKeys as) throws Exception {
        run(as, port);
    }

    /** The keys it accepts when started. */
    public S3Settings.AccessKeys keys() {
        return keys;
    }

    /** Its endpoint URL. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Settings for {@link #BUCKET} under a prefix, path-style, with this server's endpoint and keys. */
    public S3Settings settings(String prefix) {
        return S3Settings.fromEnvironment("s3://" + BUCKET + (prefix.isEmpty() ? "" : "/" + prefix), Map.of())
                .withPathStyle(true).withAccess(endpoint(), keys);
    }

    /** A client with the right keys, to look at what is stored. */
    public S3Client client() {
        return client;
    }

    /** The keys of the objects under a prefix. */
    public List<String> keysUnder(String prefix) {
        return client.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix)).contents().stream().map(S3Object::key).toList();
    }

    /** The multipart uploads begun and neither completed nor aborted. */
    public List<MultipartUpload> incompleteUploads() {
        return client.listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
    }

    /** The AWS CLI's environment: this server's keys, and no configuration or instance metadata of this machine. */
    public Map<String, String> awsCliEnvironment() {
        return Map.of("AWS_ACCESS_KEY_ID", keys.accessKeyId(), "AWS_SECRET_ACCESS_KEY", keys.secretAccessKey(),
                "AWS_DEFAULT_REGION", "us-east-1", "AWS_CONFIG_FILE", "/dev/null", "AWS_SHARED_CREDENTIALS_FILE", "/dev/null",
                "AWS_EC2_METADATA_DISABLED", "true", "AWS_PAGER", "");
    }

    /** An object's bytes. */
    public byte[] read(String key) {
        return client.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
    }

    @Override
    public void close() throws IOException {
        if (client != null) {
            client.close();
        }
        try {
            proxy.stop();
        } catch (Exception e) {
            throw new IOException("cannot stop s3proxy", e);
        }
    }
}
