// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddingTest {
    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void insertionPoint_afterSoiAndEveryApp0_beforeOtherSegments() throws Exception {
        byte[] jpeg = bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 3, 1, 0xFF, 0xE0, 0, 2, 0xFF, 0xE1, 0, 2, 0xFF, 0xDA);
        assertThat(Embedding.insertionPoint(AssetFormat.JPEG, jpeg)).isEqualTo(11);
    }

    @Test
    void insertionPoint_beforeFillBytes_andBeforeADamagedSegmentThatIsNotApp0() throws Exception {
        byte[] fill = bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0xFF, 0xFF, 0xE0, 0, 2, 0xFF, 0xDA);
        byte[] damagedApp1 = bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0xFF, 0xE1, 0x7F, 0xFF);
        byte[] truncatedLength = bytes(0xFF, 0xD8, 0xFF, 0xE0, 0);
        assertThat(Embedding.insertionPoint(AssetFormat.JPEG, fill)).isEqualTo(6);
        assertThat(Embedding.insertionPoint(AssetFormat.JPEG, damagedApp1)).isEqualTo(6);
        assertThat(Embedding.insertionPoint(AssetFormat.JPEG, truncatedLength)).isEqualTo(2);
    }

    @Test
    void insertionPoint_throws_app0RunsPastTheEndOrTooShort() {
        assertThatThrownBy(() -> Embedding.insertionPoint(AssetFormat.JPEG, bytes(0xFF, 0xD8, 0xFF, 0xE0, 0x7F, 0xFF, 0)))
                .isInstanceOf(C2paFormatException.class).hasMessage("JPEG APP0 segment runs past the end");
        assertThatThrownBy(() -> Embedding.insertionPoint(AssetFormat.JPEG, bytes(0xFF, 0xD8, 0xFF, 0xE0, 0, 1, 0xFF, 0xDA)))
                .isInstanceOf(C2paFormatException.class);
    }
}
