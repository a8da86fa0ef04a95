// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.proofmode.TestHomes;

class MediaSnifferTest {
    @TempDir
    Path dir;

    @Test
    void sniff_jpeg_repositoryPhoto() throws IOException {
        // A whole JPEG (JFIF, then EXIF); the Exif-first header of phone photos is among the minimal headers below.
        assertThat(MediaSniffer.sniff(TestHomes.examplePhoto())).contains(new MediaType(MediaKind.IMAGE, "image/jpeg"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"png, image/png", "jpeg, image/jpeg", "gif, image/gif", "bmp, image/bmp", "tiff, image/tiff"})
    void sniff_image_filesWrittenByImageIo(String format, String mime) throws IOException {
        BufferedImage img = new BufferedImage(8, 6, BufferedImage.TYPE_INT_RGB);
        img.setRGB(3, 2, 0x336699);
        Path file = dir.resolve("image." + format);
        assertThat(ImageIO.write(img, format, file.toFile())).as("ImageIO writes %s", format).isTrue();

        assertThat(MediaSniffer.sniff(file)).contains(new MediaType(MediaKind.IMAGE, mime));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"WAVE, audio/wav", "AIFF, audio/aiff"})
    void sniff_audio_filesWrittenByJavaSound(String type, String mime) throws IOException {
        AudioFormat format = new AudioFormat(8000f, 16, 1, true, false);
        byte[] pcm = new byte[1600];
        Path file = dir.resolve("sound." + type.toLowerCase(Locale.ROOT));
        try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(pcm), format, pcm.length / 2)) {
            AudioSystem.write(in, type.equals("WAVE") ? AudioFileFormat.Type.WAVE : AudioFileFormat.Type.AIFF, file.toFile());
        }

        assertThat(MediaSniffer.sniff(file)).contains(new MediaType(MediaKind.AUDIO, mime));
    }

    static Stream<Arguments> headers() {
        return Stream.of(
                media("JPEG JFIF", "FFD8FFE000104A46494600", MediaKind.IMAGE, "image/jpeg"),
                media("JPEG Exif", "FFD8FFE1023C4578696600", MediaKind.IMAGE, "image/jpeg"),
                media("PNG", "89504E470D0A1A0A0000000D49484452", MediaKind.IMAGE, "image/png"),
                media("GIF87a", ascii("GIF87a") + "0100010000", MediaKind.IMAGE, "image/gif"),
                media("GIF89a", ascii("GIF89a") + "0100010000", MediaKind.IMAGE, "image/gif"),
                media("TIFF little-endian", "49492A0008000000", MediaKind.IMAGE, "image/tiff"),
                media("TIFF big-endian", "4D4D002A00000008", MediaKind.IMAGE, "image/tiff"),
                media("WEBP", ascii("RIFF") + "24000000" + ascii("WEBPVP8 "), MediaKind.IMAGE, "image/webp"),
                media("HEIC", "00000018" + ascii("ftypheic") + "00000000" + ascii("mif1heic"), MediaKind.IMAGE, "image/heic"),
                media("HEIF mif1", "00000018" + ascii("ftypmif1") + "00000000" + ascii("mif1heic"), MediaKind.IMAGE, "image/heic"),
                media("AVIF", "0000001C" + ascii("ftypavif") + "00000000" + ascii("avifmif1"), MediaKind.IMAGE, "image/avif"),
                media("Canon CR3", "00000018" + ascii("ftypcrx ") + "00000001" + ascii("crx isom"), MediaKind.IMAGE, "image/x-canon-cr3"),
                media("MP4 isom", "00000020" + ascii("ftypisom") + "00000200" + ascii("isomiso2avc1mp41"), MediaKind.VIDEO, "video/mp4"),
                media("MP4 mp42", "00000018" + ascii("ftypmp42") + "00000000" + ascii("mp42isom"), MediaKind.VIDEO, "video/mp4"),
                media("MOV", "00000014" + ascii("ftypqt  ") + "00000200" + ascii("qt  "), MediaKind.VIDEO, "video/quicktime"),
                media("MOV without ftyp, wide first", "00000008" + ascii("wide") + "00001000" + ascii("mdat"), MediaKind.VIDEO, "video/quicktime"),
                media("MOV without ftyp, moov first", "0000006C" + ascii("moov") + "0000006C" + ascii("mvhd"), MediaKind.VIDEO, "video/quicktime"),
                media("3GP", "00000018" + ascii("ftyp3gp4") + "00000000" + ascii("isom3gp4"), MediaKind.VIDEO, "video/3gpp"),
                media("3G2", "00000018" + ascii("ftyp3g2a") + "00000000" + ascii("3g2a"), MediaKind.VIDEO, "video/3gpp"),
                media("M4A", "00000020" + ascii("ftypM4A ") + "00000000" + ascii("M4A mp42isom"), MediaKind.AUDIO, "audio/mp4"),
                media("MKV", "1A45DFA3A34286810142F7810142F2810442F381084282" + "88" + ascii("matroska"), MediaKind.VIDEO, "video/x-matroska"),
                media("WEBM", "1A45DFA39F4286810142F7810142F2810442F381084282" + "84" + ascii("webm"), MediaKind.VIDEO, "video/webm"),
                media("AVI", ascii("RIFF") + "24000000" + ascii("AVI LIST"), MediaKind.VIDEO, "video/x-msvideo"),
                media("MPEG-PS", "000001BA4400040004010189C3F8", MediaKind.VIDEO, "video/mpeg"),
                media("MPEG-TS", ts(), MediaKind.VIDEO, "video/mp2t"),
                media("OGG Vorbis", ascii("OggS") + "0002000000000000000000000000000000000000000000" + "01" + ascii("vorbis"), MediaKind.AUDIO, "audio/ogg"),
                media("OGG Theora", ascii("OggS") + "0002000000000000000000000000000000000000000000" + "80" + ascii("theora"), MediaKind.VIDEO, "video/ogg"),
                media("FLAC", ascii("fLaC") + "0000002210001000", MediaKind.AUDIO, "audio/flac"),
                media("WAV", ascii("RIFF") + "24000000" + ascii("WAVEfmt "), MediaKind.AUDIO, "audio/wav"),
                media("MP3 with ID3", ascii("ID3") + "0400000000000F", MediaKind.AUDIO, "audio/mpeg"),
                media("MP3 frame", "FFFB906400000000", MediaKind.AUDIO, "audio/mpeg"),
                media("MP3 MPEG-2 frame", "FFF3906400000000", MediaKind.AUDIO, "audio/mpeg"),
                media("AAC ADTS MPEG-4", "FFF15080021FFC", MediaKind.AUDIO, "audio/aac"),
                media("AAC ADTS MPEG-2", "FFF95080021FFC", MediaKind.AUDIO, "audio/aac"),
                media("AMR", ascii("#!AMR\n") + "3C", MediaKind.AUDIO, "audio/amr"),
                media("AIFF", ascii("FORM") + "00000000" + ascii("AIFFCOMM"), MediaKind.AUDIO, "audio/aiff"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "C.dng, IMAGE, image/tiff",
        "sample1_signed.wav, AUDIO, audio/wav",
        "mars.webp, IMAGE, image/webp",
        "c.mov, VIDEO, video/quicktime",
        "video1.mp4, VIDEO, video/mp4",
        "trustnxt-icon-signed-v2-bmff.heic, IMAGE, image/heic",
    })
    void sniff_knownType_contentCredentialFormats(String sample, MediaKind kind, String mime) throws IOException {
        assertThat(MediaSniffer.sniff(TestHomes.samples().resolve("c2pa-conformance").resolve(sample))).contains(new MediaType(kind, mime));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headers")
    void sniff_knownType_minimalHeader(String what, String hex, MediaKind kind, String mime) throws IOException {
        Path file = Files.write(dir.resolve("file.bin"), HexFormat.of().parseHex(hex));

        assertThat(MediaSniffer.sniff(file)).as(what).contains(new MediaType(kind, mime));
        byte[] head = HexFormat.of().parseHex(hex);
        assertThat(MediaSniffer.sniff(Arrays.copyOf(head, MediaSniffer.HEAD_LENGTH), head.length)).as(what)
                .contains(new MediaType(kind, mime));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "Hello, world.\nThis is a plain text file named photo.jpg.\n",
        "%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
        "PK\u0003\u0004\u0014\u0000\u0000\u0000\u0008\u0000",
        "<!DOCTYPE html><html><body>not media</body></html>",
        "{\"File Hash SHA256\":\"abc\"}",
        "#!/bin/sh\necho not media\n",
        "RIFF\u0024\u0000\u0000\u0000XXXXfmt ",
        "FORM\u0000\u0000\u0000\u0000XXXX",
        "GIF8",
        "\u00ff\u00d8",
    })
    void sniff_empty_notMedia(String content) throws IOException {
        Path file = Files.write(dir.resolve("photo.jpg"), content.getBytes(StandardCharsets.ISO_8859_1));

        assertThat(MediaSniffer.sniff(file)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"7F454C4602010100", "1F8B0800000000000003", "CAFEBABE00000041", "D0CF11E0A1B11AE1",
        "00000008667479", "0000000866747970686569", "1A45DF", "664C61", "000001", "FF"})
    void sniff_empty_otherBinaryOrTruncated(String hex) throws IOException {
        Path file = Files.write(dir.resolve("file.bin"), HexFormat.of().parseHex(hex));

        assertThat(MediaSniffer.sniff(file)).as(hex).isEmpty();
    }

    @Test
    void sniff_empty_emptyFile() throws IOException {
        Path file = Files.write(dir.resolve("empty.jpg"), new byte[0]);

        assertThat(MediaSniffer.sniff(file)).isEmpty();
        assertThat(MediaSniffer.sniff(new byte[0], 0)).isEmpty();
    }

    @Test
    void sniff_readsOnlyTheHead_largeFile() throws IOException {
        byte[] big = new byte[5 << 20];
        big[0] = (byte) 0x89;
        System.arraycopy("PNG\r\n\u001a\n".getBytes(StandardCharsets.ISO_8859_1), 0, big, 1, 7);
        Path file = Files.write(dir.resolve("big.png"), big);

        assertThat(MediaSniffer.sniff(file)).contains(new MediaType(MediaKind.IMAGE, "image/png"));
    }

    @Test
    void sniff_empty_textStartingWithGAndGAt188() throws IOException {
        StringBuilder text = new StringBuilder("Getting started: copy your photos into the watched folder and wait. ");
        while (text.length() < 188) {
            text.append("Then run the tool again. ");
        }
        text.setLength(188);
        text.append("Good luck with your photographs and recordings.\n");
        Path file = Files.writeString(dir.resolve("README.txt"), text, StandardCharsets.US_ASCII);

        assertThat(MediaSniffer.sniff(file)).isEmpty();
    }

    private static Arguments media(String what, String hex, MediaKind kind, String mime) {
        return Arguments.of(what, hex, kind, mime);
    }

    private static String ascii(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Four 188-byte transport stream packets, each starting with the sync byte 0x47. */
    private static String ts() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int p = 0; p < 4; p++) {
            byte[] packet = new byte[188];
            packet[0] = 0x47;
            packet[1] = 0x40;
            packet[3] = 0x10;
            Arrays.fill(packet, 4, 188, (byte) 0xFF);
            out.writeBytes(packet);
        }
        return HexFormat.of().formatHex(out.toByteArray());
    }
}
