// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A software TPM 2.0 of a test's own behind its PKCS#11 module, as a laptop's chip is reached: {@code swtpm}
 * (the TPM, on two loopback ports), {@code tpm2-abrmd} (the resource manager, on a D-Bus session bus of
 * its own: without one the TPM runs out of object contexts), and {@code tpm2-pkcs11} (the module, its
 * store under the test's folder) with one token made by {@code tpm2_ptool}. Give {@link #env()} to every
 * process that must see the token; {@link #close()} stops the three daemons.
 */
public final class SoftTpm implements AutoCloseable {
    /** Debian's tpm2-pkcs11 module. */
    public static final Path MODULE = Path.of("/usr/lib/x86_64-linux-gnu/pkcs11/libtpm2_pkcs11.so");
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final List<Process> daemons = new ArrayList<>();
    private final Map<String, String> env;
    private final Path logs;

    private SoftTpm(Map<String, String> env, Path logs) {
        this.env = env;
        this.logs = logs;
    }

    /**
     * Starts the TPM and makes a token.
     *
     * @param dir a folder of the test's own
     * @param label the token label
     * @param pin the user PIN (the security officer PIN is {@code pin} reversed)
     * @throws org.opentest4j.AssertionFailedError if a program is missing or the token cannot be made
     */
    public static SoftTpm start(Path dir, String label, String pin) {
        if (!Files.isRegularFile(MODULE)) {
            fail(MODULE + " is missing; install it: apt-get install libtpm2-pkcs11-1; .ci/run does");
        }
        try {
            Path state = Files.createDirectories(dir.resolve("tpm-state"));
            Path store = Files.createDirectories(dir.resolve("tpm2-pkcs11"));
            String bus = "unix:path=" + dir.resolve("tpm-bus");
            // the swtpm TCTI reaches the control channel on the next port
            int port = freePortPair();
            int ctrl = port + 1;
            SoftTpm tpm = new SoftTpm(Map.of("DBUS_SESSION_BUS_ADDRESS", bus, "TPM2_PKCS11_TCTI", "tabrmd:bus_type=session",
                    "TPM2_PKCS11_STORE", store.toString(), "TPM2TOOLS_TCTI", "tabrmd:bus_type=session"), dir);
            try {
                tpm.daemon(dir.resolve("swtpm.log"), ExternalTool.require("swtpm").toString(), "socket", "--tpm2",
                        "--tpmstate", "dir=" + state, "--server", "type=tcp,bindaddr=127.0.0.1,port=" + port,
                        "--ctrl", "type=tcp,bindaddr=127.0.0.1,port=" + ctrl, "--flags", "not-need-init,startup-clear");
                tpm.daemon(dir.resolve("dbus.log"), ExternalTool.require("dbus-daemon").toString(), "--session", "--nofork",
                        "--nopidfile", "--address=" + bus);
                await(() -> Files.exists(dir.resolve("tpm-bus")) && listening(port), "the TPM and its bus to start", dir);
                tpm.daemon(dir.resolve("abrmd.log"), "/usr/sbin/tpm2-abrmd", "--session", "--allow-root",
                        "--tcti=swtpm:host=127.0.0.1,port=" + port);
                tpm.ptoolUntilReady("init");
                ProcessResult token = tpm.ptool("addtoken", "--pid=1", "--label=" + label, "--userpin=" + pin,
                        "--sopin=" + new StringBuilder(pin).reverse());
                if (!token.succeeded()) {
                    fail("tpm2_ptool could not make a token: " + token.describe());
                }
                return tpm;
            } catch (RuntimeException | Error e) {
                tpm.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The environment a process needs to see the token (the bus, the module's TCTI and store). */
    public Map<String, String> env() {
        return env;
    }

    /** Runs {@code tpm2_ptool ARGS}. */
    public ProcessResult ptool(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ExternalTool.require("tpm2_ptool").toString());
        cmd.addAll(List.of(args));
        return ExternalTool.run(cmd, env, TIMEOUT);
    }

    /** The resource manager takes a moment to reach the TPM and claim its bus name: retry the first command. */
    private void ptoolUntilReady(String... args) {
        ProcessResult last = null;
        for (int i = 0; i < 50; i++) {
            last = ptool(args);
            if (last.succeeded()) {
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        fail("the software TPM did not answer: " + (last == null ? "" : last.describe()) + "\nresource manager: " + log("abrmd.log"));
    }

    private String log(String name) {
        try {
            return Files.readString(logs.resolve(name));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void daemon(Path log, String... command) throws IOException {
        if (command[0].startsWith("/") && !Files.isExecutable(Path.of(command[0]))) {
            fail(command[0] + " is missing; install it: apt-get install tpm2-abrmd; .ci/run does");
        }
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        b.environment().putAll(env);
        daemons.add(b.start());
    }

    private static boolean listening(int port) {
        try {
            new Socket("127.0.0.1", port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void await(BooleanSupplier ready, String what, Path dir) {
        for (int i = 0; i < 100; i++) {
            if (ready.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        fail("timed out waiting for " + what + "; see the logs in " + dir);
    }

    /** A free port whose successor is free too. */
    private static int freePortPair() throws IOException {
        for (int i = 0; i < 20; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            if (port < 65535) {
                try {
                    new ServerSocket(port + 1).close();
                    return port;
                } catch (IOException e) {
                    // taken: try another
                }
            }
        }
        throw new IOException("no two free consecutive ports");
    }

    @Override
    public void close() {
        for (int i = daemons.size() - 1; i >= 0; i--) {
            Process p = daemons.get(i);
            p.destroy();
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
