// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;

/**
 * The hash chain over an item's custody lines. Each line stores {@code prev}, the hash of the item's
 * line before it ({@link #GENESIS} for the first), and {@code hash}, the SHA-256 of its canonical encoding:
 * the UTF-8 text {@code proofmode-custody-v1\n} followed, for each of evidence SHA-256, at, action, actor,
 * remote, verdict (empty when none), detail and prev, by the field's length in UTF-8 bytes in decimal, a
 * colon, the field and a newline. Length prefixes make the encoding unambiguous whatever a field holds.
 * The item row keeps the head (the last line's hash), so lines removed from the end are noticed too.
 */
public final class CustodyChain {
    /** The {@code prev} of an item's first line. */
    public static final String GENESIS = "0".repeat(64);
    private static final String VERSION = "proofmode-custody-v1\n";

    private CustodyChain() {}

    /**
     * The state of a chain as checked on reading.
     *
     * @param intact every line links to the one before and matches its hash, and the last is the head
     * @param head the head the item row records ({@link #GENESIS} before its first line)
     * @param length how many lines there are
     * @param brokenAt the index (0-based) of the first line that does not hold; the length when lines are
     *     missing at the end
     * @param problem what is wrong there, in words
     */
    public record State(boolean intact, String head, int length, Optional<Integer> brokenAt, Optional<String> problem) {
        /** Validates the fields. */
        public State {
            Objects.requireNonNull(head, "head");
            Objects.requireNonNull(brokenAt, "brokenAt");
            Objects.requireNonNull(problem, "problem");
            if (intact == brokenAt.isPresent() || brokenAt.isPresent() != problem.isPresent()) {
                throw new IllegalArgumentException("a broken chain names where and why, an intact one does not");
            }
        }
    }

    /** The hash of a line of an item, over its canonical encoding (lower-case hex). */
    public static String hash(String evidenceSha256, String at, CustodyAction action, String actor, String remote,
            Optional<String> verdict, String detail, String prev) {
        MessageDigest sha = Digests.newSha256();
        sha.update(VERSION.getBytes(StandardCharsets.UTF_8));
        for (String field : List.of(evidenceSha256, at, action.name(), actor, remote, verdict.orElse(""), detail, prev)) {
            byte[] b = field.getBytes(StandardCharsets.UTF_8);
            sha.update((b.length + ":").getBytes(StandardCharsets.UTF_8));
            sha.update(b);
            sha.update((byte) '\n');
        }
        return Hex.encode(sha.digest());
    }

    /** The hash a stored line should have. */
    public static String hash(String evidenceSha256, CustodyEntry e) {
        return hash(evidenceSha256, e.at(), e.action(), e.actor(), e.remote(), e.verdict(), e.detail(), e.prev());
    }

    /**
     * Checks an item's lines, oldest first, against each other and against the head its row records.
     *
     * @param head the head from the item row; empty if it has none
     */
    public static State check(String evidenceSha256, List<CustodyEntry> lines, Optional<String> head) {
        String expected = GENESIS;
        for (int i = 0; i < lines.size(); i++) {
            CustodyEntry e = lines.get(i);
            if (!e.prev().equals(expected)) {
                return broken(head, lines.size(), i, "line " + (i + 1) + " does not follow the line before it: "
                        + "a line was removed, inserted or reordered");
            }
            if (!hash(evidenceSha256, e).equals(e.hash())) {
                return broken(head, lines.size(), i, "line " + (i + 1) + " does not match its hash: it was changed");
            }
            expected = e.hash();
        }
        if (!head.orElse(GENESIS).equals(expected)) {
            return broken(head, lines.size(), lines.size(), "the last line is not the recorded head: "
                    + "lines were removed from the end");
        }
        return new State(true, expected, lines.size(), Optional.empty(), Optional.empty());
    }

    private static State broken(Optional<String> head, int length, int at, String why) {
        return new State(false, head.orElse(""), length, Optional.of(at), Optional.of(why));
    }
}
