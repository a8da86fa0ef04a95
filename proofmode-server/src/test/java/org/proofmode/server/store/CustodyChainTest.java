// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The canonical encoding as docs/http-api.md prints it, and the checks on a chain. */
class CustodyChainTest {
    private static final String ITEM = "2ea877afdf438ba8c63bee1d8f90aed54a1f9a2e9b5d8b5f2f384eae9fc14d2d";

    @Test
    void hash_matchesDocumentedWorkedExample() {
        assertThat(CustodyChain.hash(ITEM, "2026-12-03T13:54:21.909Z", CustodyAction.DOWNLOAD, "desk-trial (token 70f30399)",
                "127.0.0.1", Optional.empty(), "bundle downloaded",
                "0da57dfc3bfa601fd42114302a81ad8f28273856d6fb59da9452bbd176853139"))
                .isEqualTo("09d46062edf91401f7bf456a24dd6019790ce07ebdf18f79c4203fa326811e4f");
    }

    @Test
    void hash_differs_fieldBoundaryMoved() {
        String a = CustodyChain.hash(ITEM, "t", CustodyAction.INTAKE, "ab", "c", Optional.empty(), "d", CustodyChain.GENESIS);
        String b = CustodyChain.hash(ITEM, "t", CustodyAction.INTAKE, "a", "bc", Optional.empty(), "d", CustodyChain.GENESIS);
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void check_isIntact_wellLinkedLines() {
        List<CustodyEntry> lines = chain(3);
        CustodyChain.State s = CustodyChain.check(ITEM, lines, Optional.of(lines.get(2).hash()));
        assertThat(s.intact()).isTrue();
        assertThat(s.length()).isEqualTo(3);
        assertThat(s.head()).isEqualTo(lines.get(2).hash());
    }

    @Test
    void check_isIntact_noLinesYet() {
        assertThat(CustodyChain.check(ITEM, List.of(), Optional.empty()).intact()).isTrue();
    }

    @Test
    void check_namesFirstBadLine_linesSwapped() {
        List<CustodyEntry> lines = chain(4);
        List<CustodyEntry> swapped = new ArrayList<>(lines);
        swapped.set(1, lines.get(2));
        swapped.set(2, lines.get(1));
        CustodyChain.State s = CustodyChain.check(ITEM, swapped, Optional.of(lines.get(3).hash()));
        assertThat(s.intact()).isFalse();
        assertThat(s.brokenAt()).hasValue(1);
    }

    @Test
    void check_namesLine_hashRecomputedAfterEdit() {
        List<CustodyEntry> lines = new ArrayList<>(chain(3));
        CustodyEntry e = lines.get(1);
        CustodyEntry forged = new CustodyEntry(e.at(), e.action(), e.actor(), "203.0.113.9", e.verdict(), e.detail(), e.prev(), "");
        lines.set(1, new CustodyEntry(forged.at(), forged.action(), forged.actor(), forged.remote(), forged.verdict(),
                forged.detail(), forged.prev(), CustodyChain.hash(ITEM, forged)));
        // The edited line now matches its own hash, but the next line still names the old one.
        CustodyChain.State s = CustodyChain.check(ITEM, lines, Optional.of(lines.get(2).hash()));
        assertThat(s.brokenAt()).hasValue(2);
    }

    private static List<CustodyEntry> chain(int n) {
        List<CustodyEntry> out = new ArrayList<>();
        String prev = CustodyChain.GENESIS;
        for (int i = 0; i < n; i++) {
            String at = "2026-01-01T00:00:0" + i + ".000Z";
            String hash = CustodyChain.hash(ITEM, at, CustodyAction.DOWNLOAD, "desk", "127.0.0.1", Optional.empty(), "line " + i, prev);
            out.add(new CustodyEntry(at, CustodyAction.DOWNLOAD, "desk", "127.0.0.1", Optional.empty(), "line " + i, prev, hash));
            prev = hash;
        }
        return out;
    }
}
