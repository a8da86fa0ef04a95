// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A SOCKS5 proxy (RFC 1928, CONNECT without authentication) that records how each client named its
 * destination: by address type 3, a host name the proxy resolves (what {@code socks5h} means), or by
 * an IP address the client resolved itself. It resolves names only from the map it is given, so a name
 * such as {@code evidence.invalid} reaches a local server through it and through nothing else.
 */
public final class SocksRecorder implements AutoCloseable {
    /** SOCKS5 address type of a domain name. */
    public static final int DOMAIN = 3;

    /**
     * One CONNECT request.
     *
     * @param addressType 1 (IPv4), 3 (domain name) or 4 (IPv6)
     * @param host the name or address as sent
     * @param port the port
     */
    public record Request(int addressType, String host, int port) {}

    private final ServerSocket server;
    private final Map<String, InetSocketAddress> names;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicLong up = new java.util.concurrent.atomic.AtomicLong();
    private volatile long cutAfter = -1;

    /**
     * Starts the proxy on a free loopback port.
     *
     * @param names what the proxy resolves each host name to
     */
    public SocksRecorder(Map<String, InetSocketAddress> names) {
        this.names = Map.copyOf(names);
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread t = new Thread(this::accept, "socks-recorder");
        t.setDaemon(true);
        t.start();
    }

    /** The port it listens on (loopback). */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code socks5h://127.0.0.1:PORT}. */
    public String url() {
        return "socks5h://127.0.0.1:" + port();
    }

    /**
     * Cuts every connection made from now on once the client has sent this many bytes through it (the
     * link that drops mid-upload); a negative number cuts none.
     */
    public void cutAfter(long bytes) {
        cutAfter = bytes;
    }

    /** Bytes the clients sent through the proxy so far, all connections together. */
    public long bytesUp() {
        return up.get();
    }

    /** Every CONNECT request so far, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Thread t = new Thread(() -> serve(s), "socks-recorder-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            DataInputStream in = new DataInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            if (in.readUnsignedByte() != 5) {
                return;
            }
            in.readFully(new byte[in.readUnsignedByte()]); // offered methods
            out.write(new byte[] {5, 0}); // no authentication
            if (in.readUnsignedByte() != 5 || in.readUnsignedByte() != 1) {
                return; // only CONNECT
            }
            in.readUnsignedByte();
            int type = in.readUnsignedByte();
            String host;
            InetSocketAddress target;
            if (type == DOMAIN) {
                byte[] name = new byte[in.readUnsignedByte()];
                in.readFully(name);
                host = new String(name, StandardCharsets.US_ASCII);
                int port = in.readUnsignedShort();
                requests.add(new Request(type, host, port));
                target = names.get(host + ":" + port) != null ? names.get(host + ":" + port) : names.get(host);
            } else {
                byte[] addr = new byte[type == 1 ? 4 : 16];
                in.readFully(addr);
                int port = in.readUnsignedShort();
                host = InetAddress.getByAddress(addr).getHostAddress();
                requests.add(new Request(type, host, port));
                target = new InetSocketAddress(InetAddress.getByAddress(addr), port);
            }
            Socket upstream = new Socket();
            try (upstream) {
                if (target == null) {
                    throw new IOException("unknown host");
                }
                upstream.connect(target, 5000);
                out.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
                out.flush();
                open.add(upstream);
                Thread back = new Thread(() -> pump(upstream, client, -1, null), "socks-recorder-back");
                back.setDaemon(true);
                back.start();
                pump(client, upstream, cutAfter, up);
                back.join(5000);
            } catch (IOException e) {
                out.write(new byte[] {5, 4, 0, 1, 0, 0, 0, 0, 0, 0}); // host unreachable
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    /** Copies one way; with {@code cut} at least 0, closes both sockets once that many bytes went. */
    private static void pump(Socket from, Socket to, long cut, java.util.concurrent.atomic.AtomicLong counted) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buf = new byte[1 << 16];
            long sent = 0;
            int n;
            while ((n = in.read(buf)) != -1) {
                int len = cut >= 0 ? (int) Math.min(n, cut - sent) : n;
                out.write(buf, 0, len);
                out.flush();
                sent += len;
                if (counted != null) {
                    counted.addAndGet(len);
                }
                if (cut >= 0 && sent >= cut) {
                    from.close();
                    to.close();
                    return;
                }
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
