// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bundles left in the clear in {@code publish/outgoing/} by a process killed while it sent them. */
class OutgoingBundlesTest {
    @TempDir
    Path dir;

    @Test
    void orphanedBundles_areDeleted_onesOfARunningProcessKept() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path mine = Files.writeString(dir.resolve("bundle-" + ProcessHandle.current().pid() + "-123.zip"), "sending");
        Path orphan = Files.writeString(dir.resolve("bundle-" + ended.pid() + "-456.zip"), "left by a killed sender");
        Path older = Files.writeString(dir.resolve("bundle-8823452345.zip"), "named as earlier versions named them");
        Path other = Files.writeString(dir.resolve("notes.txt"), "not a bundle");

        HomeProofs.removeOrphanedBundles(dir);

        assertThat(mine).exists();
        assertThat(orphan).doesNotExist();
        assertThat(older).doesNotExist();
        assertThat(other).exists();
    }
}
