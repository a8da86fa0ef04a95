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
import java.util.List;

/**
 * A time-stamp authority on loopback made of {@code openssl ts -reply} behind a small HTTP handler: a
 * throwaway root CA and a TSA certificate (critical extended key usage timeStamping) are made with
 * openssl in a folder; each request is written to a file, answered by openssl, and kept for inspection.
 */
public final class OpensslTsa implements AutoCloseable {
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
        ExternalTools.require("openssl", "openssl");
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
        ExternalTools.check(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=ProofMode Test TSA Root", "-days", "3650",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"), dir);
        ExternalTools.check(List.of("openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=ProofMode Test TSA"), dir);
        ExternalTools.check(List.of("openssl", "x509", "-req", "-in", "tsa.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", "tsa.pem", "-days", "3650", "-extfile", "tsa-ext.cnf"), dir);
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
            ExternalTools.Run run = ExternalTools.run(List.of("openssl", "ts", "-reply", "-config", "openssl.cnf",
                    "-queryfile", q.toString(), "-inkey", "tsa.key", "-signer", "tsa.pem", "-chain", "ca.pem",
                    "-out", r.toString()), dir);
            if (run.exit() != 0) {
                byte[] msg = run.err().getBytes(StandardCharsets.UTF_8);
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
