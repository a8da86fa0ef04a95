// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * An HTTPS web site on loopback ({@code 127.0.0.1}, a free port) with a test CA made here: a root, and
 * a server certificate for {@code 127.0.0.1}, {@code localhost} and {@link #ONION} issued by it. Pages are handlers added
 * by path. Never reaches beyond this machine. Close it to stop it.
 */
public final class HttpsSite implements AutoCloseable {
    /** An onion-service name the certificate also holds, for tests that reach the site through a proxy. */
    public static final String ONION = "collecttestsite.onion";

    private final HttpsServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private final X509Certificate ca;
    private final X509Certificate leaf;

    private HttpsSite(HttpsServer server, X509Certificate ca, X509Certificate leaf) {
        this.server = server;
        this.ca = ca;
        this.leaf = leaf;
    }

    /** Starts a site with a fresh CA. */
    public static HttpsSite start() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256);
            KeyPair caKeys = g.generateKeyPair();
            KeyPair serverKeys = g.generateKeyPair();
            Instant now = Instant.now();
            X500Name caName = new X500Name("CN=ProofMode Test CA,O=ProofMode tests");
            JcaX509v3CertificateBuilder cab = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(30))), caName, caKeys.getPublic());
            cab.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            cab.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            X509Certificate ca = new JcaX509CertificateConverter().getCertificate(cab.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
            JcaX509v3CertificateBuilder sb = new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(30))), new X500Name("CN=127.0.0.1,O=ProofMode test site"), serverKeys.getPublic());
            sb.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.dNSName, ONION)}));
            sb.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            X509Certificate leaf = new JcaX509CertificateConverter().getCertificate(sb.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            char[] pw = "test".toCharArray();
            ks.setKeyEntry("server", serverKeys.getPrivate(), pw, new X509Certificate[] {leaf, ca});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), null, null);
            HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            s.setHttpsConfigurator(new HttpsConfigurator(ssl));
            HttpsSite site = new HttpsSite(s, ca, leaf);
            s.setExecutor(site.pool);
            s.start();
            return site;
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test site: " + e.getMessage(), e);
        }
    }

    /** Serves a path. */
    public HttpsSite page(String path, HttpHandler handler) {
        server.createContext(path, handler);
        return this;
    }

    /** Serves fixed bytes at a path with a content type. */
    public HttpsSite bytes(String path, String contentType, byte[] body) {
        return page(path, x -> send(x, 200, contentType, body));
    }

    /** Sends a whole answer. */
    public static void send(HttpExchange x, int status, String contentType, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", contentType);
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (var out = x.getResponseBody()) {
            out.write(body);
        }
    }

    /** Sends a redirect. */
    public static void redirect(HttpExchange x, String location) throws IOException {
        x.getResponseHeaders().set("Location", location);
        x.sendResponseHeaders(302, -1);
        x.close();
    }

    /** The address of a path. */
    public URI uri(String path) {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** The port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The test CA. */
    public X509Certificate ca() {
        return ca;
    }

    /** The server's certificate. */
    public X509Certificate serverCertificate() {
        return leaf;
    }

    /** Writes the CA as PEM. */
    public Path writeCa(Path file) {
        try {
            Files.writeString(file, "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(ca.getEncoded())
                    + "\n-----END CERTIFICATE-----\n", StandardCharsets.US_ASCII);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
