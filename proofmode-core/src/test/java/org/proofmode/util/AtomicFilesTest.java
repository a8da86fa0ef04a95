// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void writeNewDurably_writesEveryFileWhole_manyFilesFlushedTogether() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < 100; i++) {
            files.put("f" + i, ("content " + i + " ").repeat(1 + i * 50).getBytes(StandardCharsets.US_ASCII));
        }

        AtomicFiles.writeNewDurably(dir, files);

        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            assertThat(dir.resolve(f.getKey())).hasBinaryContent(f.getValue());
        }
    }

    @Test
    void writeNewDurably_fails_fileExists() throws Exception {
        Files.writeString(dir.resolve("b"), "before");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("a", new byte[] {1});
        files.put("b", new byte[] {2});

        assertThatThrownBy(() -> AtomicFiles.writeNewDurably(dir, files)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(dir.resolve("b")).hasContent("before");
    }

    @Test
    void writeNewDurably_rejectsName_notAPlainFileName() {
        assertThatThrownBy(() -> AtomicFiles.writeNewDurably(dir, Map.of("../escape", new byte[] {1})))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(dir.getParent().resolve("escape")).doesNotExist();
    }

    @Test
    void writeNewDurably_writesEmptyFile_emptyContent() throws Exception {
        AtomicFiles.writeNewDurably(dir, Map.of("empty", new byte[0]));

        assertThat(dir.resolve("empty")).isEmptyFile();
    }
}
