// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An S3 endpoint on 127.0.0.1 that does not implement the flexible checksums, as s3proxy 2.6 and older MinIO,
 * Ceph and Garage releases: an HTTP relay in front of a real S3 server that answers {@code 501 NotImplemented}
 * to every request carrying an {@code x-amz-checksum-*} or {@code x-amz-sdk-checksum-*} header and passes
 * every other request on, one request per connection.
 */
public final class ChecksumRefusingProxy implements AutoCloseable {
    private static final int MAX_HEAD = 64 << 10;

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger relayed = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** Listens on a free port of 127.0.0.1, relaying to {@code target}. */
    public ChecksumRefusingProxy(URI target) throws IOException {
        this.target = new InetSocketAddress(target.getHost(), target.getPort());
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "checksum-refusing-proxy");
        t.setDaemon(true);
        t.start();
    }

    /** Its endpoint URL. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    /** Requests answered {@code 501} so far. */
    public int refused() {
        return refused.get();
    }

    /** Requests passed on so far. */
    public int relayed() {
        return relayed.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                Thread t = new Thread(() -> serve(client), "checksum-refusing-proxy-request");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = new BufferedInputStream(client.getInputStream());
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String[] lines = head.split("\r\n");
            boolean checksum = false;
            boolean expectContinue = false;
            long length = 0;
            StringBuilder passed = new StringBuilder(lines[0]).append("\r\n");
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                String name = lines[i].substring(0, Math.max(0, colon)).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim();
                checksum |= name.startsWith("x-amz-checksum-") || name.startsWith("x-amz-sdk-checksum-");
                expectContinue |= name.equals("expect") && value.equalsIgnoreCase("100-continue");
                if (name.equals("content-length")) {
                    length = Long.parseLong(value);
                }
                if (!name.equals("connection")) {
                    passed.append(lines[i]).append("\r\n");
                }
            }
            if (checksum) {
                refused.incrementAndGet();
                if (!expectContinue) {
                    in.skipNBytes(length); // read what the client sends, so that it reads the answer
                }
                byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NotImplemented</Code><Message>A header you"
                        + " provided implies functionality that is not implemented</Message></Error>").getBytes(StandardCharsets.UTF_8);
                OutputStream out = client.getOutputStream();
                out.write(("HTTP/1.1 501 Not Implemented\r\nContent-Type: application/xml\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                return;
            }
            relayed.incrementAndGet();
            try (Socket server = new Socket(target.getAddress(), target.getPort())) {
                sockets.add(server);
                server.getOutputStream().write(passed.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
                Thread up = new Thread(() -> copy(in, server), "checksum-refusing-proxy-up");
                up.setDaemon(true);
                up.start();
                server.getInputStream().transferTo(client.getOutputStream());
            } finally {
                sockets.removeIf(Socket::isClosed);
            }
        } catch (IOException e) {
            // a side closed: the client sees a closed connection, as from a store that went away
        } finally {
            sockets.remove(client);
        }
    }

    private static void copy(InputStream from, Socket to) {
        try {
            from.transferTo(to.getOutputStream());
        } catch (IOException e) {
            // the server answered and closed
        }
    }

    /** The request line and headers up to the empty line, or null if the connection closed first. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b; (b = in.read()) >= 0;) {
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                String text = head.toString(StandardCharsets.ISO_8859_1);
                return text.substring(0, text.length() - 4);
            }
            if (head.size() > MAX_HEAD) {
                throw new IOException("request head too large");
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
