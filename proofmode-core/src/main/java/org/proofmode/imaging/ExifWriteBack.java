// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.commons.imaging.Imaging;
import org.apache.commons.imaging.ImagingException;
import org.apache.commons.imaging.common.ImageMetadata;
import org.apache.commons.imaging.formats.jpeg.JpegImageMetadata;
import org.apache.commons.imaging.formats.jpeg.exif.ExifRewriter;
import org.apache.commons.imaging.formats.tiff.TiffField;
import org.apache.commons.imaging.formats.tiff.TiffImageMetadata;
import org.apache.commons.imaging.formats.tiff.write.TiffOutputDirectory;
import org.apache.commons.imaging.formats.tiff.write.TiffOutputField;
import org.apache.commons.imaging.formats.tiff.write.TiffOutputSet;

/**
 * Writes chosen EXIF fields of an original into a freshly encoded JPEG (which has none): a new EXIF
 * block is built from an allow-list ({@link ExifGroup}), field by field, so nothing else of the original's
 * EXIF can come along, in particular not its thumbnail (IFD1) or maker note.
 */
public final class ExifWriteBack {
    /**
     * The result.
     *
     * @param jpeg the JPEG with the new EXIF block (or unchanged when nothing was kept)
     * @param kept the names of the fields written, such as {@code Make}
     */
    public record Result(byte[] jpeg, List<String> kept) {
        /** Validates and copies the fields. */
        public Result {
            Objects.requireNonNull(jpeg, "jpeg");
            kept = List.copyOf(kept);
        }
    }

    private ExifWriteBack() {}

    /**
     * Copies the allowed fields.
     *
     * @param original the original file (EXIF is read from a JPEG original only)
     * @param encoded the new JPEG, without EXIF
     * @param groups the groups to keep; empty keeps nothing
     * @throws IOException if the new JPEG cannot be rewritten
     */
    public static Result copy(byte[] original, byte[] encoded, Set<ExifGroup> groups) throws IOException {
        if (groups.isEmpty()) {
            return new Result(encoded, List.of());
        }
        TiffImageMetadata exif = exifOf(original);
        if (exif == null) {
            return new Result(encoded, List.of());
        }
        ByteOrder order = exif.contents.header.byteOrder;
        TiffOutputSet set = new TiffOutputSet(order);
        List<String> kept = new ArrayList<>();
        for (TiffField f : exif.getAllFields()) {
            int dir = f.getDirectoryType();
            if (groups.stream().noneMatch(g -> g.has(dir, f.getTag()))) {
                continue;
            }
            TiffOutputDirectory d = switch (dir) {
                case ExifGroup.ROOT -> set.getOrCreateRootDirectory();
                case ExifGroup.EXIF -> set.getOrCreateExifDirectory();
                default -> set.getOrCreateGpsDirectory();
            };
            if (d.findField(f.getTag()) != null) {
                continue;
            }
            d.add(new TiffOutputField(f.getTag(), f.getTagInfo(), f.getFieldType(), (int) f.getCount(), f.getByteArrayValue()));
            kept.add(f.getTagName());
        }
        if (kept.isEmpty()) {
            return new Result(encoded, List.of());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length + 4096);
        try {
            new ExifRewriter(order).updateExifMetadataLossy(encoded, out, set);
        } catch (ImagingException e) {
            throw new IOException("cannot write EXIF: " + e.getMessage(), e);
        }
        return new Result(out.toByteArray(), kept);
    }

    private static TiffImageMetadata exifOf(byte[] original) {
        try {
            ImageMetadata m = Imaging.getMetadata(original);
            return m instanceof JpegImageMetadata j ? j.getExif() : null;
        } catch (IOException | RuntimeException e) {
            // An unreadable EXIF block is not carried over: nothing to keep.
            return null;
        }
    }
}
