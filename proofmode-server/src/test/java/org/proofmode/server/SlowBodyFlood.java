// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Slow request bodies from many loopback addresses (127.0.0.100 on): each connection sends a request that
 * announces a large body, then one byte of it at each {@link #tick()}; a connection the server cut is opened
 * again at the next tick, as an attacker would. Closing closes every socket.
 */
final class SlowBodyFlood implements AutoCloseable {
    private static final byte[] HEAD = ("POST /api/v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/zip\r\n"
            + "Content-Length: 100000000\r\n\r\nP").getBytes(StandardCharsets.US_ASCII);

    private final int port;
    private final boolean reopen;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Integer> from = new ArrayList<>();
    private int cut;

    /** Opens {@code perAddress} connections from each of {@code addresses} addresses; {@code reopen}: open cut ones again. */
    SlowBodyFlood(int port, int addresses, int perAddress, boolean reopen) throws IOException {
        this.port = port;
        this.reopen = reopen;
        try {
            for (int a = 0; a < addresses; a++) {
                for (int i = 0; i < perAddress; i++) {
                    from.add(100 + a);
                    sockets.add(open(100 + a));
                }
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Socket open(int address) throws IOException {
        Socket s = RawClient.connect(RawClient.loopback(address), port, 5_000);
        try {
            s.getOutputStream().write(HEAD);
        } catch (IOException cutAtOnce) {
            // refused as it opened: the next tick finds it closed
        }
        return s;
    }

    /** Sends one more body byte on each connection; counts those the server cut (and opens them again if asked). */
    void tick() throws IOException {
        for (int i = 0; i < sockets.size(); i++) {
            Socket s = sockets.get(i);
            if (s.isClosed()) {
                continue;
            }
            try {
                s.getOutputStream().write('K');
            } catch (IOException cutByServer) {
                cut++;
                s.close();
                if (reopen) {
                    sockets.set(i, open(from.get(i)));
                }
            }
        }
    }

    /** Connections the server has cut so far (seen at a tick). */
    int cut() {
        return cut;
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a test's own socket
            }
        }
    }
}
