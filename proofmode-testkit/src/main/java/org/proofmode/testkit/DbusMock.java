// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A private D-Bus bus with mocked system services on it: a real {@code dbus-daemon} (Debian: dbus) on a
 * socket in a test's folder, and services made by python-dbusmock (Debian: python3-dbusmock), the
 * mocks the services' own projects test with, speaking the real D-Bus protocol. A test points the code
 * under test at {@link #address()} (the code reads it as the system bus's address) and closes the bus
 * when done, which stops every mock.
 *
 * <p>Never skips: a missing {@code dbus-daemon} or dbusmock fails the test, naming the package.
 */
public final class DbusMock implements AutoCloseable {
    /** Debian installs dbusmock for the system Python; {@code python3} on PATH may be another one. */
    public static final String PYTHON = "/usr/bin/python3";

    private static final Duration START = Duration.ofSeconds(20);

    private final Path dir;
    private final String address;
    private final Process daemon;
    private final List<Process> mocks = new ArrayList<>();

    private DbusMock(Path dir, String address, Process daemon) {
        this.dir = dir;
        this.address = address;
        this.daemon = daemon;
    }

    /**
     * Starts a bus whose socket and log live in {@code dir}.
     *
     * @throws AssertionError if dbus-daemon or dbusmock is missing, or the bus does not start
     */
    public static DbusMock start(Path dir) throws IOException {
        Path dbusDaemon = ExternalTool.require("dbus-daemon");
        if (!Files.isExecutable(Path.of(PYTHON))
                || !ExternalTool.run(List.of(PYTHON, "-c", "import dbusmock"), Map.of(), START).succeeded()) {
            throw new AssertionError(PYTHON + " cannot import dbusmock, and this test needs it; install it: "
                    + "apt-get install python3-dbusmock; .ci/run does");
        }
        Files.createDirectories(dir);
        Path socket = dir.resolve("bus");
        Path config = Files.writeString(dir.resolve("bus.conf"), String.join("\n",
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"",
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">",
                "<busconfig>",
                "  <type>system</type>",
                "  <listen>unix:path=" + socket + "</listen>",
                "  <auth>EXTERNAL</auth>",
                "  <policy context=\"default\">",
                "    <allow user=\"*\"/>",
                "    <allow own=\"*\"/>",
                "    <allow send_destination=\"*\"/>",
                "    <allow receive_sender=\"*\"/>",
                "  </policy>",
                "</busconfig>", ""), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(dbusDaemon.toString(), "--config-file=" + config, "--nofork", "--print-address=1")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(dir.resolve("dbus-daemon.err").toFile()).start();
        String address;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            address = r.readLine();
        }
        if (address == null || !address.startsWith("unix:")) {
            p.destroyForcibly();
            throw new AssertionError("dbus-daemon did not start: " + Files.readString(dir.resolve("dbus-daemon.err")));
        }
        return new DbusMock(dir, address.strip(), p);
    }

    /** The bus's address, e.g. {@code unix:path=/tmp/x/bus,guid=...}: what {@code DBUS_SYSTEM_BUS_ADDRESS} holds. */
    public String address() {
        return address;
    }

    /** The environment that makes a child process use this bus as its system bus. */
    public Map<String, String> environment() {
        return Map.of("DBUS_SYSTEM_BUS_ADDRESS", address);
    }

    /**
     * Starts one of dbusmock's templates ({@code bluez5}, {@code ofono}, {@code timedated},
     * {@code iio-sensors-proxy}, ...) on the bus and waits until it owns its name.
     *
     * @param template the template's name
     * @param busName the name the template takes, waited for
     * @param parametersJson the template's parameters as a JSON object, e.g. {@code {"NTP": false}}
     */
    public void template(String template, String busName, String parametersJson) throws IOException {
        start(List.of("--system", "--template", template, "--parameters", parametersJson), busName);
    }

    /**
     * Starts an empty mock service that owns {@code busName} with an object at {@code path} of interface
     * {@code iface}; {@link #python} then gives it properties, methods and more objects.
     */
    public void service(String busName, String path, String iface) throws IOException {
        start(List.of("--system", busName, path, iface), busName);
    }

    /**
     * Starts an empty mock service as {@link #service} does whose main object also implements
     * {@code org.freedesktop.DBus.ObjectManager} over every object added later (as ModemManager's does).
     */
    public void objectManager(String busName, String path, String iface) throws IOException {
        start(List.of("--system", "--is-object-manager", busName, path, iface), busName);
    }

    private void start(List<String> args, String busName) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(PYTHON, "-m", "dbusmock"));
        cmd.addAll(args);
        String log = "mock-" + mocks.size();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve(log + ".out").toFile()).redirectError(dir.resolve(log + ".err").toFile());
        pb.environment().putAll(environment());
        Process p = pb.start();
        mocks.add(p);
        python("import time\n"
                + "deadline = time.time() + " + START.toSeconds() + "\n"
                + "while not bus.name_has_owner('" + busName + "'):\n"
                + "    if time.time() > deadline: raise SystemExit('" + busName + " did not appear on the bus')\n"
                + "    time.sleep(0.05)\n");
        if (!p.isAlive()) {
            throw new AssertionError("dbusmock " + args + " exited: " + Files.readString(dir.resolve(log + ".err")));
        }
    }

    /**
     * Runs Python with {@code bus} connected to this bus and {@code dbus} and {@code dbusmock} imported:
     * for a mock's {@code AddObject}, {@code AddProperties} or a template's own methods
     * ({@code bus.get_object(name, path).AddAdapter(..., dbus_interface=dbusmock.MOCK_IFACE)}).
     *
     * @return what the script printed
     * @throws AssertionError if the script fails
     */
    public String python(String script) {
        String prelude = "import dbus, dbusmock\nbus = dbus.bus.BusConnection('" + address + "')\n";
        ProcessResult r = ExternalTool.run(List.of(PYTHON, "-c", prelude + script), environment(), START);
        if (!r.succeeded()) {
            throw new AssertionError("a script on the test bus failed: " + r.describe());
        }
        return r.stdout();
    }

    /** Stops the mocks and the bus, and waits for them. */
    @Override
    public void close() {
        for (Process p : mocks) {
            stop(p);
        }
        stop(daemon);
    }

    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
