// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a modem daemon's answers become, and what of them is refused, without a bus. */
class CellSourceTest {
    @Test
    void mmLocationCell_readsTheThreeGppString_hexToDecimal_andTheTechnologyFromTheAccessBits() {
        assertThat(CellSource.mmLocationCell(Map.of(1L, "310,260,00A1,0000B2C3"), 1L << 5)).hasValueSatisfying(c -> assertThat(c)
                .containsEntry("Technology", "umts").containsEntry("MCC", "310").containsEntry("MNC", "260")
                .containsEntry("LAC", "161").containsEntry("CellId", Long.toString(0xB2C3)).doesNotContainKey("TAC"));
        assertThat(CellSource.mmLocationCell(Map.of(1L, "310,260,0,1A2B3C4,5D"), 1L << 15)).hasValueSatisfying(c -> assertThat(c)
                .containsEntry("Technology", "5gnr").containsEntry("TAC", "93").doesNotContainKey("LAC"));
        assertThat(CellSource.mmLocationCell(Map.of(1L, "262,01,1,2"), null)).hasValueSatisfying(c -> assertThat(c)
                .containsEntry("Technology", "unknown"));
    }

    @Test
    void mmLocationCell_refusesWhatIsNotACell() {
        assertThat(CellSource.mmLocationCell(Map.of(), 0L)).isEmpty();
        assertThat(CellSource.mmLocationCell(Map.of(1L, 42L), 0L)).isEmpty();
        assertThat(CellSource.mmLocationCell(Map.of(2L, "262,01,1,2"), 0L)).isEmpty();       // the GPS source, not 3GPP
        assertThat(CellSource.mmLocationCell(Map.of(1L, "262,01,1"), 0L)).isEmpty();
        assertThat(CellSource.mmLocationCell(Map.of(1L, "26x,01,1,2"), 0L)).isEmpty();
        assertThat(CellSource.mmLocationCell(Map.of(1L, "262,01,1,0"), 0L)).isEmpty();       // not registered: CI 0
        assertThat(CellSource.mmLocationCell(Map.of(1L, "262,01,1,<script>"), 0L)).isEmpty();
    }

    @Test
    void ofonoNeighbour_turnsTheIndicesIntoDbm_andNeedsAnId() {
        assertThat(CellSource.ofonoNeighbour(Map.of("Technology", "lte", "PhysicalCellId", 42L, "ReferenceSignalReceivedPower", 50L)))
                .hasValueSatisfying(c -> assertThat(c).containsEntry("Serving", "false").containsEntry("PhysicalCellId", "42")
                        .containsEntry("Signal", "-90 dBm (rsrp)"));
        assertThat(CellSource.ofonoNeighbour(Map.of("Technology", "gsm", "CellId", 7L, "Strength", 20L)))
                .hasValueSatisfying(c -> assertThat(c).containsEntry("Signal", "-73 dBm (rssi)"));
        // an index out of its range is no signal
        assertThat(CellSource.ofonoNeighbour(Map.of("CellId", 7L, "ReferenceSignalReceivedPower", 255L)))
                .hasValueSatisfying(c -> assertThat(c).doesNotContainKey("Signal").containsEntry("Technology", "unknown"));
        assertThat(CellSource.ofonoNeighbour(Map.of("Technology", "lte", "EARFCN", 1300L))).isEmpty();
    }
}
