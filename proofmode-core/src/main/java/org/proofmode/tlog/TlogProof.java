// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A receipt that an entry is in a transparency log, checkable offline: the C2SP {@code tlog-proof} format.
 * Its lines are {@code c2sp.org/tlog-proof@v1}, optionally {@code extra <base64>} (not authenticated),
 * {@code index <n>}, the inclusion proof one base64 hash a line (from the leaf's sibling up), an empty
 * line, then the log's signed checkpoint verbatim.
 *
 * @param extra the opaque extra data, if any: never to be trusted, it is not signed
 * @param index the entry's index in the log
 * @param hashes the inclusion proof ({@link Merkle#inclusionProof})
 * @param checkpoint the signed checkpoint note, as the log issued it
 */
public record TlogProof(Optional<byte[]> extra, long index, List<byte[]> hashes, byte[] checkpoint) {
    /** The first line of every proof. */
    public static final String HEADER = "c2sp.org/tlog-proof@v1";

    /** Proofs larger than this are refused unread (a checkpoint note plus 63 hashes is far less). */
    public static final int MAX_BYTES = SignedNote.MAX_BYTES + 4096;

    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,18}");

    /** What checking a receipt found. */
    public enum Outcome {
        /** A checkpoint signed by a trusted log key includes the entry. */
        VALID,
        /** The checkpoint's signature by a trusted key fails, or the proof does not bind the entry to its root. */
        INVALID,
        /** No trusted log key for the checkpoint's origin signed it: nothing can be said. */
        UNTRUSTED
    }

    /**
     * The result of a check.
     *
     * @param outcome what was found
     * @param detail why, in one line
     * @param checkpoint the checkpoint, when its note was signed by a trusted key
     * @param cosigners the trusted witnesses whose cosignatures of the checkpoint verified
     */
    public record Result(Outcome outcome, String detail, Optional<Checkpoint> checkpoint, List<NoteKey> cosigners) {
        /** Validates and copies the fields. */
        public Result {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(checkpoint, "checkpoint");
            cosigners = List.copyOf(cosigners);
        }

        /** A result without cosigners. */
        public Result(Outcome outcome, String detail, Optional<Checkpoint> checkpoint) {
            this(outcome, detail, checkpoint, List.of());
        }
    }

    /** Validates and copies the fields. */
    public TlogProof {
        extra = extra.map(byte[]::clone);
        if (index < 0) {
            throw new IllegalArgumentException("negative index");
        }
        hashes = hashes.stream().map(h -> {
            if (h.length != Merkle.HASH_BYTES) {
                throw new IllegalArgumentException("a proof hash has 32 bytes");
            }
            return h.clone();
        }).toList();
        checkpoint = checkpoint.clone();
    }

    @Override
    public Optional<byte[]> extra() {
        return extra.map(byte[]::clone);
    }

    @Override
    public List<byte[]> hashes() {
        return hashes.stream().map(byte[]::clone).toList();
    }

    @Override
    public byte[] checkpoint() {
        return checkpoint.clone();
    }

    /** The proof's text, UTF-8. */
    public byte[] encoded() {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        extra.ifPresent(e -> b.append("extra ").append(Base64.getEncoder().encodeToString(e)).append('\n'));
        b.append("index ").append(index).append('\n');
        hashes.forEach(h -> b.append(Base64.getEncoder().encodeToString(h)).append('\n'));
        b.append('\n').append(new String(checkpoint, StandardCharsets.UTF_8));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a proof.
     *
     * @throws NoteFormatException if the bytes are not a {@code tlog-proof} (the checkpoint itself is read
     *     when the proof is checked)
     */
    public static TlogProof parse(byte[] data) throws NoteFormatException {
        if (data.length > MAX_BYTES) {
            throw new NoteFormatException("tlog proof larger than " + MAX_BYTES + " bytes");
        }
        String text = new String(data, StandardCharsets.UTF_8);
        int end = text.indexOf("\n\n");
        if (end < 0) {
            throw new NoteFormatException("tlog proof without a checkpoint");
        }
        String[] lines = text.substring(0, end).split("\n", -1);
        if (!lines[0].equals(HEADER)) {
            throw new NoteFormatException("not a tlog proof (first line " + HEADER + ")");
        }
        int at = 1;
        Optional<byte[]> extra = Optional.empty();
        try {
            if (at < lines.length && lines[at].startsWith("extra ")) {
                extra = Optional.of(Base64.getDecoder().decode(lines[at].substring("extra ".length())));
                at++;
            }
            if (at >= lines.length || !lines[at].startsWith("index ") || !DECIMAL.matcher(lines[at].substring("index ".length())).matches()) {
                throw new NoteFormatException("tlog proof without its index line");
            }
            long index = Long.parseLong(lines[at].substring("index ".length()));
            List<byte[]> hashes = new ArrayList<>();
            for (at++; at < lines.length; at++) {
                byte[] h = Base64.getDecoder().decode(lines[at]);
                if (h.length != Merkle.HASH_BYTES || hashes.size() == 64) {
                    throw new NoteFormatException("tlog proof hash " + hashes.size() + " is not one of at most 64 SHA-256 hashes");
                }
                hashes.add(h);
            }
            return new TlogProof(extra, index, hashes, text.substring(end + 2).getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new NoteFormatException("tlog proof: " + e.getMessage(), e);
        }
    }

    /**
     * Checks that the log includes the entry whose leaf hash is {@code leafHash}: its checkpoint must be
     * signed by a trusted log key whose name is the checkpoint's origin, and the proof must bind the leaf
     * to the checkpoint's root at this index.
     *
     * @param logKeys the log keys trusted, each named by its log's origin, and witnesses' cosignature keys
     *     trusted, whose valid cosignatures of the checkpoint the result names
     */
    public Result check(byte[] leafHash, Collection<NoteKey> logKeys) {
        Objects.requireNonNull(leafHash, "leafHash");
        SignedNote.Opened note;
        Checkpoint c;
        try {
            note = SignedNote.open(checkpoint, logKeys);
            c = Checkpoint.parse(note.text());
        } catch (NoteFormatException e) {
            return new Result(Outcome.INVALID, "the checkpoint is malformed: " + e.getMessage(), Optional.empty());
        }
        if (!note.invalid().isEmpty()) {
            return new Result(Outcome.INVALID, "the checkpoint's signature by " + note.invalid().get(0).name() + " does not verify",
                    Optional.empty());
        }
        if (note.verified().stream().noneMatch(k -> !k.cosigner() && k.name().equals(c.origin()))) {
            return new Result(Outcome.UNTRUSTED, "no trusted log key for " + c.origin() + " signed the checkpoint", Optional.empty());
        }
        if (index >= c.size()) {
            return new Result(Outcome.INVALID, "entry " + index + " is past the checkpoint's " + c.size() + " entries", Optional.of(c));
        }
        if (!Merkle.verifyInclusion(leafHash, index, c.size(), hashes, c.rootHash())) {
            return new Result(Outcome.INVALID, "the inclusion proof does not lead from this entry to the checkpoint's root", Optional.of(c));
        }
        String witnesses = note.cosigners().isEmpty() ? ""
                : ", cosigned by " + String.join(", ", note.cosigners().stream().map(NoteKey::name).toList());
        return new Result(Outcome.VALID, "entry " + index + " of " + c.size() + " in " + c.origin() + witnesses, Optional.of(c),
                note.cosigners());
    }
}
