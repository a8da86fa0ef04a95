// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 in front of a server that goes away at a chosen point: once {@code cutAfter}
 * bytes have gone towards the server it resets every connection and stops listening, so new connections
 * are refused, until {@link #reopen()} listens again on the same port. For failures in the middle of an
 * upload, at the same byte every run.
 */
final class CuttableProxy implements AutoCloseable {
    private final InetSocketAddress target;
    private final long cutAfter;
    private final AtomicLong upstream = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch cut = new CountDownLatch(1);
    private final int port;
    private volatile ServerSocket listener;

    CuttableProxy(URI target, long cutAfter) throws IOException {
        this.target = new InetSocketAddress(target.getHost(), target.getPort());
        this.cutAfter = cutAfter;
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        accept(listener);
    }

    /** Its endpoint URL. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Waits until the cut has happened. */
    boolean awaitCut(long seconds) throws InterruptedException {
        return cut.await(seconds, TimeUnit.SECONDS);
    }

    /** Listens again on the same port, relaying everything from now on. */
    void reopen() throws IOException {
        upstream.set(Long.MIN_VALUE);
        listener = listen(port);
        accept(listener);
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return s;
    }

    private void accept(ServerSocket on) {
        Thread t = new Thread(() -> {
            while (!on.isClosed()) {
                try {
                    Socket client = on.accept();
                    Socket server = new Socket(target.getAddress(), target.getPort());
                    sockets.add(client);
                    sockets.add(server);
                    pump(client, server, true);
                    pump(server, client, false);
                } catch (IOException e) {
                    return;
                }
            }
        }, "proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    private void pump(Socket from, Socket to, boolean towardsServer) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 << 10];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) > 0;) {
                    out.write(buf, 0, n);
                    if (towardsServer && upstream.addAndGet(n) >= cutAfter) {
                        sever();
                        return;
                    }
                }
            } catch (IOException e) {
                // the other side closed, or the cut did
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Stops listening and resets every connection. */
    private void sever() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);
                s.close();
            } catch (IOException e) {
                // already closed by its other side
            }
        }
        sockets.clear();
        cut.countDown();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
