// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.i18n.Texts;
import org.proofmode.imaging.Picture;
import org.proofmode.imaging.StreamHashes;

/**
 * Key frames of a video for a report: its first frame, the one in the middle and one near the end, decoded
 * by FFmpeg (as the frame hashes are). The bundle's entry is copied to an owner-only temporary file for
 * FFmpeg and removed at once; a video larger than {@link #MAX_BYTES}, or one FFmpeg cannot read (or no
 * FFmpeg), gets no pictures: the report then just shows none.
 */
final class KeyFrames {
    /** Larger videos get no key frames (the copy would take too long). */
    static final long MAX_BYTES = 1L << 30;

    private KeyFrames() {}

    static List<Block.Picture> of(BundleEntry video, Texts x) {
        if (!StreamHashes.available() || video.size() > MAX_BYTES) {
            return List.of();
        }
        Path copy = null;
        try {
            copy = Files.createTempFile("proofmode-video", ".media"); // owner-only on POSIX systems
            try (InputStream in = video.open()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            Optional<Double> seconds = StreamHashes.probe(copy).seconds();
            List<Double> times = new ArrayList<>(List.of(0.0));
            seconds.filter(s -> s > 1).ifPresent(s -> {
                times.add(Math.floor(s * 500) / 1000);
                times.add(Math.floor(s * 900) / 1000);
            });
            List<Block.Picture> out = new ArrayList<>();
            for (double t : times) {
                byte[] jpeg = StreamHashes.frameJpeg(copy, t, ReportItem.THUMBNAIL_SIDE);
                Picture p = Picture.decode(jpeg);
                out.add(new Block.Picture(jpeg, p.width(), p.height(), x.get("report.frame", String.format(Locale.ROOT, "%.1f", t), video.fileName(),
                        Integer.toString(p.width()), Integer.toString(p.height()))));
            }
            return out;
        } catch (IOException | StreamHashes.NotHashed | Picture.Undecodable e) {
            return List.of();
        } finally {
            if (copy != null) {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    // left to the system's cleaning of temporary files
                }
            }
        }
    }
}
