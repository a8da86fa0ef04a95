// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofTimes;
import org.proofmode.tlog.LogEntry;

/**
 * Notarization texts (the app's "notarize only" share, see {@link org.proofmode.prove.Notarization})
 * received before the media. When a bundle with that media arrives later, it is matched: at intake (a
 * custody line) and on every lookup.
 */
public final class NotarizationStore {
    private static final Pattern SHA = Pattern.compile("(?i)sha256:([0-9a-f]{64})\\b");
    private static final Pattern KEY = Pattern.compile("(?i)key:([0-9a-f]{40})\\b");
    private static final Pattern AT = Pattern.compile("at:(\\S+)");

    private final Database db;

    /** Creates the store. */
    public NotarizationStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * A received notarization.
     *
     * @param id its number
     * @param text the text as received
     * @param mediaSha256 the media hash it commits to
     * @param fingerprint the signing key it names, if any
     * @param proofTime the proof time it names, if readable
     * @param receivedAt when the server received it
     */
    public record Notarization(long id, String text, String mediaSha256, Optional<String> fingerprint,
            Optional<String> proofTime, String receivedAt) {
        /** Validates the fields. */
        public Notarization {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(mediaSha256, "mediaSha256");
            Objects.requireNonNull(fingerprint, "fingerprint");
            Objects.requireNonNull(proofTime, "proofTime");
            Objects.requireNonNull(receivedAt, "receivedAt");
        }
    }

    /**
     * Stores a notarization text; the same text twice is stored once.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the text names no SHA-256
     */
    public Notarization add(String text, EvidenceStore.Actor actor) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty() || t.length() > 1_000) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "a notarization text is 1 to 1000 characters");
        }
        Matcher sha = SHA.matcher(t);
        if (!sha.find()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "the text names no sha256:<64 hex digits>");
        }
        Matcher key = KEY.matcher(t);
        Matcher at = AT.matcher(t);
        Optional<String> fp = key.find() ? Optional.of(key.group(1).toUpperCase(Locale.ROOT)) : Optional.empty();
        Optional<String> time = at.find() ? ProofTimes.parse(at.group(1)).map(DbTime::format) : Optional.empty();
        String media = sha.group(1).toLowerCase(Locale.ROOT);
        return db.inTransaction(c -> {
            String now = DbTime.now();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO notarizations (text, media_sha256, fingerprint, "
                    + "proof_time, received_at, token_id, remote) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (text) DO NOTHING")) {
                ps.setString(1, t);
                ps.setString(2, media);
                ps.setString(3, fp.orElse(null));
                ps.setString(4, time.orElse(null));
                ps.setString(5, now);
                ps.setString(6, actor.tokenId());
                ps.setString(7, actor.remote());
                if (ps.executeUpdate() == 1) {
                    LogStore.enqueue(c, new LogEntry("notarization", Optional.empty(),
                            Optional.of(Digests.sha256Hex(t.getBytes(StandardCharsets.UTF_8))), List.of(media),
                            fp.filter(f -> f.length() == 40).stream().toList(), Optional.empty(), now, Optional.empty()));
                }
            }
            return byMedia(c, media).stream().filter(n -> n.text().equals(t)).findFirst().orElseThrow();
        });
    }

    /**
     * The notarizations of a media hash, or of the hash that a notarization text names.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if neither a hash nor a text with one
     */
    public List<Notarization> lookup(String textOrHash) {
        return db.inTransaction(c -> byMedia(c, mediaHash(textOrHash)));
    }

    /** The media hash a lookup names: a bare SHA-256 or the one inside a notarization text. */
    public static String mediaHash(String textOrHash) {
        String s = textOrHash == null ? "" : textOrHash.strip();
        if (s.matches("(?i)[0-9a-f]{64}")) {
            return s.toLowerCase(Locale.ROOT);
        }
        Matcher m = SHA.matcher(s);
        if (s.length() <= 1_000 && m.find()) {
            return m.group(1).toLowerCase(Locale.ROOT);
        }
        throw new ProofModeException(Failure.BAD_ARGUMENT, "give a SHA-256 or a notarization text");
    }

    static List<Notarization> byMedia(Connection c, String mediaSha256) throws SQLException {
        List<Notarization> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, text, media_sha256, fingerprint, proof_time, "
                + "received_at FROM notarizations WHERE media_sha256 = ? ORDER BY id")) {
            ps.setString(1, mediaSha256);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Notarization(rs.getLong(1), rs.getString(2), rs.getString(3),
                            Optional.ofNullable(rs.getString(4)), Optional.ofNullable(rs.getString(5)), rs.getString(6)));
                }
            }
        }
        return out;
    }
}
