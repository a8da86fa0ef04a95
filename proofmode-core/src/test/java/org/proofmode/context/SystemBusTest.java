// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system bus's bounds against a socket that accepts and never answers (a hung bus daemon), and one
 * that is not there at all. Exchanges with real services are tested against dbusmock on a private bus in
 * the command line's {@code SystemServicesIT} and {@code RadiosAndCellsIT}.
 */
class SystemBusTest {
    @TempDir
    Path dir;

    @Test
    void read_givesUpAfterItsBound_andDoesNotAskAHungBusAgainAtOnce() throws Exception {
        Path socket = dir.resolve("hung");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread acceptor = new Thread(() -> {
                try (SocketChannel silent = server.accept()) {
                    // holds the connection open and says nothing, as a hung daemon does
                    assertThat(silent.isConnected()).isTrue();
                    Thread.sleep(60_000);
                } catch (Exception e) {
                    // closed at the end of the test
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            SystemBus bus = SystemBus.at("unix:path=" + socket);

            assertThatThrownBy(() -> bus.read(Duration.ofMillis(500), c -> c.running("org.bluez")))
                    .isInstanceOf(TimeoutException.class).hasMessage("no answer from the system bus within 500 ms");
            assertThatThrownBy(() -> bus.read(Duration.ofMillis(500), c -> c.running("org.bluez")))
                    .isInstanceOf(TimeoutException.class).hasMessageContaining("not asked again yet");
            acceptor.interrupt();
        }
    }

    @Test
    void read_sharesOneConnection_betweenQuestions_andClosesItWhenIdle() throws Exception {
        Process daemon = daemonAt(dir.resolve("bus"));
        try {
            String address = addressOf(daemon);
            SystemBus bus = SystemBus.closingAfter(address.strip(), Duration.ofMillis(300));

            String first = bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName);
            String second = bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName);
            List<String> together = java.util.stream.IntStream.range(0, 4).parallel()
                    .mapToObj(i -> {
                        try {
                            return bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }).toList();

            assertThat(second).isEqualTo(first).startsWith(":");
            assertThat(together).containsOnly(first);
            assertThat(bus.connected()).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (bus.connected() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(bus.connected()).as("closed after its idle time").isFalse();
            assertThat(bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName)).isNotEqualTo(first);

            // Opened ahead of the sources, without a question: the first source to ask finds it open.
            SystemBus early = SystemBus.closingAfter(address.strip(), Duration.ofSeconds(30));
            early.warm();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!early.connected() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(early.connected()).as("warmed").isTrue();
            String warmed = early.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName);
            assertThat(early.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName)).isEqualTo(warmed);
        } finally {
            daemon.destroy();
        }
    }

    @Test
    void closeAll_endsTheConnectionsReader_soThatTheProcessExitsWithoutWaitingForIt() throws Exception {
        Process daemon = daemonAt(dir.resolve("bus-exit"));
        try {
            String address = addressOf(daemon);
            SystemBus bus = SystemBus.closingAfter(address.strip(), Duration.ofSeconds(30));
            bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName);
            assertThat(bus.connected()).isTrue();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (readersInNativeCode().isEmpty() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertThat(readersInNativeCode()).as("the connection's reader waits on its socket").isNotEmpty();

            SystemBus.closeAll();

            assertThat(bus.connected()).isFalse();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!readersInNativeCode().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(readersInNativeCode()).as("no reader left in a native read, which a JVM's exit waits for").isEmpty();
            assertThat(bus.read(Duration.ofSeconds(5), SystemBus.Connection::uniqueName)).as("opens again when asked").startsWith(":");
            SystemBus.closeAll();
        } finally {
            daemon.destroy();
        }
    }

    /** A private dbus-daemon listening at a socket. */
    private static Process daemonAt(Path socket) throws java.io.IOException {
        return new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--address=unix:path=" + socket, "--print-address=1")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** The address a dbus-daemon started with {@code --print-address=1} prints. */
    private static String addressOf(Process daemon) throws java.io.IOException {
        String address = new java.io.BufferedReader(new java.io.InputStreamReader(daemon.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8)).readLine();
        assertThat(address).as("dbus-daemon's address (Debian: dbus)").startsWith("unix:");
        return address;
    }

    /** dbus-java's reader threads blocked in a socket read (native code). */
    private static List<String> readersInNativeCode() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("DBusConnection") && e.getKey().isAlive())
                .filter(e -> e.getValue().length > 0 && e.getValue()[0].isNativeMethod() && e.getValue()[0].getMethodName().startsWith("read"))
                .map(e -> e.getKey().getName()).toList();
    }

    @Test
    void read_saysAbsent_whenThereIsNoSocket() {
        SystemBus bus = SystemBus.at("unix:path=" + dir.resolve("none"));

        assertThatThrownBy(() -> bus.read(Duration.ofSeconds(2), c -> c.running("org.bluez"))).isInstanceOf(SystemBus.Absent.class)
                .hasMessageStartingWith("no system bus at unix:path=");
        bus.warm();
        assertThat(bus.connected()).as("nothing to warm").isFalse();
    }

    @Test
    void plain_unwrapsDbusValues() {
        assertThat(SystemBus.plain(new org.freedesktop.dbus.types.Variant<>(new org.freedesktop.dbus.types.UInt32(7)))).isEqualTo(7L);
        assertThat(SystemBus.plain(new byte[] {(byte) 0xc0, 2})).isEqualTo(List.of(192L, 2L));
        assertThat(SystemBus.plain(new org.freedesktop.dbus.DBusPath("/org/bluez/hci0"))).isEqualTo("/org/bluez/hci0");
    }

    @Test
    void why_quotesOneLineOfTheService_theErrorOfATraceback_bounded() {
        String traceback = "Traceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/dbus/service.py\", line 712\n"
                + "    retval = candidate_method(self, *args, **keywords)\nKeyError: 'Powered'\n";
        assertThat(SystemBus.why(new org.freedesktop.dbus.exceptions.DBusExecutionException(traceback))).isEqualTo("KeyError: 'Powered'");
        assertThat(SystemBus.why(new java.io.IOException("Connection refused\n\tat somewhere"))).isEqualTo("Connection refused");
        assertThat(SystemBus.why(new java.io.IOException("bell\u0007 and \u00e9"))).isEqualTo("bell? and ?");
        assertThat(SystemBus.why(new java.io.IOException("x".repeat(500)))).hasSize(SystemBus.WHY_LENGTH).endsWith("...");
        assertThat(SystemBus.why(new TimeoutException())).isEqualTo("TimeoutException");
    }
}
