// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** C2SP checkpoints. */
class CheckpointTest {
    private static final byte[] ROOT = Merkle.leafHash(new byte[0]);

    @Test
    void text_parsesBack_withExtensionLines() throws Exception {
        Checkpoint c = new Checkpoint("proofmode.example/log", 42, ROOT, List.of("Timestamp: 1796406593"));

        assertThat(c.text()).isEqualTo("proofmode.example/log\n42\nbjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=\nTimestamp: 1796406593\n");
        Checkpoint back = Checkpoint.parse(c.text());
        assertThat(back.origin()).isEqualTo(c.origin());
        assertThat(back.size()).isEqualTo(42);
        assertThat(back.rootHash()).isEqualTo(ROOT);
        assertThat(back.extensions()).containsExactly("Timestamp: 1796406593");
    }

    @Test
    void parse_refused_notCheckpoints() {
        String root = "bjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=";
        for (String bad : List.of("o\n42\n" + root, "o\n042\n" + root + "\n", "o\n-1\n" + root + "\n", "\n1\n" + root + "\n",
                "o\n1\nAAAA\n", "o\n1\n" + root + "\n\n", "o\n1\n", "o\n99999999999999999999\n" + root + "\n")) {
            assertThatThrownBy(() -> Checkpoint.parse(bad)).as(bad).isInstanceOf(NoteFormatException.class);
        }
    }
}
