// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Finds stored proofs by signer, time, place or media hash. */
public final class EvidenceSearch {
    /** Most rows one search returns. */
    public static final int MAX_LIMIT = 500;

    /** The time a search orders by: capture time, else proof time, else none (last). */
    static final String TIME = "COALESCE(captured_at, proof_time, '')";

    /** The place as a PostgreSQL point (x longitude, y latitude), which its GiST index holds. */
    static final String PLACE = "point(longitude, latitude)";

    private static final String SELECT = "SELECT evidence_sha256, proof_id, media_sha256, signer, verdict, "
            + "captured_at, proof_time, latitude, longitude, " + TIME + " FROM evidence_proofs";

    private final Database db;

    /** Creates the search on a database. */
    public EvidenceSearch(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * A search; every given criterion must hold.
     *
     * @param signer a signer fingerprint (40 hex digits)
     * @param media a media SHA-256
     * @param from earliest capture (else proof) time, ISO-8601 UTC, inclusive
     * @param to latest capture (else proof) time, exclusive
     * @param box a place: south, west, north, east in degrees
     * @param limit most rows
     * @param after the position after which this page starts (the {@link Page#next} of the page before)
     */
    public record Query(Optional<String> signer, Optional<String> media, Optional<String> from, Optional<String> to,
            Optional<double[]> box, int limit, Optional<Cursor> after) {
        /** Validates the fields. */
        public Query {
            Objects.requireNonNull(signer, "signer");
            Objects.requireNonNull(media, "media");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(box, "box");
            box = box.map(b -> {
                if (b.length != 4) {
                    throw new IllegalArgumentException("a box is south,west,north,east");
                }
                return b.clone();
            });
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT);
            }
            Objects.requireNonNull(after, "after");
        }

        /** A first page. */
        public Query(Optional<String> signer, Optional<String> media, Optional<String> from, Optional<String> to,
                Optional<double[]> box, int limit) {
            this(signer, media, from, to, box, limit, Optional.empty());
        }
    }

    /**
     * A position in the search order: the last row of a page. Keyset pagination: the next page is read
     * from the index after it, however deep, never by skipping rows.
     *
     * @param time the row's {@link #TIME}
     * @param evidence its bundle's SHA-256
     * @param proof its proof id
     */
    public record Cursor(String time, String evidence, String proof) {
        /** Validates the fields. */
        public Cursor {
            Objects.requireNonNull(time, "time");
            Objects.requireNonNull(evidence, "evidence");
            Objects.requireNonNull(proof, "proof");
        }

        /** Its text form: opaque to clients, base64url. */
        public String encoded() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    String.join("\n", "v1", time, evidence, proof).getBytes(StandardCharsets.UTF_8));
        }

        /** Reads a cursor's text form; empty if it is not one. */
        public static Optional<Cursor> parse(String text) {
            try {
                String[] p = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("\n", -1);
                return p.length == 4 && p[0].equals("v1") ? Optional.of(new Cursor(p[1], p[2], p[3])) : Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * A page of results.
     *
     * @param rows the rows, in order
     * @param next where the next page starts, when this one is full
     */
    public record Page(List<ProofRow> rows, Optional<Cursor> next) {}

    /** Runs a search; newest first. */
    public List<ProofRow> find(Query q) {
        return page(q).rows();
    }

    /** A search as the SQL it runs and its parameters. */
    record Statement(String sql, List<Object> args) {}

    /** Runs a search; newest first, with where the next page starts. */
    public Page page(Query q) {
        Statement st = statement(q);
        return db.inTransaction(c -> {
            List<ProofRow> out = new ArrayList<>();
            Cursor last = null;
            try (PreparedStatement ps = c.prepareStatement(st.sql())) {
                for (int i = 0; i < st.args().size(); i++) {
                    ps.setObject(i + 1, st.args().get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ProofRow r = row(rs);
                        out.add(r);
                        last = new Cursor(rs.getString(10), r.evidenceSha256(), r.proofId());
                    }
                }
            }
            return new Page(out, out.size() == q.limit() ? Optional.ofNullable(last) : Optional.empty());
        });
    }

    /** The SQL of a search, for this database's engine. */
    Statement statement(Query q) {
        StringBuilder sql = new StringBuilder(SELECT + " WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        q.signer().ifPresent(s -> {
            sql.append(" AND signer = ?");
            args.add(s);
        });
        q.media().ifPresent(m -> {
            sql.append(" AND media_sha256 = ?");
            args.add(m);
        });
        q.from().ifPresent(f -> {
            sql.append(" AND " + TIME + " >= ?");
            args.add(f);
        });
        q.to().ifPresent(t -> {
            // An item without a time ('') is in no range.
            sql.append(" AND " + TIME + " < ? AND " + TIME + " > ''");
            args.add(t);
        });
        q.box().ifPresent(b -> {
            if (db.vendor() == Database.Vendor.POSTGRESQL) {
                // Read from the GiST index: the box as one or (across the antimeridian) two boxes.
                sql.append(" AND latitude IS NOT NULL AND longitude IS NOT NULL AND (" + PLACE + " <@ box(point(?, ?), point(?, ?))");
                boolean crosses = b[1] > b[3];
                args.addAll(List.of(b[1], b[0], crosses ? 180.0 : b[3], b[2]));
                if (crosses) {
                    sql.append(" OR " + PLACE + " <@ box(point(?, ?), point(?, ?))");
                    args.addAll(List.of(-180.0, b[0], b[3], b[2]));
                }
                sql.append(')');
                return;
            }
            sql.append(" AND latitude >= ? AND latitude <= ?");
            args.add(b[0]);
            args.add(b[2]);
            if (b[1] <= b[3]) {
                sql.append(" AND longitude >= ? AND longitude <= ?");
            } else { // the box crosses the antimeridian
                sql.append(" AND (longitude >= ? OR longitude <= ?)");
            }
            args.add(b[1]);
            args.add(b[3]);
        });
        q.after().ifPresent(a -> {
            sql.append(" AND (" + TIME + " < ? OR (" + TIME + " = ? AND (evidence_sha256 > ? OR (evidence_sha256 = ? AND proof_id > ?))))");
            args.addAll(List.of(a.time(), a.time(), a.evidence(), a.evidence(), a.proof()));
        });
        sql.append(" ORDER BY " + TIME + " DESC, evidence_sha256, proof_id LIMIT ").append(q.limit());
        return new Statement(sql.toString(), args);
    }

    /** The proofs of one stored bundle. */
    public List<ProofRow> ofEvidence(String sha256) {
        return db.inTransaction(c -> {
            List<ProofRow> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(SELECT + " WHERE evidence_sha256 = ? ORDER BY proof_id")) {
                ps.setString(1, sha256);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(row(rs));
                    }
                }
            }
            return out;
        });
    }

    private static ProofRow row(ResultSet rs) throws SQLException {
        double lat = rs.getDouble(8);
        boolean noLat = rs.wasNull();
        double lon = rs.getDouble(9);
        boolean noLon = rs.wasNull();
        return new ProofRow(rs.getString(1), rs.getString(2), Optional.ofNullable(rs.getString(3)),
                Optional.ofNullable(rs.getString(4)), rs.getString(5), Optional.ofNullable(rs.getString(6)),
                Optional.ofNullable(rs.getString(7)), noLat ? Optional.empty() : Optional.of(lat),
                noLon ? Optional.empty() : Optional.of(lon));
    }
}
