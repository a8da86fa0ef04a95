// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * oFono, timedated, timesyncd) use it: each {@link #read} opens a connection, runs the questions on a
 * daemon thread, and closes the connection, all within a time bound, so a slow or hung service costs a
 * warning and never more than the bound. Nothing is connected until a source asks (a proof whose sources
 * are off never loads D-Bus).
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

    private final String address;
    /** When the bus may be asked again after missing its bound ({@link System#nanoTime}); empty while it never did. */
    private volatile java.util.OptionalLong hungUntil = java.util.OptionalLong.empty();

    /** What a source asks over one connection. */
    @FunctionalInterface
    interface Questions<T> {
        T ask(Connection c) throws Exception;
    }

    private SystemBus(String address) {
        this.address = address;
    }

    /** The system bus of this machine. */
    static SystemBus system() {
        return at(Optional.ofNullable(System.getenv(ADDRESS_VARIABLE)).filter(s -> !s.isBlank()).orElse(DEFAULT_ADDRESS));
    }

    /** The bus at a D-Bus address such as {@code unix:path=/tmp/bus} (tests start their own); one per address. */
    static SystemBus at(String address) {
        return BUSES.computeIfAbsent(Objects.requireNonNull(address, "address"), SystemBus::new);
    }

    /** The address, for messages. */
    String address() {
        return address;
    }

    /**
     * Connects, asks, disconnects.
     *
     * @param timeout the most the whole exchange may take, connecting included
     * @return the answer
     * @throws Exception the questions' own failure, {@link Absent} when the bus cannot be reached,
     *     or {@link TimeoutException} when the bound passed (the connection is then closed under the questions)
     */
    <T> T read(Duration timeout, Questions<T> questions) throws Exception {
        java.util.OptionalLong hung = hungUntil;
        if (hung.isPresent() && System.nanoTime() - hung.getAsLong() < 0) {
            throw new TimeoutException("the system bus did not answer in time moments ago; not asked again yet");
        }
        if (address.startsWith("unix:path=")) {
            // dbus-java retries a missing socket for seconds; a bus that is not there is known at once
            String path = address.substring("unix:path=".length()).split(",", 2)[0];
            if (!java.nio.file.Files.exists(java.nio.file.Path.of(path))) {
                throw new Absent(address, new java.io.FileNotFoundException(path));
            }
        }
        AtomicReference<DBusConnection> open = new AtomicReference<>();
        try {
            return Bounded.call("the system bus", timeout, () -> {
                DBusConnection c;
                try {
                    c = DBusConnectionBuilder.forAddress(address).withShared(false).build();
                } catch (DBusException e) {
                    throw new Absent(address, e);
                }
                open.set(c);
                try (c) {
                    return questions.ask(new Connection(c));
                }
            });
        } catch (TimeoutException e) {
            hungUntil = java.util.OptionalLong.of(System.nanoTime() + HUNG_PAUSE.toNanos());
            throw e;
        } finally {
            DBusConnection c = open.get();
            if (c != null && c.isConnected()) {
                c.disconnect();
            }
        }
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

    /** A short reason for a failed exchange, for a warning. */
    static String why(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ");
    }
}
