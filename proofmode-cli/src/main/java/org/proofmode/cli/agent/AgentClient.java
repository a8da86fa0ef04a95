// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Hands a command to the running agent of its home, if there is one (see {@link AgentServer}), and
 * prints what the agent answers. Loads nothing of the rest of the program, so that a command run this way
 * starts as fast as the JVM does.
 */
public final class AgentClient {
    /** Set to {@code off} to never use an agent. */
    public static final String ENV_SWITCH = "PROOFMODE_AGENT";

    /**
     * The exit code of a command whose agent stopped before it ended: 1, what the command line calls an
     * internal error.
     */
    public static final int LOST = 1;

    private AgentClient() {}

    /**
     * Runs the command in the agent, when one runs for its home and the command is one it runs.
     *
     * @param args the command line
     * @param env the environment
     * @param cwd the working folder, absolute
     * @param home the command's {@code PROOFMODE_HOME}, whose agent it goes to
     * @param out where the command's output goes
     * @param err where its error output goes
     * @param interactive whether {@code err} is a terminal a person watches
     * @return the command's exit code, or empty when the command must run here: no agent, not a command
     *     the agent runs, or the agent refused (then {@code err} says why)
     */
    public static OptionalInt run(String[] args, Map<String, String> env, Path cwd, Path home, PrintStream out, PrintStream err,
            boolean interactive) {
        if ("off".equalsIgnoreCase(env.getOrDefault(ENV_SWITCH, "")) || !AgentServer.forwardable(List.of(args))) {
            return OptionalInt.empty();
        }
        Path socket = AgentServer.socket(home);
        if (!Files.exists(socket)) {
            return OptionalInt.empty();
        }
        SocketChannel ch;
        try {
            ch = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            if (e instanceof ConnectException) {
                // Left by an agent that died: nobody listens. Removed, so that the launcher starts a new one.
                try {
                    Files.deleteIfExists(socket);
                } catch (IOException ignored) {
                    // the next command tries again
                }
            }
            return OptionalInt.empty();
        }
        try (ch) {
            Map<String, String> sent = new HashMap<>(env);
            sent.remove("PROOFMODE_PASSPHRASE");
            sent.remove("PROOFMODE_PIN");
            sent.put("PROOFMODE_HOME", home.toString());
            UnlockCheck.add(env, sent);
            DataOutputStream req = new DataOutputStream(new BufferedOutputStream(AgentProtocol.output(ch)));
            new AgentProtocol.Request(AgentProtocol.Kind.RUN, AgentProtocol.build(), cwd, interactive, List.of(args), sent).write(req);
            return answer(new DataInputStream(new BufferedInputStream(AgentProtocol.input(ch))), out, err);
        } catch (IOException e) {
            err.println("proofmode: the agent stopped before the command ended (" + e.getMessage()
                    + "); proofs it finished are complete, run the command again for the rest");
            return OptionalInt.of(LOST);
        }
    }

    private static OptionalInt answer(DataInputStream in, PrintStream out, PrintStream err) throws IOException {
        while (true) {
            int type = in.read();
            if (type == -1) {
                throw new EOFException("no exit code");
            }
            switch (type) {
                case AgentProtocol.OUT, AgentProtocol.ERR -> {
                    byte[] b = new byte[AgentProtocol.frameLength(in)];
                    in.readFully(b);
                    PrintStream to = type == AgentProtocol.OUT ? out : err;
                    to.write(b, 0, b.length);
                    to.flush();
                }
                case AgentProtocol.EXIT -> {
                    return OptionalInt.of(in.readInt());
                }
                case AgentProtocol.REFUSED -> {
                    err.println("proofmode: agent: " + AgentProtocol.readString(in) + "; running here");
                    return OptionalInt.empty();
                }
                default -> throw new IOException("unknown agent frame " + type);
            }
        }
    }

    /**
     * Asks the agent of a home to stop.
     *
     * @return whether an agent answered and stopped
     */
    public static boolean stop(Path home) {
        Path socket = AgentServer.socket(home);
        if (!Files.exists(socket)) {
            return false;
        }
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            DataOutputStream req = new DataOutputStream(new BufferedOutputStream(AgentProtocol.output(ch)));
            new AgentProtocol.Request(AgentProtocol.Kind.STOP, AgentProtocol.build(), home, false, List.of(), Map.of()).write(req);
            OptionalInt code = answer(new DataInputStream(new BufferedInputStream(AgentProtocol.input(ch))),
                    new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
            return code.isPresent();
        } catch (IOException e) {
            return false;
        }
    }
}
