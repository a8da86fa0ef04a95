// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CandidatesTest {
    private static final long SETTLE = TimeUnit.MILLISECONDS.toNanos(500);

    @TempDir
    Path dir;

    @Test
    void ready_clearsFilesBeyondRoomInOneLook_manyOldFiles() throws Exception {
        Candidates c = new Candidates();
        for (int i = 0; i < 20; i++) {
            Path f = Files.write(dir.resolve("f" + i + ".jpg"), new byte[] {1, 2, 3});
            Files.setLastModifiedTime(f, FileTime.from(Instant.now().minusSeconds(60)));
            c.add(f.toString(), 3, Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS));
        }
        Thread.sleep(Candidates.TICK_MILLIS + 20);

        List<String> first = c.ready(SETTLE, p -> true, 4);
        first.forEach(p -> c.get(p).inFlight = true);
        // at once: no second look at the processes is allowed yet, so only files cleared by the first qualify
        List<String> second = c.ready(SETTLE, p -> true, 4);

        assertThat(first).hasSize(4);
        assertThat(second).hasSize(4).doesNotContainAnyElementsOf(first);
    }

    @Test
    void ready_keepsWaiting_fileChangedSinceSeen() throws Exception {
        Candidates c = new Candidates();
        Path f = Files.write(dir.resolve("growing.jpg"), new byte[] {1});
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().minusSeconds(60)));
        c.add(f.toString(), 1, Files.getLastModifiedTime(f).to(TimeUnit.NANOSECONDS));
        Thread.sleep(Candidates.TICK_MILLIS + 20);
        Files.write(f, new byte[] {1, 2});

        assertThat(c.ready(SETTLE, p -> true, 4)).isEmpty();
    }
}
