// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.net.URI;
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
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;

/**
 * The stored collections ({@code proofmode collect}) by the page's address: written with the item at
 * intake, searched by the exact address (as asked for or after redirects), by its beginning, or by host.
 */
public final class CollectionIndex {
    /** Most rows one search returns. */
    public static final int MAX_LIMIT = 500;

    private static final String SELECT = "SELECT c.evidence_sha256, c.url, c.final_url, c.title, c.collected_at, c.tls_subject, "
            + "e.verdict, e.received_at FROM evidence_collections c JOIN evidence e ON e.sha256 = c.evidence_sha256 ";

    private final Database db;

    /** The index of a database. */
    public CollectionIndex(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * What is kept of a collection's capture (the collector's and the page's words: untrusted).
     *
     * @param url the address asked for
     * @param finalUrl the address the page came from, after redirects
     * @param title the page's title
     * @param collectedAt when it was collected (ISO 8601)
     * @param tlsSubject the server certificate's subject
     */
    public record Capture(String url, String finalUrl, Optional<String> title, String collectedAt, Optional<String> tlsSubject) {
        /** Validates the fields. */
        public Capture {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(finalUrl, "finalUrl");
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(collectedAt, "collectedAt");
            Objects.requireNonNull(tlsSubject, "tlsSubject");
        }
    }

    /** A stored collection found, with its item's verdict and time of receipt. */
    public record Found(String evidenceSha256, Capture capture, String verdict, String receivedAt) {}

    /** How to search: the exact address, its beginning, or the host (exactly one is given). */
    public enum By {
        /** The address asked for or the one after redirects, exactly. */
        URL,
        /** Either address, starting with the text. */
        PREFIX,
        /** Either address's host, without case. */
        HOST
    }

    /** Keeps a collection's capture with its newly stored item (in the item's transaction). */
    static void insert(Connection c, String sha256, Capture capture) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO evidence_collections (evidence_sha256, url, url_sha256, "
                + "final_url, final_url_sha256, host, final_host, title, collected_at, tls_subject) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, sha256);
            ps.setString(2, capture.url());
            ps.setString(3, sha(capture.url()));
            ps.setString(4, capture.finalUrl());
            ps.setString(5, sha(capture.finalUrl()));
            ps.setString(6, host(capture.url()));
            ps.setString(7, host(capture.finalUrl()));
            ps.setString(8, capture.title().orElse(null));
            ps.setString(9, capture.collectedAt());
            ps.setString(10, capture.tlsSubject().orElse(null));
            ps.executeUpdate();
        }
    }

    /** The collection of a stored item, if it is one. */
    public Optional<Found> of(String sha256) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(SELECT + "WHERE c.evidence_sha256 = ?")) {
                ps.setString(1, sha256);
                List<Found> rows = rows(ps);
                return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
            }
        });
    }

    /** Stored collections whose address matches, the most recently collected first. */
    public List<Found> find(By by, String text, int limit) {
        String where = switch (by) {
            case URL -> "WHERE c.url_sha256 = ? OR c.final_url_sha256 = ? ";
            case PREFIX -> "WHERE substr(c.url, 1, ?) = ? OR substr(c.final_url, 1, ?) = ? ";
            case HOST -> "WHERE c.host = ? OR c.final_host = ? ";
        };
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(SELECT + where + "ORDER BY c.collected_at DESC, c.evidence_sha256 LIMIT ?")) {
                int i = 1;
                switch (by) {
                    case URL -> {
                        ps.setString(i++, sha(text));
                        ps.setString(i++, sha(text));
                    }
                    case PREFIX -> {
                        for (int k = 0; k < 2; k++) {
                            ps.setInt(i++, text.length());
                            ps.setString(i++, text);
                        }
                    }
                    case HOST -> {
                        ps.setString(i++, text.toLowerCase(Locale.ROOT));
                        ps.setString(i++, text.toLowerCase(Locale.ROOT));
                    }
                }
                ps.setInt(i, Math.min(Math.max(limit, 1), MAX_LIMIT));
                return rows(ps);
            }
        });
    }

    private static List<Found> rows(PreparedStatement ps) throws SQLException {
        List<Found> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Found(rs.getString(1), new Capture(rs.getString(2), rs.getString(3), Optional.ofNullable(rs.getString(4)),
                        rs.getString(5), Optional.ofNullable(rs.getString(6))), rs.getString(7), rs.getString(8)));
            }
        }
        return out;
    }

    private static String sha(String text) {
        return Hex.encode(Digests.newSha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** An address's host in lower case, or "" for none. */
    static String host(String url) {
        try {
            String h = URI.create(url).getHost();
            return h == null ? "" : h.toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
