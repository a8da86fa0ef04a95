// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Merkle maps of a BMFF hash over a fragmented file held whole: the initialization segment (every
 * byte before the first {@code moof}) against {@code initHash}, then each fragment (a {@code moof} and
 * the boxes up to the next one) as one leaf, proved to the map's stored tree layer by the proof in the
 * fragment's C2PA {@code uuid} box of purpose {@code merkle}. Tree as C2PA defines it: leaves at the
 * bottom, an odd last node carried up unhashed, a parent the hash of its children's concatenation.
 */
final class BmffMerkle {
    private static final int MAX_LEAVES = 1_000_000;

    private BmffMerkle() {}

    static BmffHash.Result check(ByteSource src, BmffBoxes boxes, JsonNode maps, String defaultAlg, List<DataHash.Range> excluded,
            List<Long> offsets) throws IOException, C2paFormatException, NoSuchAlgorithmException {
        List<BmffBoxes.Box> top = boxes.top();
        int firstMoof = -1;
        for (int i = 0; i < top.size(); i++) {
            if (top.get(i).type().equals("moof")) {
                firstMoof = i;
                break;
            }
        }
        for (JsonNode mm : maps) {
            if (mm.has("initHash")) {
                if (firstMoof < 0) {
                    return new BmffHash.Result(BmffHash.Verdict.MISMATCH,
                            "the BMFF hash has an initialization-segment hash but the file has no fragments");
                }
                byte[] expected = mm.path("initHash").binaryValue();
                String alg = mm.path("alg").asText(defaultAlg);
                byte[] actual = BmffHash.hash(src, excluded, offsets, 0, top.get(firstMoof).offset(), DataHash.digest(alg));
                if (expected == null || !MessageDigest.isEqual(expected, actual)) {
                    return new BmffHash.Result(BmffHash.Verdict.MISMATCH, "the initialization segment does not match its Merkle map hash");
                }
            }
        }
        if (firstMoof <= 0) {
            return new BmffHash.Result(BmffHash.Verdict.UNCHECKED,
                    "Merkle maps over the sample data of an unfragmented file are not checked by this reader");
        }
        List<long[]> fragments = new ArrayList<>();
        List<BmffBoxes.Box> fragmentBoxes = top.subList(firstMoof, top.size());
        for (BmffBoxes.Box b : fragmentBoxes) {
            if (b.type().equals("moof") || fragments.isEmpty()) {
                fragments.add(new long[] {b.offset(), b.end()});
            } else {
                fragments.get(fragments.size() - 1)[1] = b.end();
            }
        }
        List<JsonNode> proofs = proofs(src, fragmentBoxes);
        for (JsonNode mm : maps) {
            long count = mm.path("count").asLong(-1);
            if (count != fragments.size() || proofs.size() != fragments.size()) {
                return new BmffHash.Result(BmffHash.Verdict.MISMATCH, "the file holds " + fragments.size() + " fragments and "
                        + proofs.size() + " Merkle proofs, its Merkle map names " + count);
            }
            String alg = mm.path("alg").asText(defaultAlg);
            for (int i = 0; i < fragments.size(); i++) {
                long[] f = fragments.get(i);
                byte[] leaf = BmffHash.hash(src, excluded, offsets, f[0], f[1], DataHash.digest(alg));
                JsonNode proof = proofs.get(i);
                if (!proves(mm, alg, leaf, proof.path("location").asLong(-1), proof.path("hashes"))) {
                    return new BmffHash.Result(BmffHash.Verdict.MISMATCH, "fragment " + (i + 1) + " does not match the Merkle tree");
                }
            }
        }
        return new BmffHash.Result(BmffHash.Verdict.MATCH, "BMFF hash valid: initialization segment and " + fragments.size()
                + " fragments match the Merkle tree");
    }

    /** The Merkle proofs of the fragments: the CBOR of each C2PA uuid box of purpose {@code merkle}, in file order. */
    private static List<JsonNode> proofs(ByteSource src, List<BmffBoxes.Box> boxes) throws IOException, C2paFormatException {
        List<JsonNode> out = new ArrayList<>();
        for (BmffBoxes.Box b : boxes) {
            if (!b.type().equals("uuid") || b.size() < 8 + 16 + 4 + 7 + 8) {
                continue;
            }
            int header = Jumbf.u32(src.read(b.offset(), 4), 0) == 1 ? 16 : 8;
            if (!Arrays.equals(src.read(b.offset() + header, 16), EmbeddedStore.BMFF_C2PA_UUID)) {
                continue;
            }
            long p = b.offset() + header + 16 + 4;
            byte[] purpose = src.read(p, 7);
            if (!new String(purpose, StandardCharsets.ISO_8859_1).equals("merkle\0")) {
                continue;
            }
            long dataStart = p + 7;
            long dataLen = b.end() - 8 - dataStart; // the box ends with the 64-bit offset of the first merkle box
            if (dataLen <= 0 || dataLen > Jumbf.MAX_STORE_BYTES) {
                throw new C2paFormatException("merkle uuid box of " + dataLen + " bytes");
            }
            out.add(Cbor.read(src.read(dataStart, (int) dataLen)));
        }
        return out;
    }

    /**
     * Proves a leaf up to the tree layer the map stores: {@code location} is the leaf's index, {@code proof}
     * the sibling hashes from the bottom up.
     */
    static boolean proves(JsonNode mm, String alg, byte[] leaf, long location, JsonNode proof)
            throws IOException, NoSuchAlgorithmException {
        long count = mm.path("count").asLong(-1);
        JsonNode stored = mm.path("hashes");
        if (count <= 0 || count > MAX_LEAVES || location < 0 || location >= count || !stored.isArray()) {
            return false;
        }
        long index = location;
        byte[] hash = leaf;
        int used = 0;
        for (long layer : layout(count)) {
            if (layer == stored.size()) {
                break;
            }
            boolean right = index % 2 == 1;
            if (right || index + 1 < layer) {
                if (!proof.isArray() || used >= proof.size()) {
                    return false;
                }
                byte[] sibling = proof.get(used++).binaryValue();
                if (sibling == null) {
                    return false;
                }
                MessageDigest md = DataHash.digest(alg);
                md.update(right ? sibling : hash);
                md.update(right ? hash : sibling);
                hash = md.digest();
            }
            index /= 2;
        }
        if (index >= stored.size()) {
            return false;
        }
        byte[] expected = stored.get((int) index).binaryValue();
        return expected != null && MessageDigest.isEqual(expected, hash);
    }

    /** The number of nodes of each layer, leaves first. */
    static List<Long> layout(long leaves) {
        List<Long> out = new ArrayList<>();
        long n = leaves;
        out.add(n);
        while (n > 1) {
            n = (n + 1) / 2;
            out.add(n);
        }
        return out;
    }
}
