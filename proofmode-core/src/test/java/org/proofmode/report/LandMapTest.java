// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The land outline the reports and the server's page draw, read from the core's jar. */
class LandMapTest {
    @Test
    void outline_isReadFromItsResource_ringsWithinTheMap_andItsNoticeBesideIt() {
        LandMap land = LandMap.get();

        assertThat(land.svgPath()).startsWith("M");
        assertThat(land.rings()).hasSizeGreaterThan(100).allSatisfy(r -> assertThat(r.length % 2 == 0 && r.length >= 6).isTrue());
        int[] xs = land.rings().stream().flatMapToInt(r -> java.util.stream.IntStream.range(0, r.length / 2).map(i -> r[2 * i])).toArray();
        int[] ys = land.rings().stream().flatMapToInt(r -> java.util.stream.IntStream.range(0, r.length / 2).map(i -> r[2 * i + 1])).toArray();
        // the whole world, from the antimeridian to the other, from the Arctic islands to Antarctica
        assertThat(java.util.Arrays.stream(xs).min().getAsInt()).isLessThan(500);
        assertThat(java.util.Arrays.stream(xs).max().getAsInt()).isGreaterThan(LandMap.WIDTH - 500);
        assertThat(java.util.Arrays.stream(ys).min().getAsInt()).isBetween(0, 1500);
        assertThat(java.util.Arrays.stream(ys).max().getAsInt()).isBetween(LandMap.HEIGHT - 1500, LandMap.HEIGHT);
        assertThat(LandMap.class.getResource("land/NOTICE-land.txt")).as("its notice beside it").isNotNull();
    }
}
