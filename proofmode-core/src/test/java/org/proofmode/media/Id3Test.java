// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ID3v2 tags built byte by byte: what is read, what is skipped, and where reading stops. */
class Id3Test {
    private static final byte[] AUDIO = {(byte) 0xFF, (byte) 0xFB, (byte) 0x90, 0x64};

    @Test
    void readTag_readsTextFramesAndSkipsAPicture_inVersion4() throws IOException {
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        frames.write(frame(4, "APIC", new byte[100_000]));
        frames.write(frame(4, "TIT2", text(1, "Interview in Kyiv", StandardCharsets.UTF_16)));
        frames.write(frame(4, "TPE1", text(3, "Zoë\u0000Ana", StandardCharsets.UTF_8)));
        frames.write(new byte[64]); // padding
        byte[] file = tag(4, frames.toByteArray());
        Map<String, String> fields = new LinkedHashMap<>();
        InputStream in = stream(file);

        long consumed = Id3.readTag(in, fields);

        assertThat(consumed).isEqualTo(file.length - AUDIO.length);
        assertThat(in.readAllBytes()).isEqualTo(AUDIO);
        assertThat(fields).containsExactly(Map.entry("Audio.Title", "Interview in Kyiv"), Map.entry("Audio.Artist", "Zoë/Ana"));
    }

    @Test
    void readTag_stopsAtAFrameLargerThanTheTag_andLeavesTheStreamAtTheAudio() throws IOException {
        byte[] frames = frame(3, "TIT2", text(0, "Title", StandardCharsets.ISO_8859_1));
        frames[7] = 0x7f; // claims 127 bytes in a tag that holds far fewer
        byte[] file = tag(3, frames);
        Map<String, String> fields = new LinkedHashMap<>();
        InputStream in = stream(file);

        Id3.readTag(in, fields);

        assertThat(fields).isEmpty();
        assertThat(in.readAllBytes()).isEqualTo(AUDIO);
    }

    @Test
    void readTag_failsWithIoException_whenTheFileEndsInsideTheTag() {
        byte[] file = tag(4, frame(4, "TIT2", text(0, "Title", StandardCharsets.ISO_8859_1)));
        byte[] truncated = java.util.Arrays.copyOf(file, 16);

        assertThatThrownBy(() -> Id3.readTag(stream(truncated), new LinkedHashMap<>())).isInstanceOf(IOException.class);
    }

    @Test
    void readTag_leavesTheStreamAlone_whenThereIsNoTag() throws IOException {
        InputStream in = stream(AUDIO);

        assertThat(Id3.readTag(in, new LinkedHashMap<>())).isZero();
        assertThat(in.readAllBytes()).isEqualTo(AUDIO);
    }

    private static InputStream stream(byte[] b) {
        return new BufferedInputStream(new ByteArrayInputStream(b));
    }

    private static byte[] tag(int major, byte[] frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'I', 'D', '3', (byte) major, 0, 0});
        out.writeBytes(syncsafe(frames.length));
        out.writeBytes(frames);
        out.writeBytes(AUDIO);
        return out.toByteArray();
    }

    private static byte[] frame(int major, String id, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(id.getBytes(StandardCharsets.ISO_8859_1));
        int n = body.length;
        out.writeBytes(major == 4 ? syncsafe(n) : new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        out.writeBytes(new byte[] {0, 0});
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] text(int encoding, String value, java.nio.charset.Charset cs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(encoding);
        out.writeBytes(value.getBytes(cs));
        return out.toByteArray();
    }

    private static byte[] syncsafe(int n) {
        return new byte[] {(byte) ((n >>> 21) & 0x7f), (byte) ((n >>> 14) & 0x7f), (byte) ((n >>> 7) & 0x7f), (byte) (n & 0x7f)};
    }
}
