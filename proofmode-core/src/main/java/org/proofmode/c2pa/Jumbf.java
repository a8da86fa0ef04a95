// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes JUMBF boxes (ISO/IEC 19566-5), the container of C2PA manifest stores.
 *
 * <p>Security: every length read from the bytes is checked against what is left; nesting is capped at
 * {@link #MAX_DEPTH} and the number of boxes at {@link #MAX_BOXES}; a store is at most
 * {@link #MAX_STORE_BYTES}.
 */
public final class Jumbf {
    /** The superbox type. */
    public static final String SUPERBOX = "jumb";
    /** The description box type. */
    public static final String DESCRIPTION = "jumd";
    /** Deepest superbox nesting accepted (a C2PA store needs five levels). */
    public static final int MAX_DEPTH = 16;
    /** Most boxes accepted in one parse. */
    public static final int MAX_BOXES = 10_000;
    /** Largest manifest store accepted. */
    public static final int MAX_STORE_BYTES = 64 * 1024 * 1024;
    static final byte[] C2PA_UUID_SUFFIX = {0x00, 0x11, 0x00, 0x10, (byte) 0x80, 0x00, 0x00, (byte) 0xAA, 0x00, 0x38,
        (byte) 0x9B, 0x71};
    private static final int TOGGLE_REQUESTABLE = 0x01;
    private static final int TOGGLE_LABEL = 0x02;
    private static final int TOGGLE_ID = 0x04;
    private static final int TOGGLE_HASH = 0x08;
    private static final int TOGGLE_PRIVATE = 0x10;

    private Jumbf() {}

    /**
     * Parses one superbox that fills {@code bytes} exactly.
     *
     * @throws C2paFormatException if the bytes are not one well-formed superbox within the bounds
     */
    public static JumbfBox.Super parseSuperBox(byte[] bytes) throws C2paFormatException {
        if (bytes.length > MAX_STORE_BYTES) {
            throw new C2paFormatException("JUMBF store of " + bytes.length + " bytes exceeds " + MAX_STORE_BYTES);
        }
        int[] count = {0};
        List<JumbfBox> boxes = parseBoxes(bytes, 0, bytes.length, 0, count);
        if (boxes.size() != 1 || !(boxes.get(0) instanceof JumbfBox.Super s)) {
            throw new C2paFormatException("expected a single JUMBF superbox");
        }
        return s;
    }

    private static List<JumbfBox> parseBoxes(byte[] b, int from, int to, int depth, int[] count)
            throws C2paFormatException {
        if (depth > MAX_DEPTH) {
            throw new C2paFormatException("JUMBF nesting deeper than " + MAX_DEPTH);
        }
        List<JumbfBox> out = new ArrayList<>();
        int pos = from;
        while (pos < to) {
            if (++count[0] > MAX_BOXES) {
                throw new C2paFormatException("more than " + MAX_BOXES + " JUMBF boxes");
            }
            if (to - pos < 8) {
                throw new C2paFormatException("truncated box header at offset " + pos);
            }
            long lbox = u32(b, pos);
            String type = new String(b, pos + 4, 4, StandardCharsets.ISO_8859_1);
            int header = 8;
            long size;
            if (lbox == 1) {
                if (to - pos < 16) {
                    throw new C2paFormatException("truncated extended box header at offset " + pos);
                }
                size = u64(b, pos + 8);
                header = 16;
            } else if (lbox == 0) {
                size = to - pos;
            } else {
                size = lbox;
            }
            if (size < header || size > to - pos) {
                throw new C2paFormatException("box '" + printable(type) + "' at offset " + pos + " has length " + size
                        + ", " + (to - pos) + " bytes left");
            }
            int end = pos + (int) size;
            int start = pos + header;
            if (type.equals(SUPERBOX)) {
                out.add(superBox(b, start, end, depth, count));
            } else {
                out.add(new JumbfBox.Content(type, Arrays.copyOfRange(b, start, end)));
            }
            pos = end;
        }
        return out;
    }

    private static JumbfBox.Super superBox(byte[] b, int start, int end, int depth, int[] count)
            throws C2paFormatException {
        List<JumbfBox> inner = parseBoxes(b, start, end, depth + 1, count);
        if (inner.isEmpty() || !(inner.get(0) instanceof JumbfBox.Content d) || !d.type().equals(DESCRIPTION)) {
            throw new C2paFormatException("a JUMBF superbox must start with a description box");
        }
        JumbfBox.Description description = description(d.data());
        return new JumbfBox.Super(description, inner.subList(1, inner.size()),
                Arrays.copyOfRange(b, start, end));
    }

    private static JumbfBox.Description description(byte[] d) throws C2paFormatException {
        if (d.length < 17) {
            throw new C2paFormatException("JUMBF description box shorter than 17 bytes");
        }
        int toggles = d[16] & 0xFF;
        int pos = 17;
        Optional<String> label = Optional.empty();
        if ((toggles & TOGGLE_LABEL) != 0) {
            int nul = pos;
            while (nul < d.length && d[nul] != 0) {
                nul++;
            }
            if (nul == d.length) {
                throw new C2paFormatException("JUMBF label without its terminating NUL");
            }
            label = Optional.of(new String(d, pos, nul - pos, StandardCharsets.UTF_8));
            pos = nul + 1;
        }
        if ((toggles & TOGGLE_ID) != 0) {
            pos += 4;
        }
        if ((toggles & TOGGLE_HASH) != 0) {
            pos += 32;
        }
        if (pos > d.length) {
            throw new C2paFormatException("JUMBF description box truncated");
        }
        if ((toggles & TOGGLE_PRIVATE) == 0 && pos != d.length) {
            throw new C2paFormatException("JUMBF description box has " + (d.length - pos) + " trailing bytes");
        }
        return new JumbfBox.Description(Arrays.copyOf(d, 16), toggles, label, d);
    }

    /** A C2PA type UUID: four ASCII characters then {@code 0011-0010-8000-00AA00389B71}. */
    public static byte[] c2paUuid(String code) {
        byte[] c = code.getBytes(StandardCharsets.ISO_8859_1);
        if (c.length != 4) {
            throw new IllegalArgumentException("a C2PA type code has four characters: " + code);
        }
        byte[] u = new byte[16];
        System.arraycopy(c, 0, u, 0, 4);
        System.arraycopy(C2PA_UUID_SUFFIX, 0, u, 4, 12);
        return u;
    }

    /** Builds a requestable, labelled superbox of a C2PA type. */
    public static JumbfBox.Super superBox(String typeCode, String label, List<? extends JumbfBox> children) {
        return superBox(c2paUuid(typeCode), label, children);
    }

    /** Builds a requestable, labelled superbox of any type. */
    public static JumbfBox.Super superBox(byte[] uuid, String label, List<? extends JumbfBox> children) {
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        d.writeBytes(uuid);
        d.write(TOGGLE_REQUESTABLE | TOGGLE_LABEL);
        d.writeBytes(label.getBytes(StandardCharsets.UTF_8));
        d.write(0);
        byte[] raw = d.toByteArray();
        JumbfBox.Description description = new JumbfBox.Description(uuid, TOGGLE_REQUESTABLE | TOGGLE_LABEL,
                Optional.of(label), raw);
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        writeBox(payload, DESCRIPTION, raw);
        for (JumbfBox c : children) {
            payload.writeBytes(write(c));
        }
        return new JumbfBox.Super(description, List.copyOf(children), payload.toByteArray());
    }

    /**
     * A superbox with the description of {@code box} (byte for byte) and other children: how a store or
     * manifest is rewritten without some of its boxes, every other box kept as it was stored.
     */
    public static JumbfBox.Super rebuild(JumbfBox.Super box, List<? extends JumbfBox> children) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        writeBox(payload, DESCRIPTION, box.description().raw());
        for (JumbfBox c : children) {
            payload.writeBytes(write(c));
        }
        return new JumbfBox.Super(box.description(), List.copyOf(children), payload.toByteArray());
    }

    /** The box as bytes, header included. */
    public static byte[] write(JumbfBox box) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (box instanceof JumbfBox.Super s) {
            writeBox(out, SUPERBOX, s.payload());
        } else {
            JumbfBox.Content c = (JumbfBox.Content) box;
            writeBox(out, c.type(), c.data());
        }
        return out.toByteArray();
    }

    private static void writeBox(ByteArrayOutputStream out, String type, byte[] payload) {
        long size = 8L + payload.length;
        writeU32(out, size);
        out.writeBytes(type.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(payload);
    }

    static void writeU32(ByteArrayOutputStream out, long v) {
        out.write((int) (v >>> 24));
        out.write((int) (v >>> 16));
        out.write((int) (v >>> 8));
        out.write((int) v);
    }

    static long u32(byte[] b, int p) {
        return ((b[p] & 0xFFL) << 24) | ((b[p + 1] & 0xFFL) << 16) | ((b[p + 2] & 0xFFL) << 8) | (b[p + 3] & 0xFFL);
    }

    static long u32le(byte[] b, int p) {
        return (b[p] & 0xFFL) | ((b[p + 1] & 0xFFL) << 8) | ((b[p + 2] & 0xFFL) << 16) | ((b[p + 3] & 0xFFL) << 24);
    }

    static long u64(byte[] b, int p) {
        long hi = u32(b, p);
        if (hi > 0x7FFF_FFFFL) {
            return Long.MAX_VALUE;
        }
        return (hi << 32) | u32(b, p + 4);
    }

    static String printable(String type) {
        return type.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
