// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The BMFF hard binding ({@code c2pa.hash.bmff} 1.0, {@code c2pa.hash.bmff.v2}, {@code .v3}): a hash of
 * an ISO BMFF file without the boxes its exclusions name (by box path, with optional length, version,
 * flags, data to match and subsets of the box), and from version 2 on with the offset of every top-level
 * box that is not wholly excluded hashed, as a big-endian 64-bit number, just before the box's bytes.
 *
 * <p>A fragmented file whose assertion carries Merkle maps is checked fragment by fragment: the
 * initialization segment against {@code initHash}, each {@code moof}…{@code mdat} run against the Merkle
 * tree through the proof in its fragment's {@code merkle} uuid box. Merkle maps over the sample data of
 * an unfragmented file (block sizes or tracks) are not checked here: {@link Verdict#UNCHECKED}.
 */
final class BmffHash {
    /** The assertion label of version 1 (its versions are {@code .v2}, {@code .v3}). */
    static final String LABEL = "c2pa.hash.bmff";
    private static final int MAX_EXCLUSIONS = 1024;

    /** What a check found. */
    enum Verdict {
        /** The content hashes to the assertion's value. */
        MATCH,
        /** It does not. */
        MISMATCH,
        /** The assertion cannot be used (no hash, bad exclusion, unknown algorithm). */
        MALFORMED,
        /** The assertion is of a form this reader does not check. */
        UNCHECKED
    }

    /**
     * A finding.
     *
     * @param verdict the finding
     * @param message one sentence
     */
    record Result(Verdict verdict, String message) {}

    private BmffHash() {}

    /** The version a label names: 1 for {@code c2pa.hash.bmff}, 2 for {@code .v2}, 3 for {@code .v3}. */
    static int version(String label) {
        String base = label.contains("__") ? label.substring(0, label.indexOf("__")) : label;
        if (base.equals(LABEL + ".v3")) {
            return 3;
        }
        return base.equals(LABEL + ".v2") ? 2 : 1;
    }

    /**
     * Checks the binding.
     *
     * @param assertion the assertion's content
     * @param version 1, 2 or 3
     * @param claimAlg the claim's hash algorithm, used when the assertion names none
     */
    static Result check(ByteSource src, JsonNode assertion, int version, String claimAlg) throws IOException {
        try {
            for (String field : List.of("exclusions", "alg", "hash", "merkle", "name")) {
                JsonNode v = assertion.path(field);
                if (!v.isMissingNode() && (v.isNull() || v.isPojo())) {
                    // CBOR null or undefined: an optional field is left out, never given an empty value (C2PA 2.2, 18.6.2 CDDL).
                    return new Result(Verdict.MALFORMED, "the BMFF hash assertion's " + field + " is null or undefined");
                }
            }
            if (assertion.path("merkle").isArray() && assertion.path("merkle").isEmpty()) {
                return new Result(Verdict.MISMATCH, "the BMFF hash assertion's Merkle list is empty: it binds no content");
            }
            BmffBoxes boxes = BmffBoxes.read(src);
            String alg = assertion.path("alg").asText(claimAlg);
            List<DataHash.Range> excluded = exclusions(src, boxes, assertion.path("exclusions"));
            List<Long> offsets = version > 1 ? offsetsHashed(boxes, excluded) : List.of();
            JsonNode hash = assertion.path("hash");
            JsonNode merkle = assertion.path("merkle");
            if (hash.isMissingNode() && !merkle.isArray()) {
                return new Result(Verdict.MALFORMED, "the BMFF hash assertion has neither a hash nor Merkle maps");
            }
            if (!hash.isMissingNode()) {
                byte[] expected = hash.binaryValue();
                if (expected == null) {
                    return new Result(Verdict.MALFORMED, "the BMFF hash is not a byte string");
                }
                byte[] actual = hash(src, excluded, offsets, 0, src.size(), DataHash.digest(alg));
                if (!MessageDigest.isEqual(expected, actual)) {
                    return new Result(Verdict.MISMATCH, "the file's boxes do not hash to the BMFF hash assertion's value");
                }
            }
            if (merkle.isArray()) {
                return BmffMerkle.check(src, boxes, merkle, alg, excluded, offsets);
            }
            return new Result(Verdict.MATCH, "BMFF hash valid (version " + version + ")");
        } catch (C2paFormatException e) {
            return new Result(Verdict.MALFORMED, e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            return new Result(Verdict.MALFORMED, e.getMessage());
        }
    }

    /** The byte ranges the exclusions name, sorted by start (they may overlap). */
    static List<DataHash.Range> exclusions(ByteSource src, BmffBoxes boxes, JsonNode list) throws IOException, C2paFormatException {
        if (!list.isArray()) {
            throw new C2paFormatException("the BMFF hash assertion has no exclusions array");
        }
        if (list.size() > MAX_EXCLUSIONS) {
            throw new C2paFormatException("more than " + MAX_EXCLUSIONS + " BMFF exclusions");
        }
        List<DataHash.Range> out = new ArrayList<>();
        for (JsonNode ex : list) {
            String xpath = ex.path("xpath").asText("");
            if (!xpath.startsWith("/")) {
                throw new C2paFormatException("BMFF exclusion without an absolute xpath");
            }
            for (BmffBoxes.Box b : boxes.at(xpath)) {
                if (matches(src, b, ex)) {
                    addExcluded(out, b, ex.path("subset"));
                }
            }
        }
        out.sort(Comparator.comparingLong(DataHash.Range::start));
        return out;
    }

    private static boolean matches(ByteSource src, BmffBoxes.Box b, JsonNode ex) throws IOException {
        JsonNode length = ex.path("length");
        if (length.canConvertToLong() && length.longValue() != b.size()) {
            return false;
        }
        JsonNode version = ex.path("version");
        if (version.canConvertToInt() && b.version().isPresent() && version.intValue() != b.version().get()) {
            return false;
        }
        JsonNode flags = ex.path("flags");
        if (flags.isBinary() && b.flags().isPresent()) {
            byte[] f = flags.binaryValue();
            int wanted = f.length >= 3 ? ((f[0] & 0xFF) << 16) | ((f[1] & 0xFF) << 8) | (f[2] & 0xFF) : 0;
            int actual = b.flags().get();
            boolean exact = ex.path("exact").asBoolean(true);
            if (exact ? wanted != actual : (wanted | actual) != wanted) {
                return false;
            }
        }
        for (JsonNode d : ex.path("data")) {
            long offset = d.path("offset").asLong(-1);
            byte[] value = d.path("value").isBinary() ? d.path("value").binaryValue() : new byte[0];
            if (offset < 0 || value.length == 0 || offset > b.size() - value.length) {
                return false;
            }
            if (!Arrays.equals(value, src.read(b.offset() + offset, value.length))) {
                return false;
            }
        }
        return true;
    }

    private static void addExcluded(List<DataHash.Range> out, BmffBoxes.Box b, JsonNode subsets) throws C2paFormatException {
        if (!subsets.isArray() || subsets.isEmpty()) {
            out.add(new DataHash.Range(b.offset(), b.size()));
            return;
        }
        for (JsonNode s : subsets) {
            long offset = s.path("offset").asLong(-1);
            long length = s.path("length").asLong(-1);
            if (offset < 0 || length < 0) {
                throw new C2paFormatException("BMFF exclusion subset without a valid offset and length");
            }
            if (offset > b.size()) {
                continue;
            }
            long n = length == 0 ? b.size() - offset : Math.min(length, b.size() - offset);
            out.add(new DataHash.Range(b.offset() + offset, n));
        }
    }

    /** Version 2 and later: the top-level boxes whose offsets are hashed, those not wholly excluded. */
    private static List<Long> offsetsHashed(BmffBoxes boxes, List<DataHash.Range> excluded) {
        List<Long> out = new ArrayList<>();
        Set<DataHash.Range> whole = new HashSet<>(excluded);
        for (BmffBoxes.Box b : boxes.top()) {
            if (!whole.contains(new DataHash.Range(b.offset(), b.size()))) {
                out.add(b.offset());
            }
        }
        return out;
    }

    /**
     * Hashes [from, to) without the excluded ranges, with each offset of {@code offsets} that falls in a
     * hashed run, or between the first and the last hashed byte, hashed as 8 big-endian bytes before the
     * bytes at that offset.
     */
    static byte[] hash(ByteSource src, List<DataHash.Range> excluded, List<Long> offsets, long from, long to, MessageDigest md)
            throws IOException {
        List<long[]> included = included(excluded, from, to);
        if (!included.isEmpty()) {
            long first = included.get(0)[0];
            long last = included.get(included.size() - 1)[1];
            List<Long> markers = offsets.stream().filter(o -> o >= first && o < last).sorted().toList();
            int mi = 0;
            byte[] buf = new byte[64 * 1024];
            for (long[] run : included) {
                long pos = run[0];
                while (mi < markers.size() && markers.get(mi) < pos) {
                    marker(md, markers.get(mi++)); // offsets inside an excluded gap
                }
                while (pos < run[1]) {
                    long stop = run[1];
                    if (mi < markers.size() && markers.get(mi) < stop) {
                        if (markers.get(mi) == pos) {
                            marker(md, markers.get(mi++));
                            continue;
                        }
                        stop = markers.get(mi);
                    }
                    while (pos < stop) {
                        int n = (int) Math.min(buf.length, stop - pos);
                        src.read(pos, buf, 0, n);
                        md.update(buf, 0, n);
                        pos += n;
                    }
                }
            }
        }
        return md.digest();
    }

    private static void marker(MessageDigest md, long offset) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (offset >>> (56 - 8 * i));
        }
        md.update(b);
    }

    /** The runs [start, end) of [from, to) outside every excluded range. */
    private static List<long[]> included(List<DataHash.Range> excluded, long from, long to) {
        List<long[]> out = new ArrayList<>();
        long pos = from;
        for (DataHash.Range r : excluded) {
            long s = Math.max(r.start(), from);
            long e = Math.min(r.start() + r.length(), to);
            if (e <= s) {
                continue;
            }
            if (s > pos) {
                out.add(new long[] {pos, s});
            }
            pos = Math.max(pos, e);
        }
        if (pos < to) {
            out.add(new long[] {pos, to});
        }
        return out;
    }
}
