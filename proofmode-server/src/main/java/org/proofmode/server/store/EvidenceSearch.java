// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Finds stored proofs by signer, time, place or media hash. */
public final class EvidenceSearch {
    /** Most rows one search returns. */
    public static final int MAX_LIMIT = 500;

    private static final String SELECT = "SELECT evidence_sha256, proof_id, media_sha256, signer, verdict, "
            + "captured_at, proof_time, latitude, longitude FROM evidence_proofs";

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
     */
    public record Query(Optional<String> signer, Optional<String> media, Optional<String> from, Optional<String> to,
            Optional<double[]> box, int limit) {
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
        }
    }

    /** Runs a search; newest first. */
    public List<ProofRow> find(Query q) {
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
            sql.append(" AND COALESCE(captured_at, proof_time) >= ?");
            args.add(f);
        });
        q.to().ifPresent(t -> {
            sql.append(" AND COALESCE(captured_at, proof_time) < ?");
            args.add(t);
        });
        q.box().ifPresent(b -> {
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
        sql.append(" ORDER BY COALESCE(captured_at, proof_time) DESC, evidence_sha256, proof_id LIMIT ").append(q.limit());
        return query(sql.toString(), args);
    }

    /** The proofs of one stored bundle. */
    public List<ProofRow> ofEvidence(String sha256) {
        return query(SELECT + " WHERE evidence_sha256 = ? ORDER BY proof_id", List.of(sha256));
    }

    private List<ProofRow> query(String sql, List<Object> args) {
        return db.inTransaction(c -> {
            List<ProofRow> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.size(); i++) {
                    ps.setObject(i + 1, args.get(i));
                }
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
