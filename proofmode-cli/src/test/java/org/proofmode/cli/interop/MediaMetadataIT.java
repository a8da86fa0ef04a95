// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.context.IdentifierHasher;
import org.proofmode.imaging.ImageHashes;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * The media fields of a proof agree with exiftool: photos tagged by exiftool in the test, a video and a
 * recording made by ffmpeg. And the pixel hash survives exiftool rewriting the metadata.
 */
class MediaMetadataIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void inspect_agreesWithExiftool_onAPhotoTaggedByExiftool() throws IOException {
        Path photo = taggedPhoto("tagged.jpg");
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        pm.run("settings", "set", "gpsd.port", "1");

        JsonNode ours = inspect(pm, photo, "--location", "--device-ids");
        JsonNode theirs = exiftool(photo);

        assertThat(text(ours, "EXIF.Make")).isEqualTo("Canon").isEqualTo(theirs.get("Make").asText());
        assertThat(text(ours, "EXIF.Model")).isEqualTo(theirs.get("Model").asText());
        assertThat(text(ours, "EXIF.Software")).isEqualTo(theirs.get("Software").asText());
        assertThat(text(ours, "EXIF.LensModel")).isEqualTo(theirs.get("LensModel").asText());
        assertThat(text(ours, "EXIF.Orientation")).isEqualTo(theirs.get("Orientation").asText());
        assertThat(text(ours, "EXIF.DateTimeOriginal")).isEqualTo(theirs.get("DateTimeOriginal").asText());
        assertThat(text(ours, "EXIF.OffsetTimeOriginal")).isEqualTo(theirs.get("OffsetTimeOriginal").asText());
        assertThat(text(ours, "Image.Width")).isEqualTo(theirs.get("ImageWidth").asText());
        assertThat(text(ours, "Image.Height")).isEqualTo(theirs.get("ImageHeight").asText());
        assertThat(Double.parseDouble(text(ours, "EXIF.GPSLatitude"))).isCloseTo(theirs.get("GPSLatitude").asDouble(), within(1e-6));
        assertThat(Double.parseDouble(text(ours, "EXIF.GPSLongitude"))).isCloseTo(theirs.get("GPSLongitude").asDouble(), within(1e-6));
        assertThat(Double.parseDouble(text(ours, "EXIF.GPSAltitude"))).isCloseTo(theirs.get("GPSAltitude").asDouble(), within(1e-6));
        assertThat(text(ours, "EXIF.GPSDateTime")).isEqualTo(exifTime(theirs.get("GPSDateTime").asText()));
        assertThat(text(ours, "EXIF.SerialNumber"))
                .isEqualTo(new IdentifierHasher(pm.home()).hash(IdentifierHasher.Kind.SERIAL, theirs.get("SerialNumber").asText()));
        assertThat(ours.toString()).doesNotContain(theirs.get("SerialNumber").asText());
        assertThat(text(ours, "XMP.CreatorTool")).isEqualTo(theirs.get("CreatorTool").asText());
        assertThat(text(ours, "IPTC.ObjectName")).isEqualTo(theirs.get("ObjectName").asText());
        assertThat(text(ours, "Location.Provider")).isEqualTo("media");
        assertThat(text(ours, "Location.Latitude")).isEqualTo(text(ours, "EXIF.GPSLatitude"));
        assertThat(text(ours, "Warning.Location")).contains("gpsd not reachable");
    }

    @Test
    void inspect_agreesWithExiftool_onTheIccProfileOfAPhoto() throws IOException {
        Path photo = taggedPhoto("icc.jpg");
        Path icc = java.nio.file.Files.write(dir.resolve("srgb.icc"),
                java.awt.color.ICC_Profile.getInstance(java.awt.color.ColorSpace.CS_sRGB).getData());
        run(List.of(ExternalTool.require("exiftool").toString(), "-q", "-overwrite_original", "-ICC_Profile<=" + icc, photo.toString()));

        JsonNode ours = inspect(ProofModeJar.at(dir.resolve("home")), photo);
        JsonNode theirs = exiftool(photo);

        assertThat(text(ours, "ICC.ProfileDescription")).isEqualTo(theirs.get("ProfileDescription").asText()).isNotBlank();
        assertThat(text(ours, "ICC.ColorSpaceData")).isEqualTo(theirs.get("ColorSpaceData").asText().strip());
    }

    @Test
    void inspect_recordsTheVideosGps_onlyWithLocation() throws IOException {
        Path video = dir.resolve("walk.mov");
        // The location key an iPhone writes into a QuickTime movie.
        run(List.of(ExternalTool.require("ffmpeg").toString(), "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                "testsrc=size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.location.ISO6709=+48.1173+011.5167+545.000/", video.toString()));
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        pm.run("settings", "set", "gpsd.port", "1");

        JsonNode off = inspect(pm, video);
        JsonNode on = inspect(pm, video, "--location");
        JsonNode theirs = exiftool(video);

        assertThat(off.has("Video.GPSLatitude")).isFalse();
        assertThat(off.toString()).doesNotContain("48.11");
        String[] coordinates = theirs.get("GPSCoordinates").asText().split(" ");
        assertThat(Double.parseDouble(text(on, "Video.GPSLatitude"))).isCloseTo(Double.parseDouble(coordinates[0]), within(1e-6));
        assertThat(Double.parseDouble(text(on, "Video.GPSLongitude"))).isCloseTo(Double.parseDouble(coordinates[1]), within(1e-6));
        assertThat(text(on, "Location.Provider")).isEqualTo("media");
    }

    @Test
    void inspect_recordsNoGpsAndNoSerial_withDefaultSettings() throws IOException {
        Path photo = taggedPhoto("tagged.jpg");

        JsonNode ours = inspect(ProofModeJar.at(dir.resolve("home")), photo);

        assertThat(text(ours, "EXIF.Make")).isEqualTo("Canon");
        List<String> names = new ArrayList<>();
        ours.fieldNames().forEachRemaining(names::add);
        assertThat(names).noneMatch(n -> n.contains("GPS") || n.startsWith("Location.") || n.contains("Serial"));
        assertThat(ours.toString()).doesNotContain("SN-0042-TEST").doesNotContain("48.1173");
    }

    @Test
    void inspect_agreesWithExiftool_onAVideoAndARecording() throws IOException {
        Path ffmpeg = ExternalTool.require("ffmpeg");
        Path video = dir.resolve("clip.mp4");
        Path audio = dir.resolve("voice.wav");
        run(List.of(ffmpeg.toString(), "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-ac", "2", "-metadata", "creation_time=2024-05-01T08:00:00Z", video.toString()));
        run(List.of(ffmpeg.toString(), "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=22050",
                "-t", "1.5", "-metadata", "title=Interview", audio.toString()));
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));

        JsonNode v = inspect(pm, video);
        JsonNode ve = exiftool(video);
        JsonNode a = inspect(pm, audio);
        JsonNode ae = exiftool(audio);

        assertThat(Double.parseDouble(text(v, "Video.Duration"))).isCloseTo(ve.get("Duration").asDouble(), within(0.01));
        assertThat(text(v, "Video.Width")).isEqualTo(ve.get("ImageWidth").asText());
        assertThat(text(v, "Video.Height")).isEqualTo(ve.get("ImageHeight").asText());
        assertThat(Double.parseDouble(text(v, "Video.FrameRate"))).isCloseTo(ve.get("VideoFrameRate").asDouble(), within(0.01));
        assertThat(text(v, "Video.CreationTime")).isEqualTo(exifTime(ve.get("CreateDate").asText() + "Z"));
        assertThat(text(v, "Video.Codec")).isEqualTo(Map.of("avc1", "H.264").get(ve.get("CompressorID").asText()));
        assertThat(text(v, "Audio.Channels")).isEqualTo(ve.get("AudioChannels").asText());
        assertThat(text(v, "Audio.SampleRate")).isEqualTo(ve.get("AudioSampleRate").asText());

        assertThat(Double.parseDouble(text(a, "Audio.Duration"))).isCloseTo(ae.get("Duration").asDouble(), within(0.01));
        assertThat(text(a, "Audio.SampleRate")).isEqualTo(ae.get("SampleRate").asText());
        assertThat(text(a, "Audio.Channels")).isEqualTo(ae.get("NumChannels").asText());
        assertThat(text(a, "Audio.BitsPerSample")).isEqualTo(ae.get("BitsPerSample").asText());
        assertThat(text(a, "Audio.Title")).isEqualTo(ae.get("Title").asText()).isEqualTo("Interview");
        assertThat(text(a, "Audio.Software")).isEqualTo(ae.get("Software").asText());
    }

    @Test
    void inspect_agreesWithFfprobeAndExiftool_onTheDurationAndTagsOfMp3Files() throws IOException {
        Path ffmpeg = ExternalTool.require("ffmpeg");
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Map<String, List<String>> encodings = Map.of(
                "cbr-info.mp3", List.of("-b:a", "128k"),
                "vbr-xing.mp3", List.of("-q:a", "4", "-id3v2_version", "3"),
                "cbr-bare.mp3", List.of("-b:a", "96k", "-write_xing", "0", "-id3v2_version", "0"));
        for (Map.Entry<String, List<String>> e : encodings.entrySet()) {
            Path mp3 = dir.resolve(e.getKey());
            List<String> cmd = new ArrayList<>(List.of(ffmpeg.toString(), "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=44100", "-t", "3.3", "-c:a", "libmp3lame"));
            cmd.addAll(e.getValue());
            cmd.addAll(List.of("-metadata", "title=Interview", "-metadata", "artist=Zoë Müller", "-metadata", "date=2024", mp3.toString()));
            run(cmd);

            JsonNode ours = inspect(pm, mp3);
            double theirs = Double.parseDouble(run(List.of(ExternalTool.require("ffprobe").toString(), "-v", "error", "-show_entries",
                    "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", mp3.toString())).stdout().strip());

            assertThat(Double.parseDouble(text(ours, "Audio.Duration"))).as(e.getKey()).isCloseTo(theirs, within(0.03));
            assertThat(text(ours, "Audio.SampleRate")).as(e.getKey()).isEqualTo("44100");
            JsonNode tags = exiftool(mp3);
            if (e.getKey().equals("cbr-bare.mp3")) {
                assertThat(tags.has("Title")).isFalse();
                assertThat(ours.has("Audio.Title")).isFalse();
            } else {
                assertThat(text(ours, "Audio.Title")).as(e.getKey()).isEqualTo(tags.get("Title").asText()).isEqualTo("Interview");
                assertThat(text(ours, "Audio.Artist")).as(e.getKey()).isEqualTo(tags.get("Artist").asText()).isEqualTo("Zoë Müller");
                assertThat(text(ours, "Audio.DateCreated")).as(e.getKey()).startsWith("2024");
                assertThat(text(ours, "Audio.Software")).as(e.getKey()).isEqualTo(tags.get("EncoderSettings").asText());
            }
        }
    }

    @Test
    void pixelHash_survivesExiftoolRewritingTheMetadata_butNotAnEditOfThePixels() throws Exception {
        Path photo = taggedPhoto("tagged.jpg");
        ImageHashes.Result before = ImageHashes.of(photo);
        Path exiftool = ExternalTool.require("exiftool");

        run(List.of(exiftool.toString(), "-q", "-overwrite_original", "-all=", "-Make=Nikon", "-Artist=Someone",
                "-DateTimeOriginal=2020:01:01 00:00:00", photo.toString()));
        ImageHashes.Result after = ImageHashes.of(photo);
        BufferedImage img = ImageIO.read(photo.toFile());
        img.setRGB(5, 5, img.getRGB(5, 5) ^ 0x00010101);
        Path edited = dir.resolve("edited.png");
        ImageIO.write(img, "png", edited.toFile());

        assertThat(exiftool(photo).get("Make").asText()).isEqualTo("Nikon");
        assertThat(after.pixelHash()).isEqualTo(before.pixelHash());
        assertThat(after.perceptualHash()).isEqualTo(before.perceptualHash());
        assertThat(ImageHashes.of(edited).pixelHash()).isNotEqualTo(before.pixelHash());
    }

    @Test
    void verify_showsTheContextAndWarns_whenTheCaptureIsAfterTheProofAndTheFixIsOlderThanTheMedia() throws IOException {
        Path photo = taggedPhoto("future.jpg");
        run(List.of(ExternalTool.require("exiftool").toString(), "-q", "-overwrite_original", "-DateTimeOriginal=2099:01:01 12:00:00",
                "-OffsetTimeOriginal=+00:00", "-GPSDateStamp=2099:01:01", "-GPSTimeStamp=11:00:00", photo.toString()));
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        pm.run("settings", "set", "gpsd.port", "1");
        ProcessResult proved = pm.run("prove", "--location", photo.toString());
        assertThat(proved.exitCode()).as(proved.describe()).isZero();

        ProcessResult human = pm.run("verify", photo.toString());
        ProcessResult json = pm.run("verify", "--json", photo.toString());

        assertThat(human.exitCode()).as(human.describe()).isZero();
        assertThat(human.stdout()).contains("TRUSTED", "WARN  context.captureTime.afterProof", "WARN  context.location.stale")
                .containsPattern("camera: +Canon EOS 5D Mark IV")
                .containsPattern("capture time: +2099-01-01T12:00:00Z")
                .containsPattern("location: +48\\.1173, 11\\.5167 \\(media, fix 2099-01-01T11:00:00Z\\)");
        assertThat(json.exitCode()).as(json.describe()).isZero();
        JsonNode report = JSON.readTree(json.stdout());
        JsonNode proof = report.at("/proofs/0");
        assertThat(report.get("verdict").asText()).isEqualTo("TRUSTED");
        assertThat(proof.at("/context/captureTime").asText()).isEqualTo("2099-01-01T12:00:00Z");
        assertThat(proof.at("/context/location").asText()).startsWith("48.1173, 11.5167");
        List<String> warnings = new ArrayList<>();
        proof.get("checks").forEach(c -> {
            if (c.get("status").asText().equals("WARN")) {
                warnings.add(c.get("code").asText());
            }
        });
        assertThat(warnings).contains("context.captureTime.afterProof", "context.location.stale");
    }

    /** A small photo-like JPEG tagged by exiftool with camera, lens, serial, times, GPS, XMP and IPTC. */
    private Path taggedPhoto(String name) throws IOException {
        BufferedImage img = new BufferedImage(320, 200, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        for (int y = 0; y < 200; y++) {
            g.setColor(new Color(y, 120, 255 - y));
            g.drawLine(0, y, 319, y);
        }
        g.setColor(Color.YELLOW);
        g.fillOval(60, 40, 120, 120);
        g.dispose();
        Path photo = dir.resolve(name);
        ImageIO.write(img, "jpeg", photo.toFile());
        run(List.of(ExternalTool.require("exiftool").toString(), "-q", "-overwrite_original", "-Make=Canon", "-Model=EOS 5D Mark IV",
                "-SerialNumber=SN-0042-TEST", "-LensModel=EF50mm f/1.8 STM", "-Software=Firmware 1.2.0",
                "-DateTimeOriginal=2024:05:01 10:00:00", "-OffsetTimeOriginal=+02:00", "-Orientation#=6",
                "-GPSLatitude=48.1173", "-GPSLatitudeRef=N", "-GPSLongitude=11.5167", "-GPSLongitudeRef=E", "-GPSAltitude=545",
                "-GPSAltitudeRef=0", "-GPSDateStamp=2024:05:01", "-GPSTimeStamp=08:00:00", "-XMP:CreatorTool=Darkroom 3",
                "-IPTC:ObjectName=Market square", photo.toString()));
        return photo;
    }

    private static JsonNode inspect(ProofModeJar pm, Path media, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("inspect", "--json"));
        args.addAll(List.of(options));
        args.add(media.toString());
        ProcessResult r = pm.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return JSON.readTree(r.stdout());
    }

    private static JsonNode exiftool(Path media) throws IOException {
        ProcessResult r = run(List.of(ExternalTool.require("exiftool").toString(), "-json", "-n", media.toString()));
        return JSON.readTree(r.stdout()).get(0);
    }

    private static ProcessResult run(List<String> command) {
        ProcessResult r = ExternalTool.run(command, Map.of(), TOOL_TIMEOUT);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r;
    }

    private static String text(JsonNode n, String field) {
        assertThat(n.has(field)).as(field + " in " + n).isTrue();
        return n.get(field).asText();
    }

    /** exiftool's {@code 2024:05:01 08:00:00Z} as ISO-8601. */
    private static String exifTime(String t) {
        return Instant.parse(t.replaceFirst("^(\\d{4}):(\\d{2}):(\\d{2}) ", "$1-$2-$3T")).toString();
    }
}
