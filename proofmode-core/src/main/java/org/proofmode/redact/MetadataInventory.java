// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import com.drew.imaging.ImageMetadataReader;
import com.drew.imaging.ImageProcessingException;
import com.drew.metadata.Directory;
import com.drew.metadata.Metadata;
import com.drew.metadata.Tag;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lists the metadata an image file carries, by directory and tag name as metadata-extractor reads it,
 * leaving out what only describes the encoding (JPEG, JFIF, Huffman tables, PNG header chunks).
 */
final class MetadataInventory {
    /** Directories that describe the encoding, not the picture's story. */
    private static final Set<String> STRUCTURAL = Set.of("JPEG", "JFIF", "Huffman", "File Type", "File", "PNG-IHDR",
            "PNG-pHYs", "PNG-sRGB", "PNG-gAMA", "PNG-cHRM", "PNG-bKGD", "PNG-tRNS", "PNG-sBIT");
    private static final int MAX_TAGS_LISTED = 40;

    private final Map<String, Set<String>> tags;

    private MetadataInventory(Map<String, Set<String>> tags) {
        this.tags = tags;
    }

    /** Reads a file's metadata; a file whose metadata cannot be read is listed as {@code (unreadable metadata)}. */
    static MetadataInventory of(byte[] file) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        try {
            Metadata m = ImageMetadataReader.readMetadata(new ByteArrayInputStream(file), file.length);
            for (Directory d : m.getDirectories()) {
                if (STRUCTURAL.contains(d.getName())) {
                    continue;
                }
                Set<String> names = out.computeIfAbsent(d.getName(), k -> new LinkedHashSet<>());
                for (Tag t : d.getTags()) {
                    names.add(t.getTagName());
                }
            }
        } catch (ImageProcessingException | IOException | RuntimeException e) {
            out.put("(unreadable metadata)", new LinkedHashSet<>());
        }
        return new MetadataInventory(out);
    }

    /** What this file carries and {@code other} does not, one line per directory. */
    List<String> minus(MetadataInventory other) {
        List<String> lines = new ArrayList<>();
        tags.forEach((dir, names) -> {
            Set<String> left = new LinkedHashSet<>(names);
            left.removeAll(other.tags.getOrDefault(dir, Set.of()));
            if (!left.isEmpty() || (names.isEmpty() && !other.tags.containsKey(dir))) {
                lines.add(line(dir, left));
            }
        });
        return lines;
    }

    /** Everything, one line per directory. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        tags.forEach((dir, names) -> lines.add(line(dir, names)));
        return lines;
    }

    private static String line(String dir, Set<String> names) {
        if (names.isEmpty()) {
            return dir;
        }
        List<String> shown = names.stream().limit(MAX_TAGS_LISTED).toList();
        return dir + ": " + String.join(", ", shown) + (names.size() > shown.size() ? ", and " + (names.size() - shown.size()) + " more" : "");
    }
}
