// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One proof record: an ordered, flat map of field names to string values, as in the app's
 * {@code .proof.json} and {@code .proof.csv}. Immutable.
 */
public final class ProofRecord {
    private final Map<String, String> fields;

    private ProofRecord(Map<String, String> fields) {
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /**
     * Makes a record from fields in order.
     *
     * @throws NullPointerException if a name or value is null
     */
    public static ProofRecord of(Map<String, String> fields) {
        fields.forEach((k, v) -> {
            Objects.requireNonNull(k, "field name");
            Objects.requireNonNull(v, "value of " + k);
        });
        return new ProofRecord(fields);
    }

    /** Starts an empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns all fields in order. */
    public Map<String, String> fields() {
        return fields;
    }

    /** Returns a field's value, if present. */
    public Optional<String> get(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /** Returns the first non-empty value among the given names. */
    public Optional<String> first(Iterable<String> names) {
        for (String n : names) {
            String v = fields.get(n);
            if (v != null && !v.isBlank()) {
                return Optional.of(v.trim());
            }
        }
        return Optional.empty();
    }

    /** The media hash this record claims, under any name the app has used. */
    public Optional<String> mediaHash() {
        return first(ProofFields.HASH_ALIASES);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProofRecord r && r.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "ProofRecord" + fields;
    }

    /** Collects fields in insertion order; a later value for the same name replaces the earlier one. */
    public static final class Builder {
        private final LinkedHashMap<String, String> fields = new LinkedHashMap<>();
        private final LinkedHashMap<String, byte[]> attachments = new LinkedHashMap<>();

        /** Sets a field. Null values are skipped. */
        public Builder put(String name, String value) {
            Objects.requireNonNull(name, "name");
            if (value != null) {
                fields.put(name, value);
            }
            return this;
        }

        /** Records that a source could not contribute, without failing the proof. */
        public Builder warn(String source, String message) {
            return put(ProofFields.WARNING_PREFIX + source, message);
        }

        /**
         * Adds a file to the proof set beside the record, named {@code <sha256><suffix>} and signed like it,
         * such as a video's frame list. It is not part of the record. The array is kept as it is (a frame
         * list can be megabytes): the caller must not change it afterwards.
         */
        public Builder attach(String suffix, byte[] content) {
            Objects.requireNonNull(suffix, "suffix");
            attachments.put(suffix, Objects.requireNonNull(content, "content"));
            return this;
        }

        /** The files added with {@link #attach}, by suffix. */
        public Map<String, byte[]> attachments() {
            return Collections.unmodifiableMap(attachments);
        }

        /** Tells whether a field is set. */
        public boolean has(String name) {
            return fields.containsKey(name);
        }

        /** Returns a field set so far, so a later source can build on an earlier one's. */
        public Optional<String> get(String name) {
            return Optional.ofNullable(fields.get(name));
        }

        /** Builds the record. */
        public ProofRecord build() {
            return new ProofRecord(fields);
        }
    }
}
