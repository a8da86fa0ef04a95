// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A time-stamp authority on loopback made of {@code openssl ts -reply} behind a small HTTP handler: a
 * throwaway root CA and a TSA certificate (critical extended key usage timeStamping) are made with
 * openssl in a folder; each request is written to a file, answered by openssl, and kept for inspection.
 */
public final class OpensslTsa implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final HttpServer server;
    private final List<byte[]> requests = new ArrayList<>();

    private OpensslTsa(Path dir, HttpServer server) {
        this.dir = dir;
        this.server = server;
    }

    /**
     * Makes the certificates in {@code dir} and starts serving on 127.0.0.1 (any free port, or the given one).
     *
     * @param dir an empty folder for keys, certificates and requests
     * @param port the port, or 0 for any free one
     */
    public static OpensslTsa start(Path dir, int port) throws IOException {
        ExternalTool.require("openssl");
        Files.createDirectories(dir);
        makeCertificates(dir);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        OpensslTsa tsa = new OpensslTsa(dir, server);
        server.createContext("/tsr", tsa::handle);
        server.start();
        return tsa;
    }

    /** Makes the root and TSA certificates and the openssl configuration in {@code dir}. */
    public static void makeCertificates(Path dir) throws IOException {
        if (Files.exists(dir.resolve("tsa.pem"))) {
            return;
        }
        String d = dir.toAbsolutePath().toString();
        Files.writeString(dir.resolve("tsa-ext.cnf"), String.join("\n",
                "basicConstraints = critical,CA:FALSE",
                "keyUsage = critical,digitalSignature",
                "extendedKeyUsage = critical,timeStamping",
                "subjectKeyIdentifier = hash",
                "authorityKeyIdentifier = keyid", ""));
        Files.writeString(dir.resolve("openssl.cnf"), String.join("\n",
                "[ tsa ]",
                "default_tsa = tsa_config",
                "[ tsa_config ]",
                "dir = " + d,
                "serial = $dir/tsaserial",
                "crypto_device = builtin",
                "signer_cert = $dir/tsa.pem",
                "certs = $dir/ca.pem",
                "signer_key = $dir/tsa.key",
                "signer_digest = sha256",
                "default_policy = 1.2.3.4.1",
                "digests = sha256, sha384, sha512",
                "accuracy = secs:1",
                "ordering = yes",
                "tsa_name = yes",
                "ess_cert_id_chain = no",
                "ess_cert_id_alg = sha256", ""));
        Files.writeString(dir.resolve("tsaserial"), "01\n");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", d + "/ca.key", "-out", d + "/ca.pem", "-subj", "/CN=ProofMode Test TSA Root", "-days", "3650",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", d + "/tsa.key", "-out", d + "/tsa.csr", "-subj", "/CN=ProofMode Test TSA");
        openssl("x509", "-req", "-in", d + "/tsa.csr", "-CA", d + "/ca.pem", "-CAkey", d + "/ca.key",
                "-CAcreateserial", "-out", d + "/tsa.pem", "-days", "3650", "-extfile", d + "/tsa-ext.cnf");
    }

    /**
     * Answers a request file with {@code openssl ts -reply}, as the server does.
     *
     * @param dir the folder of {@link #makeCertificates}
     * @param query the DER request
     * @param reply where the DER response goes
     * @return what openssl did
     */
    public static ProcessResult reply(Path dir, Path query, Path reply) {
        String d = dir.toAbsolutePath().toString();
        return ExternalTool.run(List.of("openssl", "ts", "-reply", "-config", d + "/openssl.cnf", "-queryfile", query.toString(),
                "-inkey", d + "/tsa.key", "-signer", d + "/tsa.pem", "-chain", d + "/ca.pem", "-out", reply.toString()),
                Map.of(), TIMEOUT);
    }

    private static void openssl(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        ProcessResult r = ExternalTool.run(cmd, Map.of(), TIMEOUT);
        if (!r.succeeded()) {
            throw new AssertionError(r.describe());
        }
    }

    /** The URL to post requests to. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/tsr");
    }

    /** The root certificate (PEM). */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /** The TSA's certificate (PEM). */
    public Path tsaPem() {
        return dir.resolve("tsa.pem");
    }

    /** The requests received so far, as DER. */
    public synchronized List<byte[]> requests() {
        return List.copyOf(requests);
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] query = ex.getRequestBody().readNBytes(64 * 1024);
            if (!"POST".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            requests.add(query);
            int n = requests.size();
            Path q = dir.resolve("request-" + n + ".tsq");
            Path r = dir.resolve("reply-" + n + ".tsr");
            Files.write(q, query);
            ProcessResult run = reply(dir, q, r);
            if (!run.succeeded()) {
                byte[] msg = run.stderr().getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(500, msg.length);
                ex.getResponseBody().write(msg);
                return;
            }
            byte[] reply = Files.readAllBytes(r);
            ex.getResponseHeaders().add("Content-Type", "application/timestamp-reply");
            ex.sendResponseHeaders(200, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
