// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A claim by a time source that a message existed: a calendar's promise to anchor it later
 * ({@link Pending}), a Bitcoin block ({@link Bitcoin}), or a kind this reader does not know
 * ({@link Unknown}, kept as bytes so that the proof can be written back unchanged).
 */
public sealed interface Attestation extends Comparable<Attestation> permits Attestation.Pending, Attestation.Bitcoin, Attestation.Unknown {
    /** Most bytes of an attestation payload. */
    int MAX_PAYLOAD = 8192;

    /** The 8-byte wire tag. */
    byte[] tag();

    /** The payload as written. */
    byte[] payload();

    /** A calendar server will anchor the message; ask it at {@code uri} later. */
    record Pending(String uri) implements Attestation {
        static final byte[] TAG = HexFormat.of().parseHex("83dfe30d2ef90c8e");

        /** Characters the reference allows in a calendar URI: no query, fragment, login or percent signs. */
        private static final String ALLOWED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._/:";

        /** Validates the URI: at most 1,000 characters from the reference's allowed set. */
        public Pending {
            if (uri == null || uri.isEmpty() || uri.length() > 1000 || !uri.chars().allMatch(c -> ALLOWED.indexOf(c) >= 0)) {
                throw new IllegalArgumentException("bad calendar URI");
            }
        }

        @Override
        public byte[] tag() {
            return TAG.clone();
        }

        @Override
        public byte[] payload() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            OtsReader.writeVarbytes(out, uri.getBytes(StandardCharsets.US_ASCII));
            return out.toByteArray();
        }
    }

    /** The message is the Merkle root committed in the Bitcoin block at this height. */
    record Bitcoin(long height) implements Attestation {
        static final byte[] TAG = HexFormat.of().parseHex("0588960d73d71901");

        /** Validates the height. */
        public Bitcoin {
            if (height < 0) {
                throw new IllegalArgumentException("negative block height");
            }
        }

        @Override
        public byte[] tag() {
            return TAG.clone();
        }

        @Override
        public byte[] payload() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            OtsReader.writeVaruint(out, height);
            return out.toByteArray();
        }
    }

    /** An attestation of a kind this reader does not interpret. */
    record Unknown(byte[] tag, byte[] payload) implements Attestation {
        /** Tags of block-header attestations whose payload is a height: Litecoin, Ethereum. */
        static final List<byte[]> HEIGHT_TAGS = List.of(
                HexFormat.of().parseHex("06869a0d73d71b45"), HexFormat.of().parseHex("30fe8087b5c7ead7"));

        /** Copies the bytes. */
        public Unknown {
            tag = tag.clone();
            payload = payload.clone();
        }

        @Override
        public byte[] tag() {
            return tag.clone();
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Unknown u && Arrays.equals(u.tag, tag) && Arrays.equals(u.payload, payload);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(tag) * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Unknown[" + HexFormat.of().formatHex(tag) + "]";
        }

        /** The payload read as one height, or -1 if it is not exactly one. */
        static long height(byte[] payload) {
            OtsReader r = new OtsReader(payload);
            try {
                long h = r.readVaruint();
                return r.atEnd() ? h : -1;
            } catch (OtsFormatException e) {
                return -1;
            }
        }
    }

    /**
     * Orders as the reference sorts attestations when writing: by tag; within a tag, pending ones by URI,
     * block attestations (Bitcoin, and Litecoin and Ethereum kept as unknown) by height, others by payload.
     */
    @Override
    default int compareTo(Attestation o) {
        int c = Arrays.compareUnsigned(tag(), o.tag());
        if (c != 0) {
            return c;
        }
        if (this instanceof Pending a && o instanceof Pending b) {
            return a.uri().compareTo(b.uri());
        }
        if (this instanceof Bitcoin a && o instanceof Bitcoin b) {
            return Long.compare(a.height(), b.height());
        }
        if (Unknown.HEIGHT_TAGS.stream().anyMatch(t -> Arrays.equals(t, tag()))) {
            long a = Unknown.height(payload());
            long b = Unknown.height(o.payload());
            if (a >= 0 && b >= 0) {
                return a != b ? Long.compare(a, b) : Arrays.compareUnsigned(payload(), o.payload());
            }
        }
        return Arrays.compareUnsigned(payload(), o.payload());
    }

    /** Writes tag and length-prefixed payload. */
    default void write(ByteArrayOutputStream out) {
        byte[] t = tag();
        out.write(t, 0, t.length);
        OtsReader.writeVarbytes(out, payload());
    }

    /** Reads one attestation. */
    static Attestation read(OtsReader in) throws OtsFormatException {
        byte[] tag = in.read(8);
        byte[] payload = in.readVarbytes(MAX_PAYLOAD);
        OtsReader p = new OtsReader(payload);
        try {
            if (Arrays.equals(tag, Pending.TAG)) {
                byte[] uri = p.readVarbytes(1000);
                if (uri.length == 0) {
                    throw new OtsFormatException("empty calendar URI");
                }
                if (!p.atEnd()) {
                    throw new OtsFormatException("trailing bytes in a pending attestation");
                }
                return new Pending(new String(uri, StandardCharsets.US_ASCII));
            }
            if (Arrays.equals(tag, Bitcoin.TAG)) {
                long h = p.readVaruint();
                if (!p.atEnd()) {
                    throw new OtsFormatException("trailing bytes in a Bitcoin attestation");
                }
                return new Bitcoin(h);
            }
        } catch (IllegalArgumentException e) {
            throw new OtsFormatException(e.getMessage());
        }
        return new Unknown(tag, payload);
    }
}
