// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import com.drew.imaging.ImageMetadataReader;
import com.drew.imaging.ImageProcessingException;
import com.drew.lang.GeoLocation;
import com.drew.lang.Rational;
import com.drew.metadata.Directory;
import com.drew.metadata.Metadata;
import com.drew.metadata.bmp.BmpHeaderDirectory;
import com.drew.metadata.exif.ExifIFD0Directory;
import com.drew.metadata.exif.ExifSubIFDDirectory;
import com.drew.metadata.exif.GpsDirectory;
import com.drew.metadata.gif.GifHeaderDirectory;
import com.drew.metadata.icc.IccDirectory;
import com.drew.metadata.iptc.IptcDirectory;
import com.drew.metadata.jpeg.JpegDirectory;
import com.drew.metadata.png.PngDirectory;
import com.drew.metadata.webp.WebpDirectory;
import com.drew.metadata.xmp.XmpDirectory;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.media.Id3;
import org.proofmode.media.JpegStructure;
import org.proofmode.media.Mp3Frames;
import org.proofmode.media.Riff;
import org.proofmode.media.TagText;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/**
 * What the media says about itself, read with metadata-extractor: EXIF ({@code EXIF.Make},
 * {@code EXIF.DateTimeOriginal} with its offset, lens, software, orientation, GPS), XMP, IPTC and ICC
 * fields of images, the image's dimensions, and the tracks of QuickTime/MP4 video and of audio files
 * ({@code Video.*}, {@code Audio.*}; for MP3 also the ID3 text tags and the duration, read by
 * {@code Id3} and {@code Mp3Frames}). Values are copied as the media writes them, so they can be
 * compared with {@code exiftool -n}; times that carry no zone stay as written.
 *
 * <p>Only the metadata blocks are read: readers stop at the image data and skip over media data, so a
 * large video costs a few reads, not a pass over the file.
 *
 * <p>Privacy: GPS tags are recorded only when location is on; serial numbers only when device
 * identifiers are on, and then only as keyed hashes.
 */
public final class MediaMetadataSource implements MetadataSource {
    private static final Map<String, String> XMP_FIELDS = new LinkedHashMap<>();

    static {
        XMP_FIELDS.put("xmp:CreatorTool", "XMP.CreatorTool");
        XMP_FIELDS.put("xmp:CreateDate", "XMP.CreateDate");
        XMP_FIELDS.put("xmp:ModifyDate", "XMP.ModifyDate");
        XMP_FIELDS.put("photoshop:DateCreated", "XMP.DateCreated");
        XMP_FIELDS.put("tiff:Make", "XMP.Make");
        XMP_FIELDS.put("tiff:Model", "XMP.Model");
    }

    private final boolean location;
    private final Optional<IdentifierHasher> ids;

    /**
     * A media source.
     *
     * @param location whether GPS tags may be recorded
     * @param ids hashes serial numbers; present only when device identifiers are on
     */
    public MediaMetadataSource(boolean location, Optional<IdentifierHasher> ids) {
        this.location = location;
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    @Override
    public String name() {
        return "Media";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder r) throws IOException, ImageProcessingException {
        if (media.type().mimeType().equals("image/jpeg")) {
            Optional<String> broken = JpegStructure.problem(media.path());
            if (broken.isPresent()) {
                r.warn(name(), "not a well-formed JPEG (" + broken.get() + "); its metadata is not read");
                return;
            }
        }
        Metadata m;
        long skipped;
        try (InputStream raw = Files.newInputStream(media.path()); InputStream in = new BufferedInputStream(raw, 1 << 16)) {
            if (media.type().mimeType().equals("audio/mpeg")) {
                Map<String, String> tags = new LinkedHashMap<>();
                skipped = Id3.readTag(in, tags);
                tags.forEach(r::put);
            } else {
                skipped = 0;
            }
            try {
                m = ImageMetadataReader.readMetadata(in, media.size() - skipped);
            } catch (ImageProcessingException e) {
                if (String.valueOf(e.getMessage()).contains("could not be determined")) {
                    return; // a format metadata-extractor does not read (FLAC, Ogg, Matroska...): nothing to add
                }
                throw e;
            }
        }
        exif(m, r);
        dimensions(m, r);
        xmp(m, r);
        iptc(m, r);
        icc(m, r);
        AvTracks.contribute(m, media, location, r);
        if (media.type().mimeType().equals("audio/wav")) {
            Riff.wavDuration(media.path()).ifPresent(d -> r.put("Audio.Duration", AvTracks.seconds(d)));
        } else if (media.type().mimeType().equals("audio/mpeg")) {
            Mp3Frames.duration(media.path(), skipped, media.size()).ifPresent(d -> r.put("Audio.Duration", AvTracks.seconds(d)));
        }
    }

    private void exif(Metadata m, ProofRecord.Builder r) {
        ExifIFD0Directory ifd0 = m.getFirstDirectoryOfType(ExifIFD0Directory.class);
        if (ifd0 != null) {
            put(r, "EXIF.Make", ifd0, ExifIFD0Directory.TAG_MAKE);
            put(r, "EXIF.Model", ifd0, ExifIFD0Directory.TAG_MODEL);
            put(r, "EXIF.Software", ifd0, ExifIFD0Directory.TAG_SOFTWARE);
            put(r, "EXIF.Orientation", ifd0, ExifIFD0Directory.TAG_ORIENTATION);
            put(r, "EXIF.ModifyDate", ifd0, ExifIFD0Directory.TAG_DATETIME);
        }
        ExifSubIFDDirectory sub = m.getFirstDirectoryOfType(ExifSubIFDDirectory.class);
        if (sub != null) {
            put(r, ContextFields.EXIF_DATE_TIME_ORIGINAL, sub, ExifSubIFDDirectory.TAG_DATETIME_ORIGINAL);
            put(r, ContextFields.EXIF_OFFSET_TIME_ORIGINAL, sub, ExifSubIFDDirectory.TAG_TIME_ZONE_ORIGINAL);
            put(r, "EXIF.SubSecTimeOriginal", sub, ExifSubIFDDirectory.TAG_SUBSECOND_TIME_ORIGINAL);
            put(r, "EXIF.CreateDate", sub, ExifSubIFDDirectory.TAG_DATETIME_DIGITIZED);
            put(r, "EXIF.LensMake", sub, ExifSubIFDDirectory.TAG_LENS_MAKE);
            put(r, "EXIF.LensModel", sub, ExifSubIFDDirectory.TAG_LENS_MODEL);
            if (ids.isPresent()) {
                hashed(r, "EXIF.SerialNumber", sub, ExifSubIFDDirectory.TAG_BODY_SERIAL_NUMBER);
                hashed(r, "EXIF.LensSerialNumber", sub, ExifSubIFDDirectory.TAG_LENS_SERIAL_NUMBER);
            }
        }
        GpsDirectory gps = m.getFirstDirectoryOfType(GpsDirectory.class);
        if (location && gps != null) {
            GeoLocation g = gps.getGeoLocation();
            if (g != null && !g.isZero()) {
                r.put(ContextFields.EXIF_GPS_LATITUDE, Fix.decimal(g.getLatitude()));
                r.put(ContextFields.EXIF_GPS_LONGITUDE, Fix.decimal(g.getLongitude()));
            }
            Rational alt = gps.getRational(GpsDirectory.TAG_ALTITUDE);
            if (alt != null) {
                Integer ref = gps.getInteger(GpsDirectory.TAG_ALTITUDE_REF);
                r.put(ContextFields.EXIF_GPS_ALTITUDE, Fix.decimal((ref != null && ref == 1 ? -1 : 1) * alt.doubleValue()));
            }
            Date when = gps.getGpsDate();
            if (when != null) {
                r.put(ContextFields.EXIF_GPS_DATE_TIME, ProofTimes.format(when.toInstant()));
            }
        }
    }

    private static void dimensions(Metadata m, ProofRecord.Builder r) {
        int[][] tags = {
            {JpegDirectory.TAG_IMAGE_WIDTH, JpegDirectory.TAG_IMAGE_HEIGHT},
            {PngDirectory.TAG_IMAGE_WIDTH, PngDirectory.TAG_IMAGE_HEIGHT},
            {GifHeaderDirectory.TAG_IMAGE_WIDTH, GifHeaderDirectory.TAG_IMAGE_HEIGHT},
            {BmpHeaderDirectory.TAG_IMAGE_WIDTH, BmpHeaderDirectory.TAG_IMAGE_HEIGHT},
            {WebpDirectory.TAG_IMAGE_WIDTH, WebpDirectory.TAG_IMAGE_HEIGHT},
            {ExifIFD0Directory.TAG_IMAGE_WIDTH, ExifIFD0Directory.TAG_IMAGE_HEIGHT},
            {ExifSubIFDDirectory.TAG_EXIF_IMAGE_WIDTH, ExifSubIFDDirectory.TAG_EXIF_IMAGE_HEIGHT}};
        List<Class<? extends Directory>> kinds = List.of(JpegDirectory.class,
                PngDirectory.class, GifHeaderDirectory.class,
                BmpHeaderDirectory.class, WebpDirectory.class,
                ExifIFD0Directory.class, ExifSubIFDDirectory.class);
        for (int i = 0; i < kinds.size(); i++) {
            Directory d = m.getFirstDirectoryOfType(kinds.get(i));
            if (d != null && d.getInteger(tags[i][0]) != null && d.getInteger(tags[i][1]) != null) {
                r.put(ContextFields.IMAGE_WIDTH, d.getInteger(tags[i][0]).toString());
                r.put(ContextFields.IMAGE_HEIGHT, d.getInteger(tags[i][1]).toString());
                return;
            }
        }
    }

    private static void xmp(Metadata m, ProofRecord.Builder r) {
        XmpDirectory x = m.getFirstDirectoryOfType(XmpDirectory.class);
        if (x == null) {
            return;
        }
        Map<String, String> props = x.getXmpProperties();
        XMP_FIELDS.forEach((prop, field) -> {
            String v = props.get(prop);
            if (v != null && !v.isBlank()) {
                r.put(field, TagText.clean(v));
            }
        });
    }

    private static void iptc(Metadata m, ProofRecord.Builder r) {
        IptcDirectory d = m.getFirstDirectoryOfType(IptcDirectory.class);
        if (d != null) {
            put(r, "IPTC.ObjectName", d, IptcDirectory.TAG_OBJECT_NAME);
            put(r, "IPTC.Caption-Abstract", d, IptcDirectory.TAG_CAPTION);
            put(r, "IPTC.DateCreated", d, IptcDirectory.TAG_DATE_CREATED);
            put(r, "IPTC.TimeCreated", d, IptcDirectory.TAG_TIME_CREATED);
        }
    }

    private static void icc(Metadata m, ProofRecord.Builder r) {
        IccDirectory d = m.getFirstDirectoryOfType(IccDirectory.class);
        if (d != null) {
            String desc = d.getDescription(IccDirectory.TAG_TAG_desc);
            if (desc != null && !desc.isBlank()) {
                r.put("ICC.ProfileDescription", TagText.clean(desc));
            }
            put(r, "ICC.ColorSpaceData", d, IccDirectory.TAG_COLOR_SPACE);
        }
    }

    private void hashed(ProofRecord.Builder r, String field, Directory d, int tag) {
        String v = d.getString(tag);
        if (v != null && !v.isBlank()) {
            r.put(field, ids.orElseThrow().hash(IdentifierHasher.Kind.SERIAL, v));
        }
    }

    static void put(ProofRecord.Builder r, String field, Directory d, int tag) {
        String v = d.getString(tag);
        if (v != null && !v.isBlank()) {
            r.put(field, TagText.clean(v));
        }
    }
}
