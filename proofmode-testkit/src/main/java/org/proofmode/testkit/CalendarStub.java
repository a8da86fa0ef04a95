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
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.Op;
import org.proofmode.timestamp.ots.OtsFormatException;
import org.proofmode.timestamp.ots.Timestamp;

/**
 * An OpenTimestamps calendar on loopback speaking the real protocol. {@code POST /digest} appends the
 * calendar's own nonce, hashes, and answers a pending attestation naming this calendar;
 * {@code GET /timestamp/<hex>} answers 404 while pending, and after {@link #anchor(long)} a subtree
 * that ends in a Bitcoin block attestation.
 */
public final class CalendarStub implements AutoCloseable {
    private final HttpServer server;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, byte[]> commitments = new LinkedHashMap<>();
    private long anchoredAt = -1;
    private int submissions;
    private int lookups;

    private CalendarStub(HttpServer server) {
        this.server = server;
    }

    /** Starts a calendar on 127.0.0.1 at the given port (0 for any free one). */
    public static CalendarStub start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        CalendarStub stub = new CalendarStub(server);
        server.createContext("/", stub::handle);
        server.start();
        return stub;
    }

    /** The calendar's URL, as written into pending attestations. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** From now on, every commitment answers as anchored in this Bitcoin block. */
    public synchronized void anchor(long height) {
        anchoredAt = height;
    }

    /** How many digests were submitted. */
    public synchronized int submissions() {
        return submissions;
    }

    /** How many times a commitment was asked for ({@code GET /timestamp/<hex>}). */
    public synchronized int lookups() {
        return lookups;
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            byte[] body = ex.getRequestBody().readNBytes(4096);
            if ("POST".equals(ex.getRequestMethod()) && path.equals("/digest")) {
                if (body.length < 1 || body.length > 64) {
                    send(ex, 400, new byte[0]);
                    return;
                }
                submissions++;
                Timestamp t = new Timestamp(body);
                byte[] nonce = new byte[16];
                random.nextBytes(nonce);
                Timestamp commitment = t.add(Op.append(nonce)).add(Op.sha256());
                commitment.attest(new Attestation.Pending(url().toString()));
                commitments.put(HexFormat.of().formatHex(commitment.msg()), commitment.msg());
                send(ex, 200, t.toBytes());
            } else if ("GET".equals(ex.getRequestMethod()) && path.startsWith("/timestamp/")) {
                lookups++;
                byte[] c = commitments.get(path.substring("/timestamp/".length()));
                if (c == null || anchoredAt < 0) {
                    send(ex, 404, "Pending confirmation in Bitcoin blockchain".getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                Timestamp t = new Timestamp(c);
                byte[] sibling = new byte[32];
                random.nextBytes(sibling);
                t.add(Op.prepend(sibling)).add(Op.sha256()).add(Op.sha256()).attest(new Attestation.Bitcoin(anchoredAt));
                send(ex, 200, t.toBytes());
            } else {
                send(ex, 404, new byte[0]);
            }
        } catch (OtsFormatException e) {
            send(ex, 500, new byte[0]);
        } finally {
            ex.close();
        }
    }

    private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "application/vnd.opentimestamps.v1");
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
