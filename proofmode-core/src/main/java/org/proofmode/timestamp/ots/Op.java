// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.proofmode.util.Hex;

/**
 * A commitment operation of an OpenTimestamps proof: a hash, or appending or prepending bytes.
 *
 * @param kind which operation
 * @param argument the bytes appended or prepended (empty for hashes)
 */
public record Op(Kind kind, byte[] argument) implements Comparable<Op> {
    /** Most bytes of an append or prepend argument, and of a message an operation may produce. */
    public static final int MAX_ARGUMENT = 4096;

    /** The operations, with their wire tags. */
    public enum Kind {
        /** SHA-1 (only for reading old proofs). */
        SHA1(0x02),
        /** RIPEMD-160. */
        RIPEMD160(0x03),
        /** SHA-256. */
        SHA256(0x08),
        /** Keccak-256. */
        KECCAK256(0x67),
        /** Append the argument. */
        APPEND(0xF0),
        /** Prepend the argument. */
        PREPEND(0xF1),
        /** Reverse the message (deprecated). */
        REVERSE(0xF2),
        /** Hex-encode the message. */
        HEXLIFY(0xF3);

        final int tag;

        Kind(int tag) {
            this.tag = tag;
        }

        boolean binary() {
            return this == APPEND || this == PREPEND;
        }

        static Kind of(int tag) throws OtsFormatException {
            for (Kind k : values()) {
                if (k.tag == tag) {
                    return k;
                }
            }
            throw new OtsFormatException(String.format("unknown operation tag 0x%02x", tag));
        }
    }

    /** Validates and copies. */
    public Op {
        Objects.requireNonNull(kind, "kind");
        argument = argument == null ? new byte[0] : argument.clone();
        if (!kind.binary() && argument.length != 0) {
            throw new IllegalArgumentException(kind + " takes no argument");
        }
        if (kind.binary() && argument.length == 0) {
            throw new IllegalArgumentException(kind + " needs at least one byte");
        }
        if (argument.length > MAX_ARGUMENT) {
            throw new IllegalArgumentException("argument longer than " + MAX_ARGUMENT);
        }
    }

    /** The SHA-256 operation. */
    public static Op sha256() {
        return new Op(Kind.SHA256, null);
    }

    /** Appends bytes. */
    public static Op append(byte[] bytes) {
        return new Op(Kind.APPEND, bytes);
    }

    /** Prepends bytes. */
    public static Op prepend(byte[] bytes) {
        return new Op(Kind.PREPEND, bytes);
    }

    @Override
    public byte[] argument() {
        return argument.clone();
    }

    /**
     * Applies the operation to a message.
     *
     * @throws OtsFormatException if the result would be longer than {@link #MAX_ARGUMENT}
     */
    public byte[] apply(byte[] msg) throws OtsFormatException {
        byte[] out = switch (kind) {
            case SHA1 -> jca("SHA-1", msg);
            case SHA256 -> jca("SHA-256", msg);
            case RIPEMD160 -> {
                RIPEMD160Digest d = new RIPEMD160Digest();
                d.update(msg, 0, msg.length);
                byte[] r = new byte[d.getDigestSize()];
                d.doFinal(r, 0);
                yield r;
            }
            case KECCAK256 -> {
                KeccakDigest d = new KeccakDigest(256);
                d.update(msg, 0, msg.length);
                byte[] r = new byte[32];
                d.doFinal(r, 0);
                yield r;
            }
            case APPEND -> concat(msg, argument);
            case PREPEND -> concat(argument, msg);
            case REVERSE -> {
                byte[] r = new byte[msg.length];
                for (int i = 0; i < msg.length; i++) {
                    r[i] = msg[msg.length - 1 - i];
                }
                yield r;
            }
            case HEXLIFY -> HexFormat.of().formatHex(msg).getBytes(StandardCharsets.US_ASCII);
        };
        if (out.length > MAX_ARGUMENT) {
            throw new OtsFormatException("operation " + kind + " gives a message longer than " + MAX_ARGUMENT + " bytes");
        }
        return out;
    }

    void write(ByteArrayOutputStream out) {
        out.write(kind.tag);
        if (kind.binary()) {
            OtsReader.writeVarbytes(out, argument);
        }
    }

    static Op read(OtsReader in, int tag) throws OtsFormatException {
        Kind k = Kind.of(tag);
        if (k.binary()) {
            byte[] arg = in.readVarbytes(MAX_ARGUMENT);
            if (arg.length == 0) {
                throw new OtsFormatException("empty " + k + " argument");
            }
            return new Op(k, arg);
        }
        return new Op(k, null);
    }

    /** Orders operations as the reference implementation sorts them when writing. */
    @Override
    public int compareTo(Op o) {
        int c = Integer.compare(kind.tag, o.kind.tag);
        return c != 0 ? c : Arrays.compareUnsigned(argument, o.argument);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Op op && op.kind == kind && Arrays.equals(op.argument, argument);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Arrays.hashCode(argument);
    }

    @Override
    public String toString() {
        return kind.binary() ? kind.name().toLowerCase(Locale.ROOT) + " " + HexFormat.of().formatHex(argument)
                : kind.name().toLowerCase(Locale.ROOT);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] jca(String algo, byte[] msg) {
        try {
            return MessageDigest.getInstance(algo).digest(msg);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algo + " missing", e);
        }
    }
}
