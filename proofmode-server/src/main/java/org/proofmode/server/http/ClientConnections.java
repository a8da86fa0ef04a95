// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.io.Connection;
import org.proofmode.server.service.EventLog;

/**
 * Bounds on the connections held open at once: per client address, and in all. A connection over its
 * address's bound is closed as it opens, before it takes a thread, so that one client that opens many slow
 * connections (a slow-loris) cannot starve the others. When all the server takes are open, a connection
 * from an address holding fewer than the address holding the most takes the place of that address's oldest
 * connection (which is closed); any other is closed as it opens. So many addresses together cannot take
 * every thread either: an address with few connections, a new client, always gets in. Behind a proxy every
 * client has the proxy's address: raise the bound per address there.
 *
 * <p>Each connection is counted under the address it opened from, remembered until it closes (a closed
 * endpoint no longer tells its remote address), so an address gets its whole bound back however many of its
 * connections were refused or cut. Refusals are told on the event log as {@code connection-refused} lines,
 * at most one per {@link #LOG_INTERVAL}, each counting the refusals since the last one.
 */
public final class ClientConnections implements Connection.Listener {
    /** Least time between two {@code connection-refused} lines. */
    public static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

    private final int perAddress;
    private final int total;
    private final EventLog events;
    private final Clock clock;
    /** Each address's open connections, oldest first; guarded by {@code this}. */
    private final Map<InetAddress, Deque<Connection>> open = new HashMap<>();
    /** The address each counted connection opened from; guarded by {@code this}. */
    private final Map<Connection, InetAddress> counted = new IdentityHashMap<>();
    private long refusedSinceLine;
    private long lastLine = Long.MIN_VALUE;

    /** A bound of {@code perAddress} connections per address and {@code total} in all, refusals not told. */
    public ClientConnections(int perAddress, int total) {
        this(perAddress, total, EventLog.OFF, Clock.systemUTC());
    }

    /** A bound of {@code perAddress} connections per address and {@code total} in all, refusals told on {@code events}. */
    public ClientConnections(int perAddress, int total, EventLog events, Clock clock) {
        if (perAddress < 1 || total < 1) {
            throw new IllegalArgumentException("bounds must be positive");
        }
        this.perAddress = perAddress;
        this.total = total;
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress a = address(connection);
        if (a == null) {
            return;
        }
        Connection displaced = null;
        InetAddress from = null;
        String bound = null;
        synchronized (this) {
            Deque<Connection> mine = open.getOrDefault(a, new ArrayDeque<>());
            if (mine.size() >= perAddress) {
                bound = "address";
            } else if (counted.size() >= total) {
                Map.Entry<InetAddress, Deque<Connection>> most = null;
                for (Map.Entry<InetAddress, Deque<Connection>> e : open.entrySet()) {
                    if (most == null || e.getValue().size() > most.getValue().size()) {
                        most = e;
                    }
                }
                bound = "total";
                if (most != null && most.getValue().size() > mine.size() + 1) {
                    displaced = most.getValue().pollFirst();
                    from = most.getKey();
                    forget(displaced, from);
                }
            }
            if (bound == null || displaced != null) {
                mine.addLast(connection);
                open.put(a, mine);
                counted.put(connection, a);
            }
        }
        if (displaced != null) {
            displaced.getEndPoint().close();
            refused(from, bound);
        } else if (bound != null) {
            connection.getEndPoint().close();
            refused(a, bound);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        synchronized (this) {
            InetAddress a = counted.get(connection);
            if (a != null) {
                forget(connection, a);
            }
        }
    }

    /** Connections open now from an address (for tests and diagnostics). */
    public synchronized int openFrom(InetAddress address) {
        Deque<Connection> mine = open.get(address);
        return mine == null ? 0 : mine.size();
    }

    /** Connections open now in all. */
    public synchronized int openInAll() {
        return counted.size();
    }

    private void forget(Connection connection, InetAddress a) {
        counted.remove(connection);
        Deque<Connection> mine = open.get(a);
        if (mine != null) {
            mine.remove(connection);
            if (mine.isEmpty()) {
                open.remove(a);
            }
        }
    }

    /** Counts a refusal, and tells it when the last line is old enough. */
    private void refused(InetAddress from, String bound) {
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
        f.put("bound", bound);
        f.put("limit", bound.equals("address") ? perAddress : total);
        f.put("refused", refused);
        events.warn("connection-refused", f);
    }

    private static InetAddress address(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress isa ? isa.getAddress() : null;
    }
}
