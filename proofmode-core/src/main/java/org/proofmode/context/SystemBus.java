// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.interfaces.ObjectManager;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt16;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.UInt64;
import org.freedesktop.dbus.types.Variant;

/**
 * The D-Bus system bus, as the sources that ask system services (iio-sensor-proxy, BlueZ, ModemManager,
 * oFono, timedated, timesyncd) use it: each {@link #read} runs its questions on a daemon thread within a
 * time bound, so a slow or hung service costs a warning and never more than the bound. The sources of a
 * process share one connection (connecting, authenticating and saying {@code Hello} cost more than the
 * questions), opened by the first that asks and closed after {@link #IDLE} without questions, or at once
 * when a bound is missed (the calls stuck on it end with it). Nothing is connected until a source asks (a
 * proof whose sources are off never loads D-Bus).
 *
 * <p>The bus is {@code $DBUS_SYSTEM_BUS_ADDRESS} when set (as {@code libdbus} reads it), else the standard
 * socket {@code unix:path=/var/run/dbus/system_bus_socket}. The transport is dbus-java's native UNIX
 * socket one, on the JDK's own UNIX-domain sockets.
 *
 * <p>Security: what services answer is untrusted input: values are unwrapped into plain Java values
 * ({@link #plain}) and each source checks their types before use.
 */
final class SystemBus {
    /** The variable that names another system bus, for tests and containers. */
    static final String ADDRESS_VARIABLE = "DBUS_SYSTEM_BUS_ADDRESS";
    static final String DEFAULT_ADDRESS = "unix:path=/var/run/dbus/system_bus_socket";
    /**
     * The bound on one exchange, connecting included: a healthy bus answers a cold JVM's first connection
     * in about 150 ms (mostly loading dbus-java), so this leaves room for a loaded machine.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** After a bus missed its bound, how long it is not asked again, so that a hung bus costs one bound, not one per source. */
    static final Duration HUNG_PAUSE = Duration.ofSeconds(10);

    private static final java.util.Map<String, SystemBus> BUSES = new java.util.concurrent.ConcurrentHashMap<>();

    /** How long the shared connection stays open without questions (a long-running agent does not keep it). */
    static final Duration IDLE = Duration.ofSeconds(30);

    private static final ScheduledExecutorService CLOSER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "proofmode-system-bus-closer");
        t.setDaemon(true);
        return t;
    });

    private final String address;
    private final Duration idle;
    /** When the bus may be asked again after missing its bound ({@link System#nanoTime}); empty while it never did. */
    private volatile java.util.OptionalLong hungUntil = java.util.OptionalLong.empty();
    /** Held while the shared connection is being opened. */
    private final Object connecting = new Object();
    /** The connection the sources share, while open; guarded by {@code this}. */
    private DBusConnection shared;
    /** Exchanges running on {@link #shared}; guarded by {@code this}. */
    private int inUse;
    /** The idle close scheduled for {@link #shared}; guarded by {@code this}. */
    private ScheduledFuture<?> idleClose;

    /** What a source asks over one connection. */
    @FunctionalInterface
    interface Questions<T> {
        T ask(Connection c) throws Exception;
    }

    private SystemBus(String address, Duration idle) {
        this.address = address;
        this.idle = idle;
    }

    /** The system bus of this machine. */
    static SystemBus system() {
        return at(Optional.ofNullable(System.getenv(ADDRESS_VARIABLE)).filter(s -> !s.isBlank()).orElse(DEFAULT_ADDRESS));
    }

    /** The bus at a D-Bus address such as {@code unix:path=/tmp/bus} (tests start their own); one per address. */
    static SystemBus at(String address) {
        return BUSES.computeIfAbsent(Objects.requireNonNull(address, "address"), a -> new SystemBus(a, IDLE));
    }

    /** A bus of its own (not the one other sources share) whose connection closes after {@code idle}: for tests. */
    static SystemBus closingAfter(String address, Duration idle) {
        return new SystemBus(address, idle);
    }

    /** The address, for messages. */
    String address() {
        return address;
    }

    /**
     * Asks over the shared connection, opening it first if needed.
     *
     * @param timeout the most the whole exchange may take, connecting included
     * @return the answer
     * @throws Exception the questions' own failure, {@link Absent} when the bus cannot be reached,
     *     or {@link TimeoutException} when the bound passed (the shared connection is then closed under
     *     the questions, and the bus is not asked again for {@link #HUNG_PAUSE})
     */
    <T> T read(Duration timeout, Questions<T> questions) throws Exception {
        java.util.OptionalLong hung = hungUntil;
        if (hung.isPresent() && System.nanoTime() - hung.getAsLong() < 0) {
            throw new TimeoutException("the system bus did not answer in time moments ago; not asked again yet");
        }
        Optional<java.nio.file.Path> missing = missingSocket();
        if (missing.isPresent()) {
            // dbus-java retries a missing socket for seconds; a bus that is not there is known at once
            throw new Absent(address, new java.io.FileNotFoundException(missing.get().toString()));
        }
        AtomicReference<DBusConnection> used = new AtomicReference<>();
        try {
            return Bounded.call("the system bus", timeout, () -> {
                DBusConnection c = acquire();
                used.set(c);
                return questions.ask(new Connection(c));
            });
        } catch (TimeoutException e) {
            hungUntil = java.util.OptionalLong.of(System.nanoTime() + HUNG_PAUSE.toNanos());
            DBusConnection c = used.get();
            if (c != null) {
                drop(c);
            }
            throw e;
        } finally {
            DBusConnection c = used.get();
            if (c != null) {
                release(c);
            }
        }
    }

    /** A socket address's file when it is not there (no bus on this machine); empty for any other address. */
    private Optional<java.nio.file.Path> missingSocket() {
        if (!address.startsWith("unix:path=")) {
            return Optional.empty();
        }
        java.nio.file.Path path = java.nio.file.Path.of(address.substring("unix:path=".length()).split(",", 2)[0]);
        return java.nio.file.Files.exists(path) ? Optional.empty() : Optional.of(path);
    }

    /**
     * Opens the shared connection on a thread of its own, without asking anything, so that the sources find
     * it open: connecting a fresh process (loading dbus-java, authenticating, {@code Hello}) takes a few
     * hundred milliseconds, which a command can spend on its own start instead. Closed after {@link #IDLE}
     * if no source asks; a bus that is absent or fails is left for the sources to find.
     */
    void warm() {
        if (missingSocket().isPresent()) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                release(acquire());
            } catch (Absent | RuntimeException e) {
                // the first source to ask meets the same failure and says so in its warning
            }
        }, "proofmode-system-bus-warm");
        t.setDaemon(true);
        t.start();
    }

    /** The shared connection, opened if there is none or it was lost; counted in use until {@link #release}. */
    private DBusConnection acquire() throws Absent {
        // One connects at a time: the others wait for its connection rather than open their own.
        synchronized (connecting) {
            synchronized (this) {
                if (shared != null && shared.isConnected()) {
                    return claim();
                }
                shared = null;
            }
            DBusConnection opened;
            try {
                opened = DBusConnectionBuilder.forAddress(address).withShared(false).build();
            } catch (DBusException e) {
                throw new Absent(address, e);
            }
            closeAtExit(this);
            synchronized (this) {
                shared = opened;
                return claim();
            }
        }
    }

    /**
     * Once per process, a shutdown hook that closes the shared connections: a JVM exiting with a thread blocked
     * in a native read (the connection's reader, waiting on its socket) waits up to about 300 ms for it to leave
     * native code (JDK 17 {@code VM_Exit}), which a short command would pay at every exit.
     */
    private static void closeAtExit(SystemBus bus) {
        OPENED.add(bus);
        if (!EXIT_HOOK.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(SystemBus::closeAll, "proofmode-system-bus-exit"));
        } catch (IllegalStateException e) {
            // already exiting: nothing to add to
        }
    }

    private static final java.util.concurrent.atomic.AtomicBoolean EXIT_HOOK = new java.util.concurrent.atomic.AtomicBoolean();
    /** Every bus that opened a connection in this process, for {@link #closeAll}. */
    private static final java.util.Set<SystemBus> OPENED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** How long the exit waits for the shared connections to close; a hung bus must not hold the exit. */
    static final Duration EXIT_CLOSE = Duration.ofMillis(200);

    /** Closes every shared connection, waiting at most {@link #EXIT_CLOSE}. */
    static void closeAll() {
        List<DBusConnection> open = new ArrayList<>();
        for (SystemBus b : OPENED) {
            synchronized (b) {
                if (b.shared != null) {
                    open.add(b.detach());
                }
            }
        }
        if (open.isEmpty()) {
            return;
        }
        Thread t = new Thread(() -> open.forEach(DBusConnection::disconnect), "proofmode-system-bus-close");
        t.setDaemon(true);
        t.start();
        try {
            t.join(EXIT_CLOSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Counts one more exchange on the shared connection and cancels its idle close; the caller holds {@code this}. */
    private DBusConnection claim() {
        inUse++;
        cancelIdleClose();
        return shared;
    }

    /** Forgets the shared connection (the caller closes it) and its exchanges; the caller holds {@code this}. */
    private DBusConnection detach() {
        DBusConnection c = shared;
        shared = null;
        inUse = 0;
        cancelIdleClose();
        return c;
    }

    /** Cancels the scheduled idle close, if any; the caller holds {@code this}. */
    private void cancelIdleClose() {
        if (idleClose != null) {
            idleClose.cancel(false);
            idleClose = null;
        }
    }

    /** Ends one exchange; the last to end schedules the idle close. */
    private synchronized void release(DBusConnection c) {
        if (c != shared) {
            return;
        }
        inUse = Math.max(0, inUse - 1);
        if (inUse == 0 && idleClose == null) {
            idleClose = CLOSER.schedule(() -> closeIfIdle(c), idle.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The idle close: only if no exchange began on the connection since it was scheduled. */
    private void closeIfIdle(DBusConnection c) {
        synchronized (this) {
            if (c != shared || inUse > 0) {
                return;
            }
            shared = null;
            idleClose = null;
        }
        c.disconnect();
    }

    /** Closes a connection and forgets it if it is the shared one (calls still waiting on it end with an error). */
    private void drop(DBusConnection c) {
        synchronized (this) {
            if (c == shared) {
                detach();
            }
        }
        if (c.isConnected()) {
            c.disconnect();
        }
    }

    /** Whether a connection is open now, for tests. */
    synchronized boolean connected() {
        return shared != null && shared.isConnected();
    }

    /** There is no system bus at the address (not Linux, a container without one): not a problem in itself. */
    static final class Absent extends java.io.IOException {
        private static final long serialVersionUID = 1L;

        Absent(String address, Exception cause) {
            super("no system bus at " + address + ": " + why(cause), cause);
        }
    }

    /** One open connection, with the calls the sources make. */
    static final class Connection {
        private final DBusConnection c;

        Connection(DBusConnection c) {
            this.c = c;
        }

        /** The name the bus gave this connection ({@code :1.42}), for tests. */
        String uniqueName() {
            return c.getUniqueName();
        }

        /** Whether a service owns its name on the bus now (a service that is not running is not an error). */
        boolean running(String service) {
            try {
                return c.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", org.freedesktop.dbus.interfaces.DBus.class)
                        .NameHasOwner(service);
            } catch (DBusException | DBusExecutionException e) {
                return false;
            }
        }

        /** {@code org.freedesktop.DBus.Properties.GetAll}, values made plain. */
        Map<String, Object> properties(String service, String path, String iface) throws DBusException {
            Map<String, Variant<?>> all = c.getRemoteObject(service, path, Properties.class).GetAll(iface);
            Map<String, Object> out = new LinkedHashMap<>();
            all.forEach((k, v) -> out.put(k, plain(v)));
            return out;
        }

        /** {@code org.freedesktop.DBus.ObjectManager.GetManagedObjects}: path, then interface, then properties. */
        Map<String, Map<String, Map<String, Object>>> managedObjects(String service, String path) throws DBusException {
            Map<String, Map<String, Map<String, Object>>> out = new LinkedHashMap<>();
            c.getRemoteObject(service, path, ObjectManager.class).GetManagedObjects().forEach((p, ifaces) -> {
                Map<String, Map<String, Object>> m = new LinkedHashMap<>();
                ifaces.forEach((i, props) -> {
                    Map<String, Object> pm = new LinkedHashMap<>();
                    props.forEach((k, v) -> pm.put(k, plain(v)));
                    m.put(i, pm);
                });
                out.put(p.getPath(), m);
            });
            return out;
        }

        /** A typed proxy for a service's own methods. */
        <I extends DBusInterface> I remote(String service, String path, Class<I> type) throws DBusException {
            return c.getRemoteObject(service, path, type);
        }
    }

    /**
     * A D-Bus value as plain Java: variants unwrapped, unsigned numbers as {@link Long} (a {@code uint64}
     * beyond {@code Long.MAX_VALUE} as its {@link java.math.BigInteger}), object paths as strings, structs
     * and arrays as lists, byte arrays as lists of numbers, dictionaries as maps.
     */
    static Object plain(Object v) {
        if (v instanceof Variant<?> var) {
            return plain(var.getValue());
        }
        if (v instanceof UInt16 u) {
            return u.longValue();
        }
        if (v instanceof UInt32 u) {
            return u.longValue();
        }
        if (v instanceof UInt64 u) {
            return u.value().bitLength() < 64 ? (Object) u.longValue() : u.value();
        }
        if (v instanceof Byte b) {
            return (long) (b & 0xff);
        }
        if (v instanceof Short || v instanceof Integer) {
            return ((Number) v).longValue();
        }
        if (v instanceof DBusPath p) {
            return p.getPath();
        }
        if (v instanceof Struct s) {
            return plain(s.getParameters());
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(plain(k), plain(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(plain(x)));
            return out;
        }
        if (v instanceof Object[] a) {
            return plain(java.util.Arrays.asList(a));
        }
        if (v instanceof byte[] b) {
            List<Object> out = new ArrayList<>();
            for (byte x : b) {
                out.add((long) (x & 0xff));
            }
            return out;
        }
        return v;
    }

    /** The most a warning quotes of a service's error. */
    static final int WHY_LENGTH = 200;

    /**
     * A short reason for a failed exchange, for a warning: one line of what the service said (the last
     * line of a Python traceback, which names the error; else the first line), at most {@link #WHY_LENGTH}
     * printable characters.
     */
    static String why(Exception e) {
        String m = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        List<String> lines = m.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String line = lines.isEmpty() ? e.getClass().getSimpleName()
                : lines.get(0).startsWith("Traceback (most recent call last)") ? lines.get(lines.size() - 1) : lines.get(0);
        line = line.replaceAll("[^\\x20-\\x7e]", "?");
        return line.length() <= WHY_LENGTH ? line : line.substring(0, WHY_LENGTH - 3) + "...";
    }
}
