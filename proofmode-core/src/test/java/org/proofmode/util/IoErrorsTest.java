// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoErrorsTest {
    @TempDir
    Path tmp;

    @Test
    void describe_namesFileAndReason_jdkExceptionsThatCarryOnlyThePath() {
        assertThat(IoErrors.describe(new NoSuchFileException("/a/b"))).isEqualTo("/a/b: no such file or folder");
        assertThat(IoErrors.describe(new AccessDeniedException("/a"))).isEqualTo("/a: permission denied");
        assertThat(IoErrors.describe(new FileAlreadyExistsException("/a"))).isEqualTo("/a: already exists");
        assertThat(IoErrors.describe(new FileSystemException("/a", null, "Read-only file system"))).isEqualTo("/a: Read-only file system");
        assertThat(IoErrors.describe(new IOException("disk on fire"))).isEqualTo("disk on fire");
        assertThat(IoErrors.describe(new IOException())).isEqualTo("IOException");
    }

    @Test
    void describe_saysWhatWentWrong_folderUnderAFile() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        try {
            Files.createDirectories(file.resolve("sub"));
        } catch (IOException e) {
            assertThat(IoErrors.describe(e)).isEqualTo(file.resolve("sub") + ": Not a directory");
            return;
        }
        throw new AssertionError("a folder was made under a file");
    }
}
