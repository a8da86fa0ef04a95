// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Merkle form of the BMFF hash over a fragmented file held whole, on a file built here: an init
 * segment and three fragments, each followed by its merkle uuid box; the expected values are computed
 * the way C2PA states them (included bytes in order, each top-level box's offset as 8 big-endian bytes
 * before it).
 */
class BmffMerkleTest {
    private static final int FRAGMENTS = 3;

    /** The file, and where its boxes start. */
    private record Built(byte[] file, List<Integer> starts) {}

    private static void box(ByteArrayOutputStream out, String type, byte[] payload) {
        Jumbf.writeU32(out, 8L + payload.length);
        out.writeBytes(type.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(payload);
    }

    private static byte[] boxBytes(String type, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        box(out, type, payload);
        return out.toByteArray();
    }

    private static byte[] c2paUuid(String purpose, byte[] data, boolean merkle) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.writeBytes(EmbeddedStore.BMFF_C2PA_UUID);
        p.writeBytes(new byte[4]);
        p.writeBytes((purpose + "\0").getBytes(StandardCharsets.ISO_8859_1));
        p.writeBytes(data);
        if (merkle) {
            p.writeBytes(new byte[8]);
        }
        return boxBytes("uuid", p.toByteArray());
    }

    private static byte[] sha(byte[]... parts) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (byte[] p : parts) {
            md.update(p);
        }
        return md.digest();
    }

    private static byte[] offset(long o) {
        return java.nio.ByteBuffer.allocate(8).putLong(o).array();
    }

    /** Builds the file; the proofs are written for the leaves as built, before any damage. */
    private static Built build() throws Exception {
        byte[] ftyp = boxBytes("ftyp", "iso6\0\0\0\0iso6dash".getBytes(StandardCharsets.ISO_8859_1));
        byte[] manifest = c2paUuid("manifest", new byte[40], false);
        byte[] moov = boxBytes("moov", boxBytes("mvex", boxBytes("trex", new byte[24])));
        List<byte[]> moofs = new ArrayList<>();
        List<byte[]> mdats = new ArrayList<>();
        for (int i = 0; i < FRAGMENTS; i++) {
            byte[] tfhd = boxBytes("tfhd", new byte[] {0, 2, 0, 0, 0, 0, 0, 1});
            moofs.add(boxBytes("moof", boxBytes("traf", tfhd)));
            byte[] samples = new byte[300 + 50 * i];
            new java.util.Random(i).nextBytes(samples);
            mdats.add(boxBytes("mdat", samples));
        }
        int initLen = ftyp.length + manifest.length + moov.length;
        byte[] init = sha(offset(ftyp.length + manifest.length), moov);
        List<byte[]> leaves = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        List<byte[]> proofsCbor = new ArrayList<>();
        // proof boxes have a fixed length, so fragment offsets are known before they are written
        int proofLen = c2paUuid("merkle", proofCbor(0, List.of(new byte[32], new byte[32])), true).length;
        int at = initLen;
        for (int i = 0; i < FRAGMENTS; i++) {
            starts.add(at);
            leaves.add(sha(offset(at), moofs.get(i), offset(at + moofs.get(i).length), mdats.get(i)));
            at += moofs.get(i).length + mdats.get(i).length + proofLen;
        }
        byte[] n01 = sha(leaves.get(0), leaves.get(1));
        byte[] root = sha(n01, leaves.get(2));
        proofsCbor.add(proofCbor(0, List.of(leaves.get(1), leaves.get(2))));
        proofsCbor.add(proofCbor(1, List.of(leaves.get(0), leaves.get(2))));
        proofsCbor.add(proofCbor(2, List.of(n01, new byte[32]))); // one sibling needed; the second is never read
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ftyp);
        out.writeBytes(manifest);
        out.writeBytes(moov);
        for (int i = 0; i < FRAGMENTS; i++) {
            out.writeBytes(moofs.get(i));
            out.writeBytes(mdats.get(i));
            byte[] proof = c2paUuid("merkle", proofsCbor.get(i), true);
            assertThat(proof.length).isEqualTo(proofLen);
            out.writeBytes(proof);
        }
        ROOT[0] = root;
        INIT[0] = init;
        return new Built(out.toByteArray(), starts);
    }

    private static final byte[][] ROOT = new byte[1][];
    private static final byte[][] INIT = new byte[1][];

    /** A proof: the leaf's index and the sibling hashes from the bottom up (always two, so boxes have one length). */
    private static byte[] proofCbor(int location, List<byte[]> hashes) {
        ObjectNode n = Cbor.map();
        n.put("uniqueId", 1);
        n.put("localId", 1);
        n.put("location", location);
        ArrayNode a = n.putArray("hashes");
        hashes.forEach(a::add);
        return Cbor.write(n);
    }

    private static ObjectNode assertion() {
        ObjectNode a = Cbor.map();
        ArrayNode ex = a.putArray("exclusions");
        ObjectNode uuid = ex.addObject();
        uuid.put("xpath", "/uuid");
        ObjectNode data = uuid.putArray("data").addObject();
        data.put("offset", 8);
        data.put("value", EmbeddedStore.BMFF_C2PA_UUID);
        ex.addObject().put("xpath", "/ftyp");
        ex.addObject().put("xpath", "/mfra");
        a.put("alg", "sha256");
        ObjectNode mm = a.putArray("merkle").addObject();
        mm.put("uniqueId", 1);
        mm.put("localId", 1);
        mm.put("count", FRAGMENTS);
        mm.put("alg", "sha256");
        mm.put("initHash", INIT[0]);
        mm.putArray("hashes").add(ROOT[0]);
        return a;
    }

    private static BmffHash.Result check(byte[] file) throws Exception {
        return BmffHash.check(ByteSource.of(file), assertion(), 2, "sha256");
    }

    @Test
    void check_match_initSegmentAndEveryFragment() throws Exception {
        Built b = build();
        BmffHash.Result r = check(b.file());
        assertThat(r.verdict()).as(r.message()).isEqualTo(BmffHash.Verdict.MATCH);
    }

    @Test
    void check_mismatch_byteFlippedInTheSecondFragment() throws Exception {
        Built b = build();
        byte[] f = b.file().clone();
        f[b.starts().get(1) + 60] ^= 0x01;
        BmffHash.Result r = check(f);
        assertThat(r.verdict()).isEqualTo(BmffHash.Verdict.MISMATCH);
        assertThat(r.message()).contains("fragment 2");
    }

    @Test
    void check_mismatch_byteFlippedInTheInitSegment() throws Exception {
        Built b = build();
        byte[] f = b.file().clone();
        f[b.starts().get(0) - 3] ^= 0x01;
        assertThat(check(f).verdict()).isEqualTo(BmffHash.Verdict.MISMATCH);
    }

    @Test
    void check_mismatch_lastFragmentDropped() throws Exception {
        Built b = build();
        byte[] f = java.util.Arrays.copyOf(b.file(), b.starts().get(2));
        BmffHash.Result r = check(f);
        assertThat(r.verdict()).isEqualTo(BmffHash.Verdict.MISMATCH);
        assertThat(r.message()).contains("2 fragments");
    }

    @Test
    void check_mismatch_fragmentsSwapped() throws Exception {
        Built b = build();
        byte[] f = b.file();
        int s0 = b.starts().get(0);
        int s1 = b.starts().get(1);
        int s2 = b.starts().get(2);
        byte[] swapped = f.clone();
        // the second fragment is longer than the first: swap the runs of bytes
        int len0 = s1 - s0;
        int len1 = s2 - s1;
        System.arraycopy(f, s1, swapped, s0, len1);
        System.arraycopy(f, s0, swapped, s0 + len1, len0);
        assertThat(check(swapped).verdict()).isEqualTo(BmffHash.Verdict.MISMATCH);
    }
}
