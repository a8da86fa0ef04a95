// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.proofmode.server.EventLog;

/**
 * A bound on the connections one client address holds open at once: a connection over the bound is closed
 * as it opens, before it takes a thread, so that one client that opens many slow connections (a slow-loris)
 * cannot starve the others. Behind a proxy every client has the proxy's address: raise the bound there.
 *
 * <p>Each connection is counted under the address it opened from, remembered until it closes (a closed
 * endpoint no longer tells its remote address), so an address gets its whole bound back however many of its
 * connections were refused or cut. Refusals are told on the event log as {@code connection-refused} lines,
 * at most one per {@link #LOG_INTERVAL}, each counting the refusals since the last one.
 */
public final class ClientConnections implements Connection.Listener {
    /** Least time between two {@code connection-refused} lines. */
    public static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

    private final int max;
    private final EventLog events;
    private final Clock clock;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Connection, InetAddress> counted = new ConcurrentHashMap<>();
    private long refusedSinceLine;
    private long lastLine = Long.MIN_VALUE;

    /** A bound of {@code max} connections per address, refusals not told. */
    public ClientConnections(int max) {
        this(max, EventLog.OFF, Clock.systemUTC());
    }

    /** A bound of {@code max} connections per address, refusals told on {@code events}. */
    public ClientConnections(int max, EventLog events, Clock clock) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        this.max = max;
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress a = address(connection);
        if (a == null) {
            return;
        }
        counted.put(connection, a);
        int now = open.merge(a, 1, Integer::sum);
        if (now > max) {
            connection.getEndPoint().close();
            refused(a, now);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress a = counted.remove(connection);
        if (a != null) {
            open.computeIfPresent(a, (k, n) -> n <= 1 ? null : n - 1);
        }
    }

    /** Connections open now from an address (for tests and diagnostics). */
    public int openFrom(InetAddress address) {
        return open.getOrDefault(address, 0);
    }

    /** Counts a refusal, and tells it when the last line is old enough. */
    private void refused(InetAddress from, int opening) {
        long refused;
        synchronized (this) {
            refusedSinceLine++;
            long now = clock.millis();
            if (lastLine != Long.MIN_VALUE && now - lastLine < LOG_INTERVAL.toMillis()) {
                return;
            }
            lastLine = now;
            refused = refusedSinceLine;
            refusedSinceLine = 0;
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("remote", from.getHostAddress());
        f.put("open", opening - 1);
        f.put("limit", max);
        f.put("refused", refused);
        events.warn("connection-refused", f);
    }

    private static InetAddress address(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress isa ? isa.getAddress() : null;
    }
}
