// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A tree of commitment operations from one message to attestations: each node is a message; each edge
 * an {@link Op} that turns the message into the child's message; leaves carry attestations. Mutable
 * while it is built or merged; not thread-safe.
 */
public final class Timestamp {
    /** Deepest tree accepted when reading, as in the reference implementation. */
    public static final int MAX_DEPTH = 256;

    private final byte[] msg;
    private final TreeSet<Attestation> attestations = new TreeSet<>();
    private final TreeMap<Op, Timestamp> ops = new TreeMap<>();

    /** Starts a tree at a message. */
    public Timestamp(byte[] msg) {
        this.msg = Objects.requireNonNull(msg, "msg").clone();
    }

    /** The message at this node. */
    public byte[] msg() {
        return msg.clone();
    }

    /** The attestations on this node. */
    public List<Attestation> attestations() {
        return List.copyOf(attestations);
    }

    /** The operations leaving this node, in order. */
    public Map<Op, Timestamp> ops() {
        return Collections.unmodifiableMap(ops);
    }

    /** Adds an attestation to this node. */
    public void attest(Attestation a) {
        attestations.add(Objects.requireNonNull(a, "attestation"));
    }

    /**
     * Follows (adding if absent) an operation from this node.
     *
     * @return the child node
     * @throws OtsFormatException if the operation's result is too long
     */
    public Timestamp add(Op op) throws OtsFormatException {
        Timestamp child = ops.get(op);
        if (child == null) {
            child = new Timestamp(op.apply(msg));
            ops.put(op, child);
        }
        return child;
    }

    /**
     * Merges another tree over the same message into this one (as when a calendar answers an upgrade).
     *
     * @throws IllegalArgumentException if the messages differ
     */
    public void merge(Timestamp other) {
        if (!Arrays.equals(msg, other.msg)) {
            throw new IllegalArgumentException("cannot merge timestamps of different messages");
        }
        attestations.addAll(other.attestations);
        for (Map.Entry<Op, Timestamp> e : other.ops.entrySet()) {
            // Copy rather than share the other tree's nodes, so that later changes to one leave the other alone.
            Timestamp mine = ops.computeIfAbsent(e.getKey(), k -> new Timestamp(e.getValue().msg));
            mine.merge(e.getValue());
        }
    }

    /**
     * Merges a tree into every node of this one whose message is the tree's root message (as when a
     * calendar answers for the commitment at a pending attestation).
     *
     * @return whether such a node was found
     */
    public boolean mergeWherever(Timestamp sub) {
        boolean found = false;
        if (Arrays.equals(msg, sub.msg)) {
            merge(sub);
            found = true;
        }
        for (Timestamp t : ops.values()) {
            found |= t.mergeWherever(sub);
        }
        return found;
    }

    /** Every attestation in the tree with the message it attests, depth first. */
    public List<Map.Entry<byte[], Attestation>> allAttestations() {
        List<Map.Entry<byte[], Attestation>> out = new ArrayList<>();
        collect(out);
        return out;
    }

    private void collect(List<Map.Entry<byte[], Attestation>> out) {
        for (Attestation a : attestations) {
            out.add(Map.entry(msg.clone(), a));
        }
        for (Timestamp t : ops.values()) {
            t.collect(out);
        }
    }

    /** Writes the tree in the reference byte order. */
    public void write(ByteArrayOutputStream out) {
        if (attestations.isEmpty() && ops.isEmpty()) {
            throw new IllegalStateException("an empty timestamp cannot be written");
        }
        List<Attestation> atts = new ArrayList<>(attestations);
        for (int i = 0; i < atts.size() - 1; i++) {
            out.write(0xFF);
            out.write(0x00);
            atts.get(i).write(out);
        }
        if (ops.isEmpty()) {
            out.write(0x00);
            atts.get(atts.size() - 1).write(out);
            return;
        }
        if (!atts.isEmpty()) {
            out.write(0xFF);
            out.write(0x00);
            atts.get(atts.size() - 1).write(out);
        }
        List<Map.Entry<Op, Timestamp>> entries = new ArrayList<>(ops.entrySet());
        for (int i = 0; i < entries.size(); i++) {
            if (i < entries.size() - 1) {
                out.write(0xFF);
            }
            entries.get(i).getKey().write(out);
            entries.get(i).getValue().write(out);
        }
    }

    /** Tells whether this node has neither attestations nor operations. */
    public boolean isEmpty() {
        return attestations.isEmpty() && ops.isEmpty();
    }

    /** Serialises the tree alone, as a calendar sends it (no file header, no digest). */
    public byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out);
        return out.toByteArray();
    }

    /**
     * Parses a tree without a file header, as calendars answer: its root message is known to the caller.
     *
     * @param bytes the serialised tree
     * @param msg the message the tree starts from (the digest submitted, or the commitment asked about)
     * @throws OtsFormatException if the bytes are not exactly one well-formed tree
     */
    public static Timestamp parse(byte[] bytes, byte[] msg) throws OtsFormatException {
        if (bytes.length > OtsFile.MAX_BYTES) {
            throw new OtsFormatException("larger than " + OtsFile.MAX_BYTES + " bytes");
        }
        if (msg.length > Op.MAX_ARGUMENT) {
            throw new OtsFormatException("message longer than " + Op.MAX_ARGUMENT + " bytes");
        }
        OtsReader in = new OtsReader(bytes);
        Timestamp t = read(in, msg, 0);
        if (!in.atEnd()) {
            throw new OtsFormatException("trailing bytes after the timestamp at byte " + in.position());
        }
        return t;
    }

    /** Reads a tree whose root message is {@code msg}. */
    static Timestamp read(OtsReader in, byte[] msg, int depth) throws OtsFormatException {
        if (depth > MAX_DEPTH) {
            throw new OtsFormatException("timestamp tree deeper than " + MAX_DEPTH);
        }
        in.charge(msg.length);
        Timestamp t = new Timestamp(msg);
        int tag = in.read();
        while (tag == 0xFF) {
            t.readEdge(in, in.read(), depth);
            tag = in.read();
        }
        t.readEdge(in, tag, depth);
        return t;
    }

    private void readEdge(OtsReader in, int tag, int depth) throws OtsFormatException {
        if (tag == 0x00) {
            attestations.add(Attestation.read(in));
            return;
        }
        Op op = Op.read(in, tag);
        Timestamp child = read(in, op.apply(msg), depth + 1);
        Timestamp existing = ops.get(op);
        if (existing != null) {
            existing.merge(child);
        } else {
            ops.put(op, child);
        }
    }
}
