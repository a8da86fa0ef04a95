// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The C2PA asset formats come from the project's one sniffer, MediaSniffer, mapped to how a store is embedded. */
class AssetFormatTest {
    private static byte[] head(String ascii, int... prefix) {
        byte[] text = ascii.getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = new byte[16];
        for (int i = 0; i < prefix.length; i++) {
            out[i] = (byte) prefix[i];
        }
        System.arraycopy(text, 0, out, prefix.length, Math.min(text.length, 16 - prefix.length));
        return out;
    }

    @Test
    void sniff_mapsEveryBmffBrandToMp4() {
        assertThat(AssetFormat.sniff(head("ftypisom", 0, 0, 0, 0x18))).contains(AssetFormat.MP4);
        assertThat(AssetFormat.sniff(head("ftypheic", 0, 0, 0, 0x18))).contains(AssetFormat.MP4);
        assertThat(AssetFormat.sniff(head("ftypavif", 0, 0, 0, 0x18))).contains(AssetFormat.MP4);
        assertThat(AssetFormat.sniff(head("ftypqt  ", 0, 0, 0, 0x18))).contains(AssetFormat.MP4);
    }

    @Test
    void sniff_countsMp3OnlyWithAnId3Tag() {
        assertThat(AssetFormat.sniff(head("ID3"))).contains(AssetFormat.MP3);
        assertThat(AssetFormat.sniff(head("", 0xFF, 0xFB, 0x90, 0x64))).isEmpty();
    }

    @Test
    void sniff_recognisesTheOthers_andNothingElse() {
        assertThat(AssetFormat.sniff(head("", 0xFF, 0xD8, 0xFF, 0xE0))).contains(AssetFormat.JPEG);
        assertThat(AssetFormat.sniff(head("PNG\r\n\u001a\n", 0x89))).contains(AssetFormat.PNG);
        assertThat(AssetFormat.sniff(head("II*\u0000"))).contains(AssetFormat.TIFF);
        assertThat(AssetFormat.sniff(head("RIFF\u0000\u0000\u0000\u0000WAVE"))).contains(AssetFormat.WAV);
        assertThat(AssetFormat.sniff(head("RIFF\u0000\u0000\u0000\u0000AVI "))).contains(AssetFormat.AVI);
        assertThat(AssetFormat.sniff(head("RIFF\u0000\u0000\u0000\u0000WEBP"))).contains(AssetFormat.WEBP);
        assertThat(AssetFormat.sniff(head("GIF89a"))).isEmpty();
        assertThat(AssetFormat.sniff(head("IIRO"))).isEmpty();
        assertThat(AssetFormat.sniff(new byte[0])).isEmpty();
    }
}
