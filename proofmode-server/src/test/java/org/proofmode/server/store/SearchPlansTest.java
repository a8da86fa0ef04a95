// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.proofmode.server.PostgresFixture;

/**
 * Evidence search on an archive of 100,000 items in PostgreSQL (made straight in the database): every
 * kind of search is planned on an index, never a scan of all proofs, and keyset pages walk a result
 * whole, in order, without a repeat. Times are measured by {@code bench/search-scale.sh}, not here.
 */
class SearchPlansTest {
    private static final int ITEMS = 100_000;
    private static Database db;
    private static EvidenceSearch search;

    @BeforeAll
    static void fill() throws Exception {
        db = Database.open(PostgresFixture.freshSchemaUrl());
        search = new EvidenceSearch(db);
        try (Connection c = db.connection(); Statement st = c.createStatement()) {
            fill(st, ITEMS);
        }
    }

    /** Fills the tables with synthetic items: {@code search-fill.sql}, which bench/search-scale.sh runs too. */
    static void fill(Statement st, int items) throws Exception {
        String sql;
        try (var in = SearchPlansTest.class.getResourceAsStream("search-fill.sql")) {
            sql = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        for (String statement : sql.replaceAll("(?m)^--.*$", "").replace("ITEMS", String.valueOf(items)).split(";")) {
            if (!statement.isBlank()) {
                st.execute(statement);
            }
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static String signer() throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT signer FROM evidence_proofs LIMIT 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String plan(EvidenceSearch.Query q) throws Exception {
        EvidenceSearch.Statement s = search.statement(q);
        StringBuilder out = new StringBuilder();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement("EXPLAIN " + s.sql())) {
            for (int i = 0; i < s.args().size(); i++) {
                ps.setObject(i + 1, s.args().get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.append(rs.getString(1)).append('\n');
                }
            }
        }
        return out.toString();
    }

    private static EvidenceSearch.Query query(Optional<String> signer, Optional<String> media, Optional<String> from,
            Optional<String> to, Optional<double[]> box, int limit, Optional<EvidenceSearch.Cursor> after) {
        return new EvidenceSearch.Query(signer, media, from, to, box, limit, after);
    }

    @Test
    void everyKindOfSearch_isPlannedOnAnIndex() throws Exception {
        String media = search.find(query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1,
                Optional.empty())).get(0).mediaSha256().orElseThrow();
        List<EvidenceSearch.Query> kinds = List.of(
                query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 100, Optional.empty()),
                query(Optional.of(signer()), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 100, Optional.empty()),
                query(Optional.empty(), Optional.of(media), Optional.empty(), Optional.empty(), Optional.empty(), 100, Optional.empty()),
                query(Optional.empty(), Optional.empty(), Optional.of("2021-03-01T00:00:00.000Z"), Optional.of("2021-03-02T00:00:00.000Z"),
                        Optional.empty(), 100, Optional.empty()),
                query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(new double[] {52, 13, 53, 14}),
                        100, Optional.empty()),
                query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(new double[] {-10, 179, 10, -179}),
                        100, Optional.empty()),
                query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 100,
                        Optional.of(new EvidenceSearch.Cursor("2021-01-01T00:00:00.000Z", "0".repeat(64), "p"))));
        for (EvidenceSearch.Query q : kinds) {
            String plan = plan(q);
            assertThat(plan).as(plan).doesNotContain("Seq Scan on evidence_proofs").containsPattern("Index (Only )?Scan|Bitmap Index Scan");
        }
        assertThat(plan(kinds.get(4))).contains("evidence_proofs_place");
    }

    @Test
    void keysetPages_walkTheWholeResult_inOrder_withoutRepeats() throws Exception {
        Optional<double[]> box = Optional.of(new double[] {0, -180, 10, 180});
        int expected;
        try (Connection c = db.connection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM evidence_proofs WHERE latitude >= 0 AND latitude <= 10")) {
            rs.next();
            expected = rs.getInt(1);
        }
        assertThat(expected).isBetween(1_000, 20_000);
        List<String> seen = new ArrayList<>();
        Set<String> unique = new HashSet<>();
        Optional<EvidenceSearch.Cursor> after = Optional.empty();
        String previousTime = null;
        for (int pages = 0; pages < 100; pages++) {
            EvidenceSearch.Page page = search.page(query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), box,
                    EvidenceSearch.MAX_LIMIT, after));
            for (ProofRow r : page.rows()) {
                String time = r.capturedAt().or(r::proofTime).orElse("");
                if (previousTime != null) {
                    assertThat(time.compareTo(previousTime)).isLessThanOrEqualTo(0);
                }
                previousTime = time;
                seen.add(r.evidenceSha256() + "/" + r.proofId());
                unique.add(r.evidenceSha256() + "/" + r.proofId());
            }
            after = page.next();
            if (after.isEmpty()) {
                break;
            }
        }
        assertThat(seen).hasSize(expected);
        assertThat(unique).hasSize(expected);
    }
}
