// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the agent and a command say to each other over the agent's socket. The command sends one
 * {@link Request}; the agent answers with frames: output, error output, then the exit code (or a refusal,
 * after which the command runs by itself). Plain data streams, so that a command that hands its work to
 * the agent loads almost nothing.
 */
public final class AgentProtocol {
    /** "PMAG": the first bytes of every request. */
    static final int MAGIC = 0x504d4147;
    /** Changed whenever the exchange changes. */
    static final int VERSION = 1;
    /** Longest string accepted in a request (an argument, a path, an environment value). */
    static final int MAX_STRING = 1 << 20;
    /** Most strings accepted in one list of a request. */
    static final int MAX_STRINGS = 1 << 16;

    public static final byte OUT = 1;
    public static final byte ERR = 2;
    public static final byte EXIT = 3;
    public static final byte REFUSED = 4;

    private AgentProtocol() {}

    /** What a request asks. */
    public enum Kind {
        /** Run a command with the agent's key. */
        RUN,
        /** Stop the agent. */
        STOP
    }

    /**
     * One request.
     *
     * @param kind what is asked
     * @param build the asking program's build ({@link #build()}); the agent serves only its own
     * @param cwd the asking command's working folder, absolute
     * @param interactive whether the asking command's error output is a terminal a person watches
     * @param args the command line
     * @param env the asking command's environment
     */
    public record Request(Kind kind, String build, Path cwd, boolean interactive, List<String> args, Map<String, String> env) {
        /** Validates and copies the fields. */
        public Request {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(build, "build");
            if (!cwd.isAbsolute()) {
                throw new IllegalArgumentException("not an absolute folder: " + cwd);
            }
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }

        public void write(DataOutputStream out) throws IOException {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeByte(kind.ordinal());
            writeString(out, build);
            writeString(out, cwd.toString());
            out.writeBoolean(interactive);
            out.writeInt(args.size());
            for (String a : args) {
                writeString(out, a);
            }
            out.writeInt(env.size());
            for (Map.Entry<String, String> e : env.entrySet()) {
                writeString(out, e.getKey());
                writeString(out, e.getValue());
            }
            out.flush();
        }

        /**
         * Reads a request.
         *
         * @throws IOException if the stream ends early or does not hold a request of this version
         */
        static Request read(DataInputStream in) throws IOException {
            if (in.readInt() != MAGIC) {
                throw new IOException("not a proofmode agent request");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException("agent request version " + version + ", expected " + VERSION);
            }
            int kind = in.readUnsignedByte();
            if (kind >= Kind.values().length) {
                throw new IOException("unknown agent request " + kind);
            }
            String build = readString(in);
            Path cwd = Path.of(readString(in));
            if (!cwd.isAbsolute()) {
                throw new IOException("working folder is not absolute: " + cwd);
            }
            boolean interactive = in.readBoolean();
            List<String> args = new ArrayList<>();
            for (int i = 0, n = count(in); i < n; i++) {
                args.add(readString(in));
            }
            Map<String, String> env = new LinkedHashMap<>();
            for (int i = 0, n = count(in); i < n; i++) {
                env.put(readString(in), readString(in));
            }
            return new Request(Kind.values()[kind], build, cwd, interactive, args, env);
        }
    }

    /** Writes frames to the asking command; safe to use from several threads. */
    static final class Frames {
        private final DataOutputStream out;

        Frames(OutputStream out) {
            this.out = new DataOutputStream(out);
        }

        synchronized void bytes(byte type, byte[] b, int off, int len) throws IOException {
            out.writeByte(type);
            out.writeInt(len);
            out.write(b, off, len);
            out.flush();
        }

        synchronized void exit(int code) throws IOException {
            out.writeByte(EXIT);
            out.writeInt(code);
            out.flush();
        }

        synchronized void refuse(String why) throws IOException {
            out.writeByte(REFUSED);
            writeString(out, why);
            out.flush();
        }

        /** An output stream whose writes become frames of one type. */
        OutputStream stream(byte type) {
            return blocks((b, off, len) -> {
                if (len > 0) {
                    bytes(type, b, off, len);
                }
            });
        }
    }

    /**
     * A stream reading a socket. Unlike {@link Channels#newInputStream}, it does not lock
     * the channel while it waits, so another thread can write meanwhile.
     */
    public static InputStream input(SocketChannel ch) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n == -1 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : ch.read(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    /** A stream writing a socket, without locking it against a thread that reads (see {@link #input}). */
    public static OutputStream output(SocketChannel ch) {
        return blocks((b, off, len) -> {
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        });
    }

    /** Where {@link #blocks} sends what is written. */
    @FunctionalInterface
    interface BlockSink {
        void write(byte[] b, int off, int len) throws IOException;
    }

    /** An output stream that hands every write, single bytes too, to {@code sink} as a block. */
    private static OutputStream blocks(BlockSink sink) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                sink.write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                sink.write(b, off, len);
            }
        };
    }

    /** This program's build: where its code is, with the size and time of that file, so that an agent of another build is not used. */
    public static String build() {
        try {
            Path code = Path.of(AgentProtocol.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(code)) {
                return code + " " + Files.size(code) + " " + Files.getLastModifiedTime(code).toMillis();
            }
            return code.toString();
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return "unknown";
        }
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_STRING) {
            throw new IOException("agent message string of " + n + " bytes");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_STRINGS) {
            throw new IOException("agent message list of " + n + " strings");
        }
        return n;
    }

    /** Reads a frame's payload length, refusing nonsense. */
    static int frameLength(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_STRING) {
            throw new EOFException("agent frame of " + n + " bytes");
        }
        return n;
    }
}
