// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The extension a collected media file is saved with: from its content type, else its address, else none. */
final class MediaNames {
    private static final Map<String, String> BY_TYPE = Map.ofEntries(Map.entry("image/jpeg", ".jpg"),
            Map.entry("image/png", ".png"), Map.entry("image/gif", ".gif"), Map.entry("image/webp", ".webp"),
            Map.entry("image/heic", ".heic"), Map.entry("image/avif", ".avif"), Map.entry("image/tiff", ".tif"),
            Map.entry("video/mp4", ".mp4"), Map.entry("video/quicktime", ".mov"), Map.entry("video/webm", ".webm"),
            Map.entry("audio/mpeg", ".mp3"), Map.entry("audio/mp4", ".m4a"), Map.entry("audio/ogg", ".ogg"),
            Map.entry("audio/wav", ".wav"), Map.entry("audio/x-wav", ".wav"), Map.entry("audio/flac", ".flac"));

    private MediaNames() {}

    /** A safe extension (a dot, then one to five lower-case letters or digits), or none. */
    static String extension(URI uri, Optional<String> contentType) {
        Optional<String> byType = contentType.map(t -> t.split(";", 2)[0].trim().toLowerCase(Locale.ROOT)).map(BY_TYPE::get);
        if (byType.isPresent()) {
            return byType.get();
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        int dot = path.lastIndexOf('.');
        String ext = dot < 0 || path.indexOf('/', dot) >= 0 ? "" : path.substring(dot).toLowerCase(Locale.ROOT);
        return ext.matches("\\.[a-z0-9]{1,5}") ? ext : "";
    }
}
