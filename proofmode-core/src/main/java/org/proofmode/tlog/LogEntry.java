// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a ProofMode evidence server's transparency log: a small canonical record of an event, with
 * nothing personal in it (no file names, no places, no people; the signer is a key fingerprint). Its bytes
 * are UTF-8 lines, each ending in a newline, in this order:
 *
 * <pre>
 * proofmode.org/log-entry/v1
 * kind &lt;event&gt;                 intake, resubmit, reverify, download, notarization-match, notarization
 * bundle &lt;sha256&gt;              the bundle's SHA-256, for events of a stored bundle
 * notarization &lt;sha256&gt;        the SHA-256 of a notarization text, for a notarization
 * media &lt;sha256&gt;               zero or more, ascending: the media the proofs are of
 * signer &lt;fingerprint&gt;         zero or more, ascending: the OpenPGP keys that signed them
 * verdict &lt;VERDICT&gt;            the verification verdict at the event, when there was one
 * time &lt;yyyy-MM-ddTHH:mm:ss.SSSZ&gt; when the server received or did it (UTC)
 * custody &lt;sha256&gt;             the bundle's custody chain head after the event
 * </pre>
 *
 * Hashes are lower-case hex, fingerprints upper-case hex. An entry is read back only in exactly this form,
 * so one record has one encoding and one leaf hash. At most {@link #MAX_MEDIA} media lines: a bundle
 * with more proofs names the first ones in ascending order.
 *
 * @param kind the event
 * @param bundle the bundle's SHA-256
 * @param notarization the notarization text's SHA-256
 * @param media the media SHA-256s, ascending, no repeats
 * @param signers the signers' fingerprints, ascending, no repeats
 * @param verdict the verdict
 * @param time when, as {@code yyyy-MM-ddTHH:mm:ss.SSSZ}
 * @param custody the custody chain head
 */
public record LogEntry(String kind, Optional<String> bundle, Optional<String> notarization, List<String> media,
        List<String> signers, Optional<String> verdict, String time, Optional<String> custody) {
    /** The first line of every entry. */
    public static final String HEADER = "proofmode.org/log-entry/v1";

    /** Most media lines in one entry, so that every entry fits an entry bundle's 16-bit length. */
    public static final int MAX_MEDIA = 256;

    private static final Pattern KIND = Pattern.compile("[a-z]+(-[a-z]+)*");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9A-F]{40}|[0-9A-F]{64}");
    private static final Pattern VERDICT = Pattern.compile("[A-Z]+");
    private static final Pattern TIME = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z");

    /** Validates the fields. */
    public LogEntry {
        check(KIND, kind, "kind");
        bundle.ifPresent(b -> check(SHA256, b, "bundle"));
        notarization.ifPresent(n -> check(SHA256, n, "notarization"));
        media = List.copyOf(media);
        signers = List.copyOf(signers);
        ascending(media, SHA256, "media");
        ascending(signers, FINGERPRINT, "signer");
        if (media.size() > MAX_MEDIA || signers.size() > MAX_MEDIA) {
            throw new IllegalArgumentException("an entry names at most " + MAX_MEDIA + " media and signers");
        }
        verdict.ifPresent(v -> check(VERDICT, v, "verdict"));
        check(TIME, time, "time");
        custody.ifPresent(c -> check(SHA256, c, "custody"));
    }

    /** Its canonical bytes: what the log's leaf hash is over. */
    public byte[] encoded() {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        b.append("kind ").append(kind).append('\n');
        bundle.ifPresent(v -> b.append("bundle ").append(v).append('\n'));
        notarization.ifPresent(v -> b.append("notarization ").append(v).append('\n'));
        media.forEach(v -> b.append("media ").append(v).append('\n'));
        signers.forEach(v -> b.append("signer ").append(v).append('\n'));
        verdict.ifPresent(v -> b.append("verdict ").append(v).append('\n'));
        b.append("time ").append(time).append('\n');
        custody.ifPresent(v -> b.append("custody ").append(v).append('\n'));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Its leaf hash in the log's Merkle tree. */
    public byte[] leafHash() {
        return Merkle.leafHash(encoded());
    }

    /**
     * Reads an entry.
     *
     * @throws NoteFormatException unless the bytes are an entry in its one canonical form
     */
    public static LogEntry parse(byte[] data) throws NoteFormatException {
        if (data.length > Tiles.MAX_ENTRY_BYTES) {
            throw new NoteFormatException("log entry larger than " + Tiles.MAX_ENTRY_BYTES + " bytes");
        }
        String text = new String(data, StandardCharsets.UTF_8);
        if (!text.endsWith("\n")) {
            throw new NoteFormatException("log entry does not end in a newline");
        }
        Lines in = new Lines(text.substring(0, text.length() - 1).split("\n", -1));
        if (!in.next().equals(HEADER)) {
            throw new NoteFormatException("not a log entry (first line " + HEADER + ")");
        }
        try {
            String kind = in.required("kind");
            Optional<String> bundle = in.optional("bundle");
            Optional<String> notarization = in.optional("notarization");
            List<String> media = in.repeated("media");
            List<String> signers = in.repeated("signer");
            Optional<String> verdict = in.optional("verdict");
            String time = in.required("time");
            Optional<String> custody = in.optional("custody");
            if (in.hasNext()) {
                throw new NoteFormatException("log entry line " + (in.at + 1) + " is unexpected");
            }
            LogEntry e = new LogEntry(kind, bundle, notarization, media, signers, verdict, time, custody);
            if (!Arrays.equals(e.encoded(), data)) {
                throw new NoteFormatException("log entry not in its canonical form");
            }
            return e;
        } catch (IllegalArgumentException e) {
            throw new NoteFormatException("log entry: " + e.getMessage(), e);
        }
    }

    private static void check(Pattern p, String value, String what) {
        Objects.requireNonNull(value, what);
        if (!p.matcher(value).matches()) {
            throw new IllegalArgumentException("not a valid " + what + ": " + value);
        }
    }

    private static void ascending(List<String> values, Pattern p, String what) {
        for (int i = 0; i < values.size(); i++) {
            check(p, values.get(i), what);
            if (i > 0 && values.get(i - 1).compareTo(values.get(i)) >= 0) {
                throw new IllegalArgumentException(what + " lines must be ascending without repeats");
            }
        }
    }

    /** The lines of an entry, read front to back. */
    private static final class Lines {
        private final String[] lines;
        private int at;

        Lines(String[] lines) {
            this.lines = lines;
        }

        boolean hasNext() {
            return at < lines.length;
        }

        String next() {
            return lines[at++];
        }

        Optional<String> optional(String key) {
            if (hasNext() && lines[at].startsWith(key + " ")) {
                return Optional.of(next().substring(key.length() + 1));
            }
            return Optional.empty();
        }

        String required(String key) throws NoteFormatException {
            return optional(key).orElseThrow(() -> new NoteFormatException("log entry without its " + key + " line"));
        }

        List<String> repeated(String key) {
            List<String> out = new ArrayList<>();
            for (Optional<String> v = optional(key); v.isPresent(); v = optional(key)) {
                out.add(v.get());
            }
            return out;
        }
    }
}
