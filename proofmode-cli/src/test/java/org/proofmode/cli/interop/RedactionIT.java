// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.ProcessResult;

/**
 * Redaction as users run it, checked by independent tools: exiftool finds none of the stripped metadata
 * (and no thumbnail) in the copy, gpg verifies the record's signature, and OpenCV finds the face in a
 * photo from Debian's opencv-doc.
 */
class RedactionIT {
    /** A photo with faces, shipped by Debian's opencv-doc (installed by .ci/run). */
    static final Path FACES = Path.of("/usr/share/doc/opencv-doc/examples/data/messi5.jpg");
    /** Centre of the player's face in that photo. */
    private static final int FACE_X = 245;
    private static final int FACE_Y = 112;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);
    /** exiftool groups a copy stripped of everything may still show: the file system, the encoding, exiftool itself. */
    private static final Set<String> STRUCTURAL_GROUPS = Set.of("ExifTool", "System", "File", "JFIF", "Composite");

    @TempDir
    Path dir;

    @Test
    void stripAll_leavesExiftoolNothingToFind_noThumbnailNoGpsNoCameraNoXmpNoIptcNoComment() throws IOException {
        Path photo = taggedPhoto();
        JsonNode before = exiftool(photo);
        assertThat(before.has("IFD1:ThumbnailImage")).as("the test photo has a thumbnail").isTrue();
        assertThat(before.has("GPS:GPSLatitude") && before.has("XMP-xmpMM:HistoryAction") && before.has("IPTC:ObjectName")
                && before.has("File:Comment") && before.has("ExifIFD:SerialNumber")).as(before.toString()).isTrue();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        assertThat(pm.run("prove", photo.toString()).exitCode()).isZero();
        Path out = dir.resolve("public.jpg");

        ProcessResult r = pm.run("redact", photo.toString(), "-o", out.toString(), "--pixelate", "20,20,100,60");

        assertThat(r.exitCode()).as(r.describe()).isZero();
        JsonNode after = exiftool(out);
        assertThat(groups(after)).as(after.toString()).isSubsetOf(STRUCTURAL_GROUPS);
        assertThat(after.toString()).doesNotContain("SN-0042", "Canon", "Alice", "Darkroom", "Market square", "secret note",
                "xmp.did:", "48.1173");
        // The orientation was applied to the pixels: 320x240 stored, turned a quarter, shown 240x320, and no tag left.
        assertThat(after.get("File:ImageWidth").asInt()).isEqualTo(240);
        assertThat(after.get("File:ImageHeight").asInt()).isEqualTo(320);
        ProcessResult v = pm.run("verify", "--original", photo.toString(), out.toString());
        assertThat(v.exitCode()).as(v.describe()).isZero();
        assertThat(v.stdout()).contains("PASS  redaction.outside.unchanged", "PASS  redaction.inside.changed",
                "PASS  redaction.original.proofValid");
        String record = Files.readString(pm.proofFolder(TestMedia.sha256(out)).resolve(TestMedia.sha256(out) + ".redaction.json"));
        assertThat(record).contains("Exif Thumbnail", "GPS: ", "XMP", "IPTC", "\"orientation\" : 6");
    }

    @Test
    void c2pa_manifestCarriesNoStrippedMetadata_andNoDeviceFieldsEvenWhenTheExifKeepsThem() throws IOException {
        Path photo = taggedPhoto();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        assertThat(pm.run("prove", photo.toString()).exitCode()).isZero();
        Path all = dir.resolve("public.jpg");
        Path keepDevice = dir.resolve("keep-device.jpg");

        ProcessResult r = pm.run("redact", "--c2pa", photo.toString(), "-o", all.toString(), "--pixelate", "20,20,100,60");
        ProcessResult d = pm.run("redact", "--c2pa", "--strip", "location", photo.toString(), "-o", keepDevice.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(d.exitCode()).as(d.describe()).isZero();
        JsonNode after = exiftool(all);
        Set<String> groups = groups(after);
        assertThat(groups).as(after.toString()).contains("JUMBF", "CBOR");
        groups.removeAll(Set.of("JUMBF", "CBOR"));
        assertThat(groups).as(after.toString()).isSubsetOf(STRUCTURAL_GROUPS);
        assertThat(after.get("CBOR:Relationship").asText()).isEqualTo("parentOf");
        assertThat(after.toString()).doesNotContain("SN-0042", "Canon", "EOS", "Alice", "Darkroom", "Market square", "secret note",
                "xmp.did:", "48.1173", "48,7", "2024:05:01", "tagged.jpg");
        JsonNode device = exiftool(keepDevice);
        assertThat(device.get("IFD0:Make").asText()).isEqualTo("Canon");
        StringBuilder manifest = new StringBuilder();
        device.properties().forEach(e -> {
            if (e.getKey().startsWith("JUMBF:") || e.getKey().startsWith("CBOR:")) {
                manifest.append(e.getKey()).append('=').append(e.getValue()).append('\n');
            }
        });
        assertThat(manifest.toString()).contains("parentOf").doesNotContain("Canon", "EOS", "SN-0042", "Alice", "2024:05:01", "tagged.jpg");
        ProcessResult v = pm.run("verify", "--original", photo.toString(), all.toString());
        assertThat(v.exitCode()).as(v.describe()).isZero();
        assertThat(v.stdout()).contains("PASS  redaction.outside.unchanged", "PASS  c2pa.claimSignature.validated",
                "PASS  c2pa.assertion.dataHash.match");
    }

    @Test
    void stripLocation_keepsCameraFields_stripDevice_keepsGps_neitherKeepsTheThumbnail() throws IOException {
        Path photo = taggedPhoto();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path noLocation = dir.resolve("no-location.jpg");
        Path noDevice = dir.resolve("no-device.jpg");

        assertThat(pm.run("redact", "--strip", "location", photo.toString(), "-o", noLocation.toString()).exitCode()).isZero();
        assertThat(pm.run("redact", "--strip", "device", photo.toString(), "-o", noDevice.toString()).exitCode()).isZero();

        JsonNode a = exiftool(noLocation);
        assertThat(a.get("IFD0:Make").asText()).isEqualTo("Canon");
        assertThat(a.get("ExifIFD:SerialNumber").asText()).isEqualTo("SN-0042-TEST");
        assertThat(a.get("ExifIFD:DateTimeOriginal").asText()).isEqualTo("2024:05:01 10:00:00");
        JsonNode b = exiftool(noDevice);
        assertThat(b.get("GPS:GPSLatitude").asDouble()).isBetween(48.1172, 48.1174);
        assertThat(b.has("IFD0:Make") || b.has("IFD0:Model") || b.has("ExifIFD:SerialNumber") || b.has("ExifIFD:OwnerName")
                || b.has("IFD0:Software")).as(b.toString()).isFalse();
        for (JsonNode n : List.of(a, b)) {
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            assertThat(names).as(n.toString()).noneMatch(f -> f.startsWith("IFD1:") || f.contains("Thumbnail") || f.contains("Preview")
                    || f.startsWith("XMP") || f.startsWith("IPTC") || f.equals("File:Comment") || f.endsWith(":Orientation"));
        }
        assertThat(a.toString()).doesNotContain("GPS");
    }

    @Test
    void gpg_verifiesTheRedactionRecordSignature_andRejectsAnEditedRecord() throws IOException {
        Path photo = taggedPhoto();
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path out = dir.resolve("public.jpg");
        assertThat(pm.run("redact", photo.toString(), "-o", out.toString(), "--fill", "0,0,50,50").exitCode()).isZero();
        String h = TestMedia.sha256(out);
        Path folder = pm.proofFolder(h);
        Path record = folder.resolve(h + ".redaction.json");
        Path edited = dir.resolve("edited.redaction.json");
        Files.writeString(edited, Files.readString(record).replace("\"fill\"", "\"blur\""));

        try (Gpg gpg = Gpg.create(dir)) {
            gpg.importKey(folder.resolve("pubkey.asc"));
            ProcessResult good = gpg.verify(folder.resolve(h + ".redaction.json.asc"), record);
            ProcessResult bad = gpg.verify(folder.resolve(h + ".redaction.json.asc"), edited);
            assertThat(good.exitCode()).as(good.describe()).isZero();
            assertThat(good.stderr()).contains("Good signature");
            assertThat(bad.exitCode()).isNotZero();
            assertThat(bad.stderr()).contains("BAD signature");
        }
    }

    @Test
    void faces_findsThePlayersFace_andDryRunListsItWithoutWriting() throws IOException {
        if (!Files.isRegularFile(FACES)) {
            fail(FACES + " is missing; install Debian's opencv-doc (and opencv-data for the model); .ci/run does");
        }
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path out = dir.resolve("faces.jpg");

        ProcessResult r = pm.run("redact", "--faces", "--dry-run", FACES.toString(), "-o", out.toString());

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(boxesTheFace(r.stdout())).as("a face box around the face centre in:\n" + r.stdout()).isTrue();
        assertThat(r.stderr()).contains("found; detection misses faces", "dry run: nothing written");
        assertThat(out).doesNotExist();

        ProcessResult written = pm.run("redact", "--faces", "--face-method", "blur", FACES.toString(), "-o", out.toString());
        assertThat(written.exitCode()).as(written.describe()).isZero();
        ProcessResult v = pm.run("verify", "--original", FACES.toString(), out.toString());
        assertThat(v.stdout()).contains("PASS  redaction.outside.unchanged", "PASS  redaction.inside.changed", "WARN  redaction.original.proofMissing");
    }

    /** Whether {@code redact --faces} printed a box of at most 100×100 around the face centre in {@link #FACES}. */
    static boolean boxesTheFace(String stdout) {
        Matcher m = Pattern.compile("region \\d+  pixelate  (\\d+),(\\d+),(\\d+),(\\d+)  face").matcher(stdout);
        boolean found = false;
        while (m.find()) {
            int x = Integer.parseInt(m.group(1));
            int y = Integer.parseInt(m.group(2));
            int w = Integer.parseInt(m.group(3));
            int h = Integer.parseInt(m.group(4));
            found |= x <= FACE_X && FACE_X < x + w && y <= FACE_Y && FACE_Y < y + h && w <= 100 && h <= 100;
        }
        return found;
    }

    /**
     * A photo tagged by exiftool with everything redaction must remove: GPS, make, model, serial, owner,
     * software, XMP history and document IDs, IPTC, a comment, an EXIF thumbnail of the unredacted picture,
     * and orientation 6.
     */
    private Path taggedPhoto() throws IOException {
        BufferedImage img = new BufferedImage(320, 240, BufferedImage.TYPE_INT_RGB);
        Random rnd = new Random(42);
        for (int y = 0; y < 240; y++) {
            for (int x = 0; x < 320; x++) {
                img.setRGB(x, y, (x * 255 / 320) << 16 | (y + rnd.nextInt(16)) << 8 | 140);
            }
        }
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.drawString("NAME: MARIA EXAMPLE", 24, 60);
        g.setColor(Color.YELLOW);
        g.fillOval(150, 100, 80, 80);
        g.dispose();
        Path photo = dir.resolve("tagged.jpg");
        ImageIO.write(img, "jpeg", photo.toFile());
        BufferedImage small = new BufferedImage(160, 120, BufferedImage.TYPE_INT_RGB);
        Graphics2D t = small.createGraphics();
        t.drawImage(img, 0, 0, 160, 120, null);
        t.dispose();
        Path thumb = dir.resolve("thumb.jpg");
        ImageIO.write(small, "jpeg", thumb.toFile());
        run(List.of(ExternalTool.require("exiftool").toString(), "-q", "-overwrite_original", "-Make=Canon", "-Model=EOS 5D Mark IV",
                "-SerialNumber=SN-0042-TEST", "-OwnerName=Alice Example", "-Software=Firmware 1.2.0",
                "-DateTimeOriginal=2024:05:01 10:00:00", "-Orientation#=6",
                "-GPSLatitude=48.1173", "-GPSLatitudeRef=N", "-GPSLongitude=11.5167", "-GPSLongitudeRef=E",
                "-XMP:CreatorTool=Darkroom 3", "-XMP-xmpMM:DocumentID=xmp.did:0815", "-XMP-xmpMM:InstanceID=xmp.iid:0816",
                "-XMP-xmpMM:HistoryAction=saved", "-XMP-xmpMM:HistorySoftwareAgent=Darkroom 3",
                "-IPTC:ObjectName=Market square", "-Comment=secret note", "-ThumbnailImage<=" + thumb, photo.toString()));
        return photo;
    }

    /** The exiftool groups of a {@code -G1} listing. */
    private static Set<String> groups(JsonNode listing) {
        Set<String> groups = new TreeSet<>();
        listing.fieldNames().forEachRemaining(f -> {
            if (!f.equals("SourceFile")) {
                groups.add(f.contains(":") ? f.substring(0, f.indexOf(':')) : f);
            }
        });
        return groups;
    }

    private static JsonNode exiftool(Path media) throws IOException {
        ProcessResult r = run(List.of(ExternalTool.require("exiftool").toString(), "-json", "-a", "-G1", "-n", "-b", media.toString()));
        return JSON.readTree(r.stdout()).get(0);
    }

    private static ProcessResult run(List<String> command) {
        ProcessResult r = ExternalTool.run(command, Map.of(), TOOL_TIMEOUT);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r;
    }
}
