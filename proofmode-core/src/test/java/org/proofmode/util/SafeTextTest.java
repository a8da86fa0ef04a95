// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SafeTextTest {
    /** Every zero-width, invisible-operator and bidirectional control character, by range. */
    private static final int[][] INVISIBLE = {{0x200b, 0x200f}, {0x202a, 0x202e}, {0x2060, 0x2064}, {0x2066, 0x2069}, {0xfeff, 0xfeff}};

    @Test
    void escape_showsEveryCharacter_zeroWidthAndBidiControls() {
        for (int[] range : INVISIBLE) {
            for (int c = range[0]; c <= range[1]; c++) {
                String name = "pho" + (char) c + "to.jpg";
                assertThat(SafeText.escape(name)).as("U+%04X", c).isEqualTo(String.format("pho\\u%04xto.jpg", c));
            }
        }
    }

    @Test
    void escape_keepsText_visibleUnicode() {
        assertThat(SafeText.escape("Zoë’s 写真 📷.jpg")).isEqualTo("Zoë’s 写真 📷.jpg");
    }
}
