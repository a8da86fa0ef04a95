// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.proofmode.media.Digests;

/**
 * The Merkle tree of a transparency log, as RFC 9162 section 2.1 (and RFC 6962 before it) defines it:
 * the hash of a leaf is {@code SHA-256(0x00 ‖ entry)}, of a node {@code SHA-256(0x01 ‖ left ‖ right)}, and
 * a tree of {@code n} leaves splits at the largest power of two below {@code n}. Inclusion proofs (audit
 * paths) and consistency proofs are made and checked here exactly as in that section, so that any
 * implementation of it (Certificate Transparency's, Go's {@code golang.org/x/mod/sumdb/tlog}) reads ours.
 */
public final class Merkle {
    /** The length of every hash: SHA-256. */
    public static final int HASH_BYTES = 32;

    /**
     * Where proofs find the hashes of complete subtrees: a log keeps them as it appends
     * ({@link #appended}), so that roots, proofs and tiles of any size cost a logarithmic number of reads.
     */
    @FunctionalInterface
    public interface Nodes {
        /** The hash of the complete subtree of {@code 2^level} leaves that starts at leaf {@code index << level}. */
        byte[] node(int level, long index);
    }

    /** Where proofs find the hashes of leaves; complete subtrees are computed from them. */
    @FunctionalInterface
    public interface LeafHashes extends Nodes {
        /** The hash of leaf {@code index} ({@link #leafHash} of its entry). */
        byte[] leaf(long index);

        @Override
        default byte[] node(int level, long index) {
            return level == 0 ? leaf(index) : nodeHash(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
        }
    }

    private Merkle() {}

    /** The hash of a leaf: {@code SHA-256(0x00 ‖ entry)}. */
    public static byte[] leafHash(byte[] entry) {
        MessageDigest md = Digests.newSha256();
        md.update((byte) 0);
        md.update(entry);
        return md.digest();
    }

    /** The hash of an inner node: {@code SHA-256(0x01 ‖ left ‖ right)}. */
    public static byte[] nodeHash(byte[] left, byte[] right) {
        MessageDigest md = Digests.newSha256();
        md.update((byte) 1);
        md.update(left);
        md.update(right);
        return md.digest();
    }

    /** The root hash of the first {@code size} leaves (of an empty tree: the SHA-256 of nothing). */
    public static byte[] root(long size, Nodes leaves) {
        if (size < 0) {
            throw new IllegalArgumentException("negative tree size " + size);
        }
        return size == 0 ? Digests.newSha256().digest() : subtree(0, size, leaves);
    }

    /**
     * The inclusion proof of leaf {@code index} in the tree of {@code size} leaves: the audit path of RFC
     * 9162 section 2.1.3.1, from the leaf's sibling up.
     */
    public static List<byte[]> inclusionProof(long index, long size, Nodes leaves) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of " + size);
        }
        List<byte[]> out = new ArrayList<>();
        path(index, 0, size, leaves, out);
        return out;
    }

    /**
     * The consistency proof between the trees of {@code oldSize} and {@code newSize} leaves (RFC 9162
     * section 2.1.4.1); empty when the sizes are equal or the old tree is empty.
     */
    public static List<byte[]> consistencyProof(long oldSize, long newSize, Nodes leaves) {
        if (oldSize < 0 || oldSize > newSize) {
            throw new IllegalArgumentException("no consistency proof from " + oldSize + " to " + newSize + " leaves");
        }
        List<byte[]> out = new ArrayList<>();
        if (oldSize > 0 && oldSize < newSize) {
            subproof(oldSize, 0, newSize, true, leaves, out);
        }
        return out;
    }

    /**
     * Checks an inclusion proof (RFC 9162 section 2.1.3.2).
     *
     * @return whether the leaf with this hash is leaf {@code index} of the tree of {@code size} leaves whose
     *     root is {@code root}
     */
    public static boolean verifyInclusion(byte[] leafHash, long index, long size, List<byte[]> proof, byte[] root) {
        if (index < 0 || index >= size || !isHash(leafHash) || !isHash(root)) {
            return false;
        }
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            if (sn == 0 || !isHash(p)) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = nodeHash(p, r);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                r = nodeHash(r, p);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(r, root);
    }

    /**
     * Checks a consistency proof (RFC 9162 section 2.1.4.2): that the tree of {@code newSize} leaves whose
     * root is {@code newRoot} extends the tree of {@code oldSize} leaves whose root is {@code oldRoot}.
     */
    public static boolean verifyConsistency(long oldSize, long newSize, List<byte[]> proof, byte[] oldRoot, byte[] newRoot) {
        if (oldSize < 0 || oldSize > newSize || !isHash(oldRoot) || !isHash(newRoot)) {
            return false;
        }
        if (oldSize == newSize) {
            return proof.isEmpty() && MessageDigest.isEqual(oldRoot, newRoot);
        }
        if (oldSize == 0) {
            return proof.isEmpty();
        }
        List<byte[]> path = new ArrayList<>(proof);
        if (Long.bitCount(oldSize) == 1) {
            path.add(0, oldRoot);
        }
        if (path.isEmpty() || !path.stream().allMatch(Merkle::isHash)) {
            return false;
        }
        long fn = oldSize - 1;
        long sn = newSize - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        for (byte[] c : path.subList(1, path.size())) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = nodeHash(c, fr);
                sr = nodeHash(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                sr = nodeHash(sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(fr, oldRoot) && MessageDigest.isEqual(sr, newRoot);
    }

    /** The largest power of two smaller than {@code n} (n at least 2). */
    static long split(long n) {
        return Long.highestOneBit(n - 1);
    }

    /**
     * The hashes a log stores when it appends leaf {@code index}: the leaf's own, then each complete subtree
     * the leaf completes, going up. Element {@code k} is the node of level {@code k} and index
     * {@code index >> k}.
     *
     * @param before the nodes stored for the leaves before it
     */
    public static List<byte[]> appended(long index, byte[] leafHash, Nodes before) {
        if (index < 0 || !isHash(leafHash)) {
            throw new IllegalArgumentException("a leaf has a non-negative index and a 32-byte hash");
        }
        List<byte[]> out = new ArrayList<>();
        out.add(leafHash);
        byte[] h = leafHash;
        long i = index;
        for (int level = 0; (i & 1) == 1; level++, i >>= 1) {
            h = nodeHash(before.node(level, i - 1), h);
            out.add(h);
        }
        return out;
    }

    /**
     * The hash of the subtree of leaves {@code lo} (included) to {@code hi} (excluded), where the range is
     * one of the tree's: a complete subtree is read as a node, any other is split at the largest power of
     * two below its size.
     */
    static byte[] subtree(long lo, long hi, Nodes nodes) {
        long n = hi - lo;
        if (Long.bitCount(n) == 1 && lo % n == 0) {
            byte[] h = nodes.node(Long.numberOfTrailingZeros(n), lo / n);
            if (!isHash(h)) {
                throw new IllegalStateException("no 32-byte hash for the " + n + " leaves from " + lo);
            }
            return h;
        }
        long k = split(n);
        return nodeHash(subtree(lo, lo + k, nodes), subtree(lo + k, hi, nodes));
    }

    private static void path(long m, long lo, long hi, Nodes leaves, List<byte[]> out) {
        long n = hi - lo;
        if (n == 1) {
            return;
        }
        long k = split(n);
        if (m < k) {
            path(m, lo, lo + k, leaves, out);
            out.add(subtree(lo + k, hi, leaves));
        } else {
            path(m - k, lo + k, hi, leaves, out);
            out.add(subtree(lo, lo + k, leaves));
        }
    }

    private static void subproof(long m, long lo, long hi, boolean whole, Nodes leaves, List<byte[]> out) {
        long n = hi - lo;
        if (m == n) {
            if (!whole) {
                out.add(subtree(lo, hi, leaves));
            }
            return;
        }
        long k = split(n);
        if (m <= k) {
            subproof(m, lo, lo + k, whole, leaves, out);
            out.add(subtree(lo + k, hi, leaves));
        } else {
            subproof(m - k, lo + k, hi, false, leaves, out);
            out.add(subtree(lo, lo + k, leaves));
        }
    }

    private static boolean isHash(byte[] h) {
        return h != null && h.length == HASH_BYTES;
    }
}
