// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The C2SP tlog-tiles layout. */
class TilesTest {
    private static final Merkle.LeafHashes LEAVES = TilesTest::leaf;

    private static byte[] leaf(long i) {
        return Merkle.leafHash(ByteBuffer.allocate(8).putLong(i).array());
    }

    @Test
    void path_groupsOfThreeDigits_asC2spWritesThem() {
        assertThat(new Tiles.Tile(0, 1_234_067, Tiles.WIDTH).path()).isEqualTo("tile/0/x001/x234/067");
        assertThat(new Tiles.Tile(1, 5, 42).path()).isEqualTo("tile/1/005.p/42");
        assertThat(new Tiles.Tile(0, 999, 1).entriesPath()).isEqualTo("tile/entries/999.p/1");
        assertThat(new Tiles.Tile(0, 1000, Tiles.WIDTH).entriesPath()).isEqualTo("tile/entries/x001/000");
    }

    @Test
    void parse_readsBackEveryPathWritten_andOnlyThoseForms() {
        // Millions of tiles: compared plainly, the misses gathered for one assertion.
        List<String> misread = new java.util.ArrayList<>();
        for (long size : new long[] {1, 255, 256, 70_000, 1_234_567_891L}) {
            for (Tiles.Tile t : Tiles.of(size)) {
                if (!Tiles.parse(t.path()).equals(java.util.Optional.of(new Tiles.Request(t, false)))) {
                    misread.add(t.path());
                }
                if (t.level() == 0 && !Tiles.parse(t.entriesPath()).equals(java.util.Optional.of(new Tiles.Request(t, true)))) {
                    misread.add(t.entriesPath());
                }
            }
        }
        assertThat(misread).isEmpty();
        assertThat(Tiles.parse("tile/2/x999/x999/x999/x999/x999/999")).map(r -> r.tile().index()).contains(999_999_999_999_999_999L);
        for (String bad : List.of("tile/8/000", "tile/0/1", "tile/0/0001", "tile/0/x000/001", "tile/0/001.p/0", "tile/0/001.p/256",
                "tile/0/001.p/007", "tile/0/001.p/", "tile/entries/x001", "tile/0/x001/x002/x003/x004/x005/x006/007", "/tile/0/000",
                "tile/0/000/", "tile/-1/000", "tile/0/00a")) {
            assertThat(Tiles.parse(bad)).as(bad).isEmpty();
        }
    }

    @Property(tries = 2000)
    void number_isGroupsOfThreeDigits_allButTheLastAfterAnX(@ForAll @LongRange(min = 0) long n) {
        String expected = String.format("%03d", n % 1000);
        for (long rest = n / 1000; rest > 0; rest /= 1000) {
            expected = String.format("x%03d/", rest % 1000) + expected;
        }
        assertThat(Tiles.number(n)).isEqualTo(expected);
        assertThat(Tiles.number(0)).isEqualTo("000");
        assertThat(Tiles.number(Long.MAX_VALUE)).isEqualTo("x009/x223/x372/x036/x854/x775/807");
    }

    @Test
    void of_completeTilesThenTheLastPartialOne_perLevel() {
        assertThat(Tiles.of(0)).isEmpty();
        assertThat(Tiles.of(255)).containsExactly(new Tiles.Tile(0, 0, 255));
        assertThat(Tiles.of(256)).containsExactly(new Tiles.Tile(0, 0, 256), new Tiles.Tile(1, 0, 1));
        assertThat(Tiles.of(70_000)).hasSize(273 + 1 + 1 + 1 + 1)
                .contains(new Tiles.Tile(0, 273, 112), new Tiles.Tile(1, 0, 256), new Tiles.Tile(1, 1, 17), new Tiles.Tile(2, 0, 1));
    }

    @Test
    void data_levelZeroIsLeafHashes_levelOneIsSubtreesOf256() {
        byte[] level0 = Tiles.data(new Tiles.Tile(0, 1, 3), LEAVES);
        assertThat(Arrays.copyOfRange(level0, 32, 64)).isEqualTo(leaf(257));

        byte[] level1 = Tiles.data(new Tiles.Tile(1, 0, 2), LEAVES);
        assertThat(Arrays.copyOfRange(level1, 32, 64)).isEqualTo(Merkle.subtree(256, 512, LEAVES));
        assertThat(Arrays.copyOfRange(level1, 0, 32)).isEqualTo(Merkle.root(256, LEAVES));
    }

    @Test
    void nodes_fromTheTilesAlone_sameRootsAndProofs() {
        long size = 70_000;
        java.util.Map<String, byte[]> served = new java.util.HashMap<>();
        Tiles.of(size).forEach(t -> served.put(t.path(), Tiles.data(t, LEAVES)));
        java.util.List<String> asked = new java.util.ArrayList<>();
        Merkle.Nodes fromTiles = Tiles.nodes(size, t -> {
            asked.add(t.path());
            return served.get(t.path());
        });

        assertThat(Merkle.root(size, fromTiles)).isEqualTo(Merkle.root(size, LEAVES));
        for (long i : new long[] {0, 255, 256, 65_535, 65_536, 69_999}) {
            assertThat(Merkle.inclusionProof(i, size, fromTiles)).as("leaf %d", i)
                    .containsExactlyElementsOf(Merkle.inclusionProof(i, size, LEAVES));
        }
        assertThat(Merkle.consistencyProof(65_537, size, fromTiles)).containsExactlyElementsOf(Merkle.consistencyProof(65_537, size, LEAVES));
        assertThat(asked).doesNotHaveDuplicates();
    }

    @Test
    void nodes_refused_tileOfTheWrongLengthOrNodeNotComplete() {
        Merkle.Nodes short1 = Tiles.nodes(300, t -> new byte[32]);
        assertThatThrownBy(() -> short1.node(0, 5)).isInstanceOf(IllegalStateException.class).hasMessageContaining("tile/0/000");
        Merkle.Nodes any = Tiles.nodes(300, t -> Tiles.data(t, LEAVES));
        assertThatThrownBy(() -> any.node(2, 75)).isInstanceOf(IllegalStateException.class).hasMessageContaining("not complete");
        assertThat(any.node(2, 74)).isEqualTo(LEAVES.node(2, 74));
    }

    @Test
    void entryBundle_readsBack_andRefusesWhatIsNotOne() throws Exception {
        List<byte[]> entries = List.of("a".getBytes(StandardCharsets.UTF_8), new byte[0], new byte[300]);
        byte[] bundle = Tiles.entryBundle(entries);

        assertThat(bundle).startsWith(0, 1, 'a', 0, 0, 1, 44);
        assertThat(Tiles.readEntryBundle(bundle, 3)).usingElementComparator(Arrays::compare).containsExactlyElementsOf(entries);
        assertThatThrownBy(() -> Tiles.readEntryBundle(bundle, 2)).isInstanceOf(NoteFormatException.class);
        assertThatThrownBy(() -> Tiles.readEntryBundle(bundle, 4)).isInstanceOf(NoteFormatException.class);
        assertThatThrownBy(() -> Tiles.readEntryBundle(Arrays.copyOf(bundle, bundle.length - 1), 3)).isInstanceOf(NoteFormatException.class);
        assertThatThrownBy(() -> Tiles.entryBundle(List.of(new byte[Tiles.MAX_ENTRY_BYTES + 1]))).isInstanceOf(IllegalArgumentException.class);
    }
}
