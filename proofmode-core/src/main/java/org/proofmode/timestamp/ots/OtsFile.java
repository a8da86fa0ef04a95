// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A detached OpenTimestamps proof ({@code .ots} file): the hash of a file and the tree of operations
 * and attestations that timestamp it. Reads and writes the format byte for byte as the reference
 * client does, so files round-trip unchanged.
 */
public final class OtsFile {
    /** Most bytes of an {@code .ots} file we read. */
    public static final int MAX_BYTES = 1 << 20;

    private static final byte[] MAGIC = HexFormat.of().parseHex(
            "004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294");
    private static final int MAJOR_VERSION = 1;

    private final Op.Kind fileHash;
    private final Timestamp timestamp;

    /**
     * Creates a proof for a file digest.
     *
     * @param fileHash the hash operation that gave the digest (SHA-256 for our proofs)
     * @param timestamp the tree rooted at the digest
     */
    public OtsFile(Op.Kind fileHash, Timestamp timestamp) {
        this.fileHash = Objects.requireNonNull(fileHash, "fileHash");
        this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
        if (expectedLength(fileHash) != timestamp.msg().length) {
            throw new IllegalArgumentException("digest length does not fit " + fileHash);
        }
    }

    /** The hash operation that gave the file digest. */
    public Op.Kind fileHash() {
        return fileHash;
    }

    /** The file digest the proof commits to. */
    public byte[] digest() {
        return timestamp.msg();
    }

    /** The tree of operations and attestations. */
    public Timestamp timestamp() {
        return timestamp;
    }

    /**
     * Parses an {@code .ots} file.
     *
     * @throws OtsFormatException for anything that is not a well-formed proof
     */
    public static OtsFile parse(byte[] bytes) throws OtsFormatException {
        if (bytes.length > MAX_BYTES) {
            throw new OtsFormatException("larger than " + MAX_BYTES + " bytes");
        }
        OtsReader in = new OtsReader(bytes);
        if (!Arrays.equals(in.read(MAGIC.length), MAGIC)) {
            throw new OtsFormatException("no OpenTimestamps header (bad magic)");
        }
        long version = in.readVaruint();
        if (version != MAJOR_VERSION) {
            throw new OtsFormatException("unsupported major version " + version);
        }
        Op.Kind kind = Op.Kind.of(in.read());
        int len = expectedLength(kind);
        if (len < 0) {
            throw new OtsFormatException("file hash operation " + kind + " is not a hash");
        }
        byte[] digest = in.read(len);
        Timestamp t = Timestamp.read(in, digest, 0);
        if (!in.atEnd()) {
            throw new OtsFormatException("trailing bytes after the proof at byte " + in.position());
        }
        return new OtsFile(kind, t);
    }

    /** Serialises the proof. */
    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(MAGIC, 0, MAGIC.length);
        OtsReader.writeVaruint(out, MAJOR_VERSION);
        out.write(fileHash.tag);
        byte[] d = timestamp.msg();
        out.write(d, 0, d.length);
        timestamp.write(out);
        return out.toByteArray();
    }

    private static int expectedLength(Op.Kind kind) {
        return switch (kind) {
            case SHA1, RIPEMD160 -> 20;
            case SHA256, KECCAK256 -> 32;
            default -> -1;
        };
    }
}
