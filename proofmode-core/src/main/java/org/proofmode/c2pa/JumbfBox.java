// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A JUMBF box (ISO/IEC 19566-5): a superbox ({@code jumb}) with its description and children, or a
 * content box such as {@code cbor} or {@code json}.
 */
public sealed interface JumbfBox permits JumbfBox.Super, JumbfBox.Content {
    /** The four-character box type. */
    String type();

    /**
     * A content box.
     *
     * @param type the four-character type
     * @param data the payload, after the box header
     */
    record Content(String type, byte[] data) implements JumbfBox {
        /** Validates and copies the fields. */
        public Content {
            type = checkType(type);
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        /** The payload's length, without a copy. */
        public int length() {
            return data.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Content c && c.type.equals(type) && Arrays.equals(c.data, data);
        }

        @Override
        public int hashCode() {
            return type.hashCode() * 31 + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Content[" + type + ", " + data.length + " bytes]";
        }
    }

    /**
     * A superbox.
     *
     * @param description its {@code jumd} box
     * @param children the boxes after the description
     * @param payload the bytes after the superbox header (description and children as stored): what
     *     C2PA hashed URIs hash
     */
    record Super(Description description, List<JumbfBox> children, byte[] payload) implements JumbfBox {
        /** Validates and copies the fields. */
        public Super {
            Objects.requireNonNull(description, "description");
            children = List.copyOf(children);
            payload = payload.clone();
        }

        @Override
        public String type() {
            return Jumbf.SUPERBOX;
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        /** The description's label, or the empty string. */
        public String label() {
            return description.label().orElse("");
        }

        /** The first child superbox with this label. */
        public Optional<Super> child(String label) {
            for (JumbfBox b : children) {
                if (b instanceof Super s && s.label().equals(label)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }

        /** The first content box of this type. */
        public Optional<Content> content(String type) {
            for (JumbfBox b : children) {
                if (b instanceof Content c && c.type().equals(type)) {
                    return Optional.of(c);
                }
            }
            return Optional.empty();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Super s && s.description.equals(description) && Arrays.equals(s.payload, payload);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Super[" + label() + ", " + children.size() + " children]";
        }
    }

    /**
     * A JUMBF description box ({@code jumd}).
     *
     * @param uuid the 16-byte content type
     * @param toggles the toggle byte (requestable 0x01, label 0x02, id 0x04, hash 0x08, private 0x10)
     * @param label the label, when present
     * @param raw the whole description payload as stored
     */
    record Description(byte[] uuid, int toggles, Optional<String> label, byte[] raw) {
        /** Validates and copies the fields. */
        public Description {
            if (uuid.length != 16) {
                throw new IllegalArgumentException("a JUMBF type UUID has 16 bytes");
            }
            uuid = uuid.clone();
            raw = raw.clone();
            Objects.requireNonNull(label, "label");
        }

        @Override
        public byte[] uuid() {
            return uuid.clone();
        }

        @Override
        public byte[] raw() {
            return raw.clone();
        }

        /** The first four bytes of the type as text: {@code c2pa}, {@code c2ma}, {@code cbor}… */
        public String typeCode() {
            return new String(uuid, 0, 4, StandardCharsets.ISO_8859_1);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Description d && Arrays.equals(d.raw, raw);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(raw);
        }
    }

    private static String checkType(String type) {
        if (type.length() != 4) {
            throw new IllegalArgumentException("a box type has four characters: " + type);
        }
        return type;
    }
}
