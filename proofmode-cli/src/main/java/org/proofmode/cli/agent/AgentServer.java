// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.media.Digests;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;

/**
 * The agent: holds the device key unlocked and runs {@code prove} (and {@code verify}, {@code export}, {@code status}) commands of the same user, sent over a
 * Unix socket in an owner-only folder of {@code PROOFMODE_HOME}, in a process whose code is already
 * compiled. Like {@code gpg-agent}, it trades a key kept unlocked in one process for commands that
 * neither ask for the passphrase nor start cold. It stops when asked, when unused for its idle time, when
 * the key file changes (rotated, replaced or wiped), and within a second of its home folder being removed or
 * replaced (it checks the folder's identity, its inode, every second). It tells {@code status} about itself
 * in {@link AgentInfo}.
 */
public final class AgentServer implements AutoCloseable {
    /** Runs one command the agent was sent, in the agent's process, with the key it holds. */
    @FunctionalInterface
    public interface Runner {
        /**
         * Runs a command line.
         *
         * @param args the command line
         * @param env the caller's environment, without a passphrase, with {@code PROOFMODE_HOME} set to the agent's home
         * @param cwd the caller's working folder
         * @param interactive whether the caller's error output is a terminal a person watches
         * @return the exit code
         */
        int run(List<String> args, Map<String, String> env, Path cwd, boolean interactive, PrintWriter out, PrintWriter err);
    }

    /** The socket's name in that folder. */
    static final String SOCKET = "agent.sock";

    private final Path home;
    private final Path socket;
    private final Runner runner;
    private final Path keyFile;
    private final byte[] keyFileHash;
    private final Duration idle;
    private final String build;
    private final ServerSocketChannel server;
    private final UserPrincipal owner;
    private final Optional<UnlockCheck> unlockCheck;
    private final AtomicInteger active = new AtomicInteger();
    private volatile long lastUsed = System.nanoTime();
    /** The {@link #lastUsed} after which memory was last given back; none yet (the unlock's garbage is there). */
    private long releasedAfter = lastUsed - 1;
    private final AtomicLong releases = new AtomicLong();
    /** What the watchdog waits on: notified when a command ends, so the release comes {@link #SETTLE} after it. */
    private final Object commandEnded = new Object();
    private final Object homeKey;
    private final AgentInfo info;

    private AgentServer(Path home, Path socket, Runner runner, Path keyFile, Duration idle, ServerSocketChannel server,
            Optional<UnlockCheck> unlockCheck) throws IOException {
        this.home = home;
        this.unlockCheck = unlockCheck;
        this.socket = socket;
        this.runner = runner;
        this.keyFile = keyFile;
        this.keyFileHash = hash(keyFile).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                "the device key file " + keyFile + " vanished"));
        this.idle = idle;
        this.build = AgentProtocol.build();
        this.server = server;
        this.owner = Files.getOwner(socket);
        this.homeKey = homeKey(home).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING, home + " vanished"));
        this.info = new AgentInfo(ProcessHandle.current().pid(), Instant.now().truncatedTo(ChronoUnit.SECONDS), idle);
        info.write(home);
    }

    /** What identifies the home folder (its device and inode where the system has them); empty once it is gone. */
    private static Optional<Object> homeKey(Path home) {
        try {
            BasicFileAttributes a = Files.readAttributes(home, BasicFileAttributes.class);
            return Optional.of(a.fileKey() != null ? a.fileKey() : a.creationTime());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** What this agent tells {@code status}. */
    public AgentInfo info() {
        return info;
    }

    /** The socket of the agent of a home, whether or not one runs. */
    public static Path socket(Path home) {
        return Home.AGENT.in(home).resolve(SOCKET);
    }

    /**
     * Opens the agent's socket.
     *
     * @param home the home whose key the agent holds
     * @param keyFile the file of the key it holds, watched for changes
     * @param idle how long the agent may go unused before it stops; zero for never
     * @param runner runs the commands, with the key held unlocked
     * @throws ProofModeException with {@link Failure#IO} if an agent already runs for this home or the
     *     socket cannot be made
     */
    public static AgentServer open(Path home, Path keyFile, Duration idle, Runner runner) {
        return open(home, keyFile, idle, runner, Optional.empty());
    }

    /**
     * Opens the agent's socket, as {@link #open(Path, Path, Duration, Runner)}, for an agent that refuses a
     * command carrying the check of another secret than the one it unlocked with (see {@link UnlockCheck}).
     */
    public static AgentServer open(Path home, Path keyFile, Duration idle, Runner runner, Optional<UnlockCheck> unlockCheck) {
        Path socket = socket(home);
        try {
            AtomicFiles.ownerOnlyDirectory(socket.getParent());
            checkNoneRuns(home);
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                server.bind(UnixDomainSocketAddress.of(socket));
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
                return new AgentServer(home, socket, runner, keyFile, idle, server, unlockCheck);
            } catch (IOException | RuntimeException e) {
                server.close();
                Files.deleteIfExists(socket);
                throw e;
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot open the agent's socket " + socket + ": " + e.getMessage(), e);
        }
    }

    /**
     * Fails if an agent runs for this home already.
     *
     * @throws ProofModeException with {@link Failure#IO} if one does
     */
    public static void checkNoneRuns(Path home) {
        Path socket = socket(home);
        if (Files.exists(socket) && answers(socket)) {
            throw new ProofModeException(Failure.IO, "an agent is already running for " + home
                    + " (stop it with: proofmode agent --stop)");
        }
    }

    private static boolean answers(Path socket) {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return ch.isConnected();
        } catch (IOException e) {
            return false;
        }
    }

    /** How many commands are being served now. */
    public int serving() {
        return active.get();
    }

    /** The socket commands connect to. */
    public Path socket() {
        return socket;
    }

    /** Serves commands until stopped, idle for too long, or its home is removed; then removes the socket. */
    public void serve() {
        Thread watchdog = new Thread(this::stopWhenIdleOrHomeGone, "proofmode-agent-idle");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            while (server.isOpen()) {
                SocketChannel ch;
                try {
                    ch = server.accept();
                } catch (ClosedChannelException e) {
                    break;
                } catch (IOException e) {
                    if (!server.isOpen()) {
                        break;
                    }
                    continue;
                }
                active.incrementAndGet();
                lastUsed = System.nanoTime();
                Thread t = new Thread(() -> {
                    try {
                        handle(ch);
                    } finally {
                        lastUsed = System.nanoTime();
                        active.decrementAndGet();
                        synchronized (commandEnded) {
                            commandEnded.notifyAll();
                        }
                    }
                }, "proofmode-agent-command");
                t.start();
            }
        } finally {
            watchdog.interrupt();
            close();
        }
    }

    private void stopWhenIdleOrHomeGone() {
        long nextHomeCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(homeCheckMs());
        try {
            while (server.isOpen()) {
                long now;
                synchronized (commandEnded) {
                    // A command that ends while this waits notifies it (under the same lock, so no end is
                    // missed between reading lastUsed and waiting): its release is due SETTLE after it.
                    now = System.nanoTime();
                    long wake = nextHomeCheck;
                    if (active.get() == 0 && lastUsed != releasedAfter) {
                        wake = Math.min(wake, lastUsed + SETTLE.toNanos());
                    }
                    if (wake - now > 0) {
                        TimeUnit.NANOSECONDS.timedWait(commandEnded, wake - now);
                        continue;
                    }
                }
                if (now - nextHomeCheck >= 0) {
                    nextHomeCheck = now + TimeUnit.MILLISECONDS.toNanos(homeCheckMs());
                    if (!homeKey(home).equals(Optional.of(homeKey))) {
                        // Removed (wiped, a throwaway home deleted) or replaced: nothing here is this agent's any more.
                        close();
                        continue;
                    } else if (!idle.isZero() && active.get() == 0 && now - lastUsed >= idle.toNanos()) {
                        close();
                        continue;
                    }
                }
                long used = lastUsed;
                if (active.get() == 0 && used != releasedAfter && now - used >= SETTLE.toNanos()) {
                    releasedAfter = used;
                    releaseMemory();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How often the idle and home checks run: every second, or a quarter of a shorter idle time. */
    private long homeCheckMs() {
        return idle.isZero() ? HOME_CHECK_MS : Math.min(HOME_CHECK_MS, Math.max(10, idle.toMillis() / 4));
    }

    /**
     * Gives back the memory the last commands used: the JPEG decoders' kept buffers, then a full
     * collection, which shrinks the heap at once (-XX:-ShrinkHeapInSteps) to what is still reachable plus
     * the launcher's -XX:MaxHeapFreeRatio (a photo's decoded planes, a batch's buffers are garbage by
     * then). The agent stays resident for minutes between commands, as gpg-agent does, and should idle
     * small; the launcher also has the JVM return freed native memory (-XX:TrimNativeHeapInterval, where
     * the JVM has it).
     */
    private void releaseMemory() {
        ImageHashes.releaseBuffers();
        System.gc();
        releases.incrementAndGet();
    }

    /** How many times the agent gave back memory, {@link #SETTLE} after its start or after its last command. */
    public long memoryReleases() {
        return releases.get();
    }

    /**
     * How long after its start or its last command's reply the agent gives back the memory they used: soon
     * enough that an agent between a person's commands is small again within moments of each reply, late
     * enough that commands sent one right after another (a script's loop) run without a collection between
     * them.
     */
    static final Duration SETTLE = Duration.ofMillis(250);

    /** How often the agent checks that its home is still there, in milliseconds. */
    static final long HOME_CHECK_MS = 1000;

    /** Stops serving and removes the socket (and what it told status); commands already running finish. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(AgentInfo.file(home));
        } catch (IOException e) {
            // a socket left behind is found not to answer and replaced by the next agent
        }
    }

    private void handle(SocketChannel ch) {
        try (ch) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(AgentProtocol.input(ch)));
            AgentProtocol.Frames frames = new AgentProtocol.Frames(new BufferedOutputStream(AgentProtocol.output(ch)));
            UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (!owner.equals(peer.user())) {
                frames.refuse("the agent serves its own user only");
                return;
            }
            AgentProtocol.Request r = AgentProtocol.Request.read(in);
            if (r.kind() == AgentProtocol.Kind.STOP) {
                close();
                frames.exit(0);
                return;
            }
            if (!r.build().equals(build)) {
                refuseAndStop(frames, "the running agent is of another build of proofmode; it stopped (start it again: proofmode agent)");
                return;
            }
            Optional<byte[]> keyNow = hash(keyFile);
            if (keyNow.isEmpty() || !Arrays.equals(keyNow.get(), keyFileHash)) {
                refuseAndStop(frames, "the device key changed since the agent unlocked it; the agent stopped");
                return;
            }
            if (!forwardable(r.args())) {
                frames.refuse("the agent runs 'prove', 'verify', 'export', 'status' and 'compare' only");
                return;
            }
            Optional<String> otherSecret = unlockCheck.flatMap(c -> c.refusal(r.env()));
            if (otherSecret.isPresent()) {
                frames.refuse(otherSecret.get());
                return;
            }
            run(r, in, frames, ch);
        } catch (IOException e) {
            // the command went away; its proofs so far are whole, the rest were not started
        }
    }

    /**
     * Refuses a command and stops: the socket's name goes first (no new client reaches this agent, and one
     * that reads the refusal finds the agent gone), then the answer, then the listening socket, whose
     * closing may end the process.
     */
    private void refuseAndStop(AgentProtocol.Frames frames, String why) throws IOException {
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // a socket left behind is found not to answer and replaced by the next agent
        }
        try {
            frames.refuse(why);
        } finally {
            close();
        }
    }

    private void run(AgentProtocol.Request r, DataInputStream in, AgentProtocol.Frames frames, SocketChannel ch) throws IOException {
        Map<String, String> env = new HashMap<>(r.env());
        env.remove("PROOFMODE_PASSPHRASE");
        env.remove("PROOFMODE_PIN");
        env.remove(UnlockCheck.PASSPHRASE_CHECK);
        env.remove(UnlockCheck.PIN_CHECK);
        env.put("PROOFMODE_HOME", home.toString());
        PrintWriter out = new PrintWriter(new OutputStreamWriter(frames.stream(AgentProtocol.OUT), StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(frames.stream(AgentProtocol.ERR), StandardCharsets.UTF_8), true);
        // A command whose caller went away (Ctrl-C) is interrupted: files not yet proved are not started.
        Thread commandThread = Thread.currentThread();
        Object lock = new Object();
        boolean[] done = {false};
        Thread hangup = new Thread(() -> {
            try {
                while (in.read() != -1) {
                    // the caller sends nothing more
                }
            } catch (IOException e) {
                // closed: the command ended, or the caller went away
            }
            synchronized (lock) {
                if (!done[0]) {
                    commandThread.interrupt();
                }
            }
        }, "proofmode-agent-hangup");
        hangup.setDaemon(true);
        hangup.start();
        int code;
        try {
            code = runner.run(r.args(), env, r.cwd(), r.interactive(), out, err);
        } finally {
            synchronized (lock) {
                done[0] = true;
            }
            Thread.interrupted();
        }
        out.flush();
        err.flush();
        if (ch.isOpen()) {
            frames.exit(code);
        }
    }

    private static Optional<byte[]> hash(Path file) {
        try {
            MessageDigest md = Digests.newSha256();
            return Optional.of(md.digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Arguments of a command the agent can run for its caller: {@code prove}, without what needs another
     * secret, and {@code verify}, which needs no secret and gains a started, compiled program; {@code export}
     * and {@code status}, which read an encrypted store (and the watcher's sealed state) with the identity the
     * agent holds; {@code compare}, whose stored proofs it reads with that identity too.
     */
    public static boolean forwardable(List<String> args) {
        String command = null;
        for (String a : args) {
            if (a.equals("--c2pa") || a.equals("--help") || a.equals("-h") || a.equals("--version") || a.equals("-V")
                    || a.equals("--") || a.equals("--passphrase-file") || a.startsWith("--passphrase-file=")
                    || a.equals("--pin-file") || a.startsWith("--pin-file=")) {
                return false;
            }
            if (command == null && !a.startsWith("-")) {
                command = a;
            }
        }
        return "prove".equals(command) || "verify".equals(command) || "export".equals(command) || "status".equals(command)
                || "compare".equals(command);
    }
}
