// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;

/**
 * A bound on the connections one client address holds open at once: a connection over the bound is closed
 * as it opens, before it takes a thread, so that one client that opens many slow connections (a slow-loris)
 * cannot starve the others. Behind a proxy every client has the proxy's address: raise the bound there.
 */
public final class ClientConnections implements Connection.Listener {
    private final int max;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();

    /** A bound of {@code max} connections per address. */
    public ClientConnections(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        this.max = max;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress a = address(connection);
        if (a == null) {
            return;
        }
        int now = open.merge(a, 1, Integer::sum);
        if (now > max) {
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress a = address(connection);
        if (a != null) {
            open.computeIfPresent(a, (k, n) -> n <= 1 ? null : n - 1);
        }
    }

    /** Connections open now from an address (for tests and diagnostics). */
    public int openFrom(InetAddress address) {
        return open.getOrDefault(address, 0);
    }

    private static InetAddress address(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress isa ? isa.getAddress() : null;
    }
}
