// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Signed notes in the C2SP {@code signed-note} format, which transparency-log checkpoints use: the text
 * (UTF-8, ending with a newline), a blank line, then one line per signature, {@code "— " name " "
 * base64(key hash ‖ Ed25519 signature of the text)}. The text is what is signed, newline included.
 * Witnesses' cosignatures (C2SP {@code tlog-cosignature}, keys of type {@link NoteKey#COSIGNATURE_V1})
 * are lines of the same form, {@code base64(key hash ‖ timestamp ‖ Ed25519 signature)}, over
 * {@code "cosignature/v1\ntime <timestamp>\n"} followed by the text.
 */
public final class SignedNote {
    /** Notes larger than this are refused unread. */
    public static final int MAX_BYTES = 1 << 20;

    /** Signatures beyond this many make a note malformed (a bound on the work a stranger can ask for). */
    public static final int MAX_SIGNATURES = 100;

    private static final String SIG_PREFIX = "\u2014 ";

    /** A key that signs notes: its public half, as verifiers know it, and its private half. */
    public record Signer(NoteKey key, PrivateKey privateKey) {
        /** Validates the fields. */
        public Signer {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(privateKey, "privateKey");
        }
    }

    /**
     * A note opened against the keys a reader trusts.
     *
     * @param text the signed text, its final newline included
     * @param verified the trusted keys whose signature of the text is valid
     * @param invalid the trusted keys named by a signature that does not verify: the note was changed, or
     *     the signature forged
     * @param unknown signature lines by keys the reader does not know (not checked)
     */
    public record Opened(String text, List<NoteKey> verified, List<NoteKey> invalid, List<String> unknown) {
        /** Copies the lists. */
        public Opened {
            verified = List.copyOf(verified);
            invalid = List.copyOf(invalid);
            unknown = List.copyOf(unknown);
        }

        /** The trusted witnesses (cosignature keys) whose cosignature is valid. */
        public List<NoteKey> cosigners() {
            return verified.stream().filter(NoteKey::cosigner).toList();
        }

        /** Whether at least one trusted key signed the text and no trusted key's signature failed. */
        public boolean trusted() {
            return !verified.isEmpty() && invalid.isEmpty();
        }
    }

    private SignedNote() {}

    /**
     * Signs a text.
     *
     * @param text the text, ending with a newline, without control characters but newlines
     * @return the signed note
     * @throws IllegalArgumentException if the text is not a note's text
     * @throws IllegalStateException if the platform cannot make Ed25519 signatures
     */
    public static String sign(String text, List<Signer> signers) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        if (text.isEmpty() || !text.endsWith("\n") || hasControl(text)) {
            throw new IllegalArgumentException("a note's text ends with a newline and has no other control characters");
        }
        if (signers.isEmpty()) {
            throw new IllegalArgumentException("a note needs a signature");
        }
        StringBuilder out = new StringBuilder(text).append('\n');
        for (Signer s : signers) {
            if (s.key().cosigner()) {
                throw new IllegalArgumentException("a witness cosigns a signed note: cosign()");
            }
            byte[] sig = ed25519(s.privateKey(), body);
            out.append(line(s.key(), ByteBuffer.allocate(4 + sig.length).putInt(s.key().keyHash()).put(sig).array()));
        }
        return out.toString();
    }

    /**
     * A witness's cosignature of a note's text (C2SP {@code tlog-cosignature}, Ed25519, v1): one signature
     * line, to append to the note's signatures.
     *
     * @param text the note's text, final newline included, without signatures
     * @param witness a key of type {@link NoteKey#COSIGNATURE_V1}
     * @param timestamp when, in seconds since the epoch (positive)
     */
    public static String cosign(String text, Signer witness, long timestamp) {
        if (!witness.key().cosigner() || timestamp <= 0) {
            throw new IllegalArgumentException("a cosignature is made by a cosignature key, at a positive time");
        }
        byte[] sig = ed25519(witness.privateKey(), cosigned(text.getBytes(StandardCharsets.UTF_8), timestamp));
        return line(witness.key(), ByteBuffer.allocate(4 + 8 + sig.length).putInt(witness.key().keyHash()).putLong(timestamp)
                .put(sig).array());
    }

    /**
     * The text a note signs: everything before its signature block, final newline included (what
     * {@link #open} checks signatures against, without checking them).
     *
     * @throws IllegalArgumentException if it has no signature block
     */
    public static String text(String note) {
        int split = note.lastIndexOf("\n\n");
        if (split < 0) {
            throw new IllegalArgumentException("not a signed note: no signature block");
        }
        return note.substring(0, split + 1);
    }

    /**
     * The witnesses among {@code witnesses} whose cosignature of a note is valid; none when the note is
     * malformed or one of their signatures fails.
     */
    public static List<NoteKey> cosigners(String note, Collection<NoteKey> witnesses) {
        try {
            Opened o = open(note.getBytes(StandardCharsets.UTF_8), witnesses);
            return o.invalid().isEmpty() ? o.cosigners() : List.of();
        } catch (NoteFormatException e) {
            return List.of();
        }
    }

    /** The message a cosignature signs. */
    static byte[] cosigned(byte[] body, long timestamp) {
        byte[] head = ("cosignature/v1\ntime " + timestamp + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }

    private static byte[] ed25519(PrivateKey key, byte[] message) {
        try {
            Signature ed = Signature.getInstance("Ed25519");
            ed.initSign(key);
            ed.update(message);
            return ed.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make an Ed25519 signature: " + e.getMessage(), e);
        }
    }

    private static String line(NoteKey key, byte[] value) {
        return SIG_PREFIX + key.name() + ' ' + Base64.getEncoder().encodeToString(value) + '\n';
    }

    /**
     * Opens a signed note: splits text and signatures and checks each signature by a key in {@code known}.
     *
     * @throws NoteFormatException if the bytes are not a signed note (too large, not UTF-8, control
     *     characters, no signature block, a malformed signature line, too many signatures)
     */
    public static Opened open(byte[] note, Collection<NoteKey> known) throws NoteFormatException {
        if (note.length > MAX_BYTES) {
            throw new NoteFormatException("note larger than " + MAX_BYTES + " bytes");
        }
        String msg;
        try {
            msg = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(note)).toString();
        } catch (CharacterCodingException e) {
            throw new NoteFormatException("note is not UTF-8", e);
        }
        if (hasControl(msg)) {
            throw new NoteFormatException("note has control characters");
        }
        int split = msg.lastIndexOf("\n\n");
        if (split < 0) {
            throw new NoteFormatException("note has no signature block");
        }
        String text = msg.substring(0, split + 1);
        String sigs = msg.substring(split + 2);
        if (sigs.isEmpty() || !sigs.endsWith("\n")) {
            throw new NoteFormatException("note's signature block does not end with a newline");
        }
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        List<NoteKey> verified = new ArrayList<>();
        List<NoteKey> invalid = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String[] lines = sigs.substring(0, sigs.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            throw new NoteFormatException("note has more than " + MAX_SIGNATURES + " signatures");
        }
        for (String line : lines) {
            if (!line.startsWith(SIG_PREFIX)) {
                throw new NoteFormatException("not a signature line");
            }
            String rest = line.substring(SIG_PREFIX.length());
            int space = rest.indexOf(' ');
            String name = space < 0 ? rest : rest.substring(0, space);
            String b64 = space < 0 ? "" : rest.substring(space + 1);
            byte[] sig;
            try {
                sig = Base64.getDecoder().decode(b64);
            } catch (IllegalArgumentException e) {
                throw new NoteFormatException("signature is not base64", e);
            }
            if (!NoteKey.validName(name) || b64.isEmpty() || sig.length < 5) {
                throw new NoteFormatException("malformed signature line");
            }
            int hash = ByteBuffer.wrap(sig, 0, 4).getInt();
            NoteKey key = known.stream().filter(k -> k.name().equals(name) && k.keyHash() == hash).findFirst().orElse(null);
            if (key == null) {
                if (seen.add(line)) {
                    unknown.add(name);
                }
                continue;
            }
            if (!seen.add(key.verifierKey())) {
                continue;
            }
            byte[] value = Arrays.copyOfRange(sig, 4, sig.length);
            boolean good;
            if (key.cosigner()) {
                long t = value.length == 8 + 64 ? ByteBuffer.wrap(value, 0, 8).getLong() : -1;
                good = t > 0 && key.verifies(cosigned(body, t), Arrays.copyOfRange(value, 8, value.length));
            } else {
                good = key.verifies(body, value);
            }
            (good ? verified : invalid).add(key);
        }
        return new Opened(text, verified, invalid, unknown);
    }

    private static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 && c != '\n');
    }
}
