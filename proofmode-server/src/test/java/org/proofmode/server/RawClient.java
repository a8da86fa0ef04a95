// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 spoken by hand on a new connection from a chosen loopback address (Linux routes all of
 * 127.0.0.0/8 to the loopback interface), so that tests can be many clients, or one, as a server sees them.
 */
final class RawClient {
    private RawClient() {
    }

    /** {@code 127.0.0.n}. */
    static InetAddress loopback(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) n});
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A connection from {@code from} to the server's port on 127.0.0.1. */
    static Socket connect(InetAddress from, int port, int timeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress(loopback(1), port), timeoutMs);
            s.setSoTimeout(timeoutMs);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Sends one request with {@code Connection: close} on a new connection and reads the whole answer (empty when
     * the server closed the connection without one).
     */
    static String exchange(InetAddress from, int port, String request, int timeoutMs) throws IOException {
        try (Socket s = connect(from, port, timeoutMs)) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (java.net.SocketException reset) {
            return ""; // closed by the server before it read the request: no answer
        }
    }

    /**
     * Sends a request head and body on a new connection ({@code Connection: close} and the body's length are
     * added) and reads the whole answer; empty when the server closed the connection without one.
     */
    static String send(InetAddress from, int port, String head, byte[] body, int timeoutMs) throws IOException {
        try (Socket s = connect(from, port, timeoutMs)) {
            OutputStream out = s.getOutputStream();
            out.write((head + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.net.SocketException reset) {
            return "";
        }
    }

    /** A health check on a new connection; the answer's status, or 0 without one. */
    static int health(InetAddress from, int port, int timeoutMs) throws IOException {
        return status(exchange(from, port, "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeoutMs));
    }

    /** The status of an answer's first line, or 0 without one. */
    static int status(String answer) {
        if (!answer.startsWith("HTTP/1.1 ") || answer.length() < 12) {
            return 0;
        }
        return Integer.parseInt(answer.substring(9, 12));
    }
}
