// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code c2pa.hash.data} hard binding: a hash of the asset's bytes outside the exclusion ranges
 * (where the manifest store sits).
 */
public final class DataHash {
    /** The assertion label. */
    public static final String LABEL = "c2pa.hash.data";
    /** Most exclusion ranges accepted. */
    static final int MAX_EXCLUSIONS = 1024;

    /**
     * One excluded byte range.
     *
     * @param start the first excluded offset
     * @param length how many bytes
     */
    public record Range(long start, long length) {
        /** Validates the range. */
        public Range {
            if (start < 0 || length < 0) {
                throw new IllegalArgumentException("negative exclusion range");
            }
        }
    }

    private DataHash() {}

    /** The JCA name of a C2PA hash algorithm name ({@code sha256}, {@code sha384}, {@code sha512}). */
    static MessageDigest digest(String c2paAlg) throws NoSuchAlgorithmException {
        return switch (c2paAlg.toLowerCase(Locale.ROOT)) {
            case "sha256" -> MessageDigest.getInstance("SHA-256");
            case "sha384" -> MessageDigest.getInstance("SHA-384");
            case "sha512" -> MessageDigest.getInstance("SHA-512");
            default -> throw new NoSuchAlgorithmException("hash algorithm " + c2paAlg + " is not one C2PA allows");
        };
    }

    /** Reads the exclusions of an assertion; fails on ranges that are malformed, overlap or lie past {@code size}. */
    static List<Range> exclusions(JsonNode assertion, long size) throws C2paFormatException {
        JsonNode ex = assertion.path("exclusions");
        if (!ex.isMissingNode() && !ex.isArray()) {
            throw new C2paFormatException("exclusions is not an array");
        }
        if (ex.size() > MAX_EXCLUSIONS) {
            throw new C2paFormatException("more than " + MAX_EXCLUSIONS + " exclusions");
        }
        List<Range> out = new ArrayList<>();
        for (JsonNode r : ex) {
            JsonNode s = r.path("start");
            JsonNode l = r.path("length");
            if (!s.canConvertToLong() || !l.canConvertToLong() || s.longValue() < 0 || l.longValue() < 0) {
                throw new C2paFormatException("exclusion without a valid start and length");
            }
            if (s.longValue() > size || l.longValue() > size - s.longValue()) {
                throw new C2paFormatException("exclusion past the end of the asset");
            }
            out.add(new Range(s.longValue(), l.longValue()));
        }
        out.sort(Comparator.comparingLong(Range::start));
        for (int i = 1; i < out.size(); i++) {
            if (out.get(i).start() < out.get(i - 1).start() + out.get(i - 1).length()) {
                throw new C2paFormatException("overlapping exclusions");
            }
        }
        return out;
    }

    /**
     * What is wrong with where the exclusions lie, if anything: C2PA 2.x requires the exclusions to hold
     * one range that is exactly the bytes of the container structures carrying the manifest store (the
     * APP11 segments of a JPEG, the {@code caBX} chunk of a PNG…), so that an exclusion cannot hide
     * content such as an EXIF segment or the JPEG's SOI marker from the hash. Further exclusions are
     * allowed (they are reported).
     *
     * @param exclusions the assertion's exclusions
     * @param store where the store's structures sit in the asset
     */
    static Optional<String> exclusionProblem(List<Range> exclusions, Range store) {
        if (exclusions.contains(store)) {
            return Optional.empty();
        }
        StringBuilder sb = new StringBuilder();
        for (Range r : exclusions) {
            sb.append(sb.length() == 0 ? "" : ", ").append('[').append(r.start()).append(", ").append(r.start() + r.length()).append(')');
        }
        return Optional.of("the data hash's exclusions (" + (sb.length() == 0 ? "none" : sb) + ") do not match the manifest"
                + " store's place in the asset [" + store.start() + ", " + (store.start() + store.length()) + "): they must exclude"
                + " exactly the store, not the content around it");
    }

    /** Hashes the source's bytes outside the sorted, disjoint ranges. */
    static byte[] hash(ByteSource src, List<Range> exclusions, MessageDigest md) throws IOException {
        long size = src.size();
        byte[] buf = new byte[64 * 1024];
        long pos = 0;
        List<Range> all = new ArrayList<>(exclusions);
        all.add(new Range(size, 0));
        for (Range r : all) {
            while (pos < r.start()) {
                int n = (int) Math.min(buf.length, r.start() - pos);
                src.read(pos, buf, 0, n);
                md.update(buf, 0, n);
                pos += n;
            }
            pos = Math.max(pos, r.start() + r.length());
        }
        return md.digest();
    }
}
