// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.proofmode.media.Digests;

/** RFC 9162 Merkle trees against a naive, level-by-level construction of the same tree. */
class MerkleTest {
    private static final Merkle.LeafHashes LEAVES = MerkleTest::leaf;

    /** Entry {@code i}: its index as 8 bytes. */
    private static byte[] entry(long i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    private static byte[] leaf(long i) {
        return Merkle.leafHash(entry(i));
    }

    /**
     * The root built level by level, as Certificate Transparency describes the unbalanced tree: pair
     * neighbours, and carry a level's odd last node up unchanged.
     */
    private static byte[] naiveRoot(long size) {
        if (size == 0) {
            return Digests.newSha256().digest();
        }
        List<byte[]> level = new ArrayList<>();
        for (long i = 0; i < size; i++) {
            level.add(leaf(i));
        }
        while (level.size() > 1) {
            List<byte[]> up = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                up.add(Merkle.nodeHash(level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                up.add(level.get(level.size() - 1));
            }
            level = up;
        }
        return level.get(0);
    }

    private static byte[] flipped(byte[] h) {
        byte[] c = h.clone();
        c[c.length / 2] ^= 1;
        return c;
    }

    @Test
    void leafAndNodeHashes_rfc6962Prefixes() {
        // SHA-256 of the single byte 0x00: the hash of an empty leaf.
        assertThat(HexFormat.of().formatHex(Merkle.leafHash(new byte[0])))
                .isEqualTo("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
        assertThat(HexFormat.of().formatHex(Merkle.root(0, noLeaves())))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    private static Merkle.LeafHashes noLeaves() {
        return i -> {
            throw new AssertionError("no leaf is read for an empty tree");
        };
    }

    @Test
    void everyProof_upTo64Leaves_verifiesAndRootsMatchNaiveTree() {
        for (long n = 1; n <= 64; n++) {
            byte[] root = Merkle.root(n, LEAVES);
            assertThat(root).as("root of %d", n).isEqualTo(naiveRoot(n));
            for (long i = 0; i < n; i++) {
                List<byte[]> proof = Merkle.inclusionProof(i, n, LEAVES);
                assertThat(Merkle.verifyInclusion(leaf(i), i, n, proof, root)).as("leaf %d of %d", i, n).isTrue();
            }
            for (long m = 0; m <= n; m++) {
                List<byte[]> proof = Merkle.consistencyProof(m, n, LEAVES);
                assertThat(Merkle.verifyConsistency(m, n, proof, naiveRoot(m), root)).as("%d to %d", m, n).isTrue();
            }
        }
    }

    @Property(tries = 200)
    void inclusion_validOnlyForTheLeafItsIndexAndTree(@ForAll @IntRange(min = 1, max = 3000) int size,
            @ForAll @IntRange(min = 0, max = 2999) int at) {
        long i = at % size;
        byte[] root = naiveRoot(size);
        List<byte[]> proof = Merkle.inclusionProof(i, size, LEAVES);

        assertThat(Merkle.verifyInclusion(leaf(i), i, size, proof, root)).isTrue();
        assertThat(Merkle.verifyInclusion(leaf(i + 1), i, size, proof, root)).as("another entry").isFalse();
        assertThat(Merkle.verifyInclusion(leaf(i), i, size, proof, flipped(root))).as("another root").isFalse();
        if (size > 1) {
            long other = (i + 1) % size;
            assertThat(Merkle.verifyInclusion(leaf(i), other, size, proof, root)).as("another index").isFalse();
            for (int k = 0; k < proof.size(); k++) {
                List<byte[]> changed = new ArrayList<>(proof);
                changed.set(k, flipped(changed.get(k)));
                assertThat(Merkle.verifyInclusion(leaf(i), i, size, changed, root)).as("proof hash %d changed", k).isFalse();
            }
            assertThat(Merkle.verifyInclusion(leaf(i), i, size, proof.subList(0, proof.size() - 1), root)).as("a hash dropped").isFalse();
        }
        assertThat(Merkle.verifyInclusion(leaf(i), size, size, proof, root)).as("an index past the tree").isFalse();
    }

    @Property(tries = 200)
    void consistency_validOnlyForTheTwoTreesItJoins(@ForAll @IntRange(min = 1, max = 3000) int newSize,
            @ForAll @IntRange(min = 1, max = 3000) int old) {
        long oldSize = old % newSize == 0 ? newSize : old % newSize;
        byte[] oldRoot = naiveRoot(oldSize);
        byte[] newRoot = naiveRoot(newSize);
        List<byte[]> proof = Merkle.consistencyProof(oldSize, newSize, LEAVES);

        assertThat(Merkle.verifyConsistency(oldSize, newSize, proof, oldRoot, newRoot)).isTrue();
        if (oldSize < newSize) {
            assertThat(Merkle.verifyConsistency(oldSize, newSize, proof, flipped(oldRoot), newRoot)).as("a rewritten old tree").isFalse();
            assertThat(Merkle.verifyConsistency(oldSize, newSize, proof, oldRoot, flipped(newRoot))).as("another new tree").isFalse();
            for (int k = 0; k < proof.size(); k++) {
                List<byte[]> changed = new ArrayList<>(proof);
                changed.set(k, flipped(changed.get(k)));
                assertThat(Merkle.verifyConsistency(oldSize, newSize, changed, oldRoot, newRoot)).as("proof hash %d changed", k).isFalse();
            }
            if (oldSize > 1) {
                assertThat(Merkle.verifyConsistency(oldSize - 1, newSize, proof, oldRoot, newRoot)).as("another old size").isFalse();
            }
        }
    }

    /** A log's node store: what {@link Merkle#appended} returned for each leaf, by level and index. */
    private static final class Store implements Merkle.Nodes {
        private final java.util.Map<String, byte[]> nodes = new java.util.HashMap<>();
        private long size;

        void append(byte[] leafHash) {
            List<byte[]> add = Merkle.appended(size, leafHash, this);
            for (int level = 0; level < add.size(); level++) {
                assertThat(nodes.put(level + "/" + (size >> level), add.get(level))).as("node stored once").isNull();
            }
            size++;
        }

        @Override
        public byte[] node(int level, long index) {
            byte[] h = nodes.get(level + "/" + index);
            if (h == null) {
                throw new AssertionError("node " + level + "/" + index + " was never stored");
            }
            return h;
        }
    }

    @Property(tries = 30)
    void appended_nodesGiveTheSameRootsAndProofsAsTheLeaves(@ForAll @IntRange(min = 1, max = 2000) int size,
            @ForAll @IntRange(min = 0, max = 1999) int at) {
        Store store = new Store();
        for (long i = 0; i < size; i++) {
            store.append(leaf(i));
            assertThat(store.nodes).hasSize((int) (2 * (i + 1) - Long.bitCount(i + 1)));
        }
        long i = at % size;
        long old = 1 + at % size;

        assertThat(Merkle.root(size, store)).isEqualTo(naiveRoot(size));
        assertThat(Merkle.inclusionProof(i, size, store)).containsExactlyElementsOf(Merkle.inclusionProof(i, size, LEAVES));
        assertThat(Merkle.consistencyProof(old, size, store)).containsExactlyElementsOf(Merkle.consistencyProof(old, size, LEAVES));
        for (long m = Math.max(1, size - 40); m <= size; m++) {
            assertThat(Merkle.root(m, store)).as("root of the first %d", m).isEqualTo(naiveRoot(m));
        }
    }

    @Test
    void consistency_treeThatDroppedAnEntry_caught() {
        // A log of 10 entries that later shows 11 in which entry 4 is gone and another appended.
        byte[] oldRoot = naiveRoot(10);
        Merkle.LeafHashes rewritten = i -> i < 4 ? leaf(i) : leaf(i + 1);
        byte[] newRoot = Merkle.root(11, rewritten);
        List<byte[]> proof = Merkle.consistencyProof(10, 11, rewritten);

        assertThat(Merkle.verifyConsistency(10, 11, proof, oldRoot, newRoot)).isFalse();
    }
}
