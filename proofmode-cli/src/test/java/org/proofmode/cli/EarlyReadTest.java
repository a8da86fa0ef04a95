// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.prove.HeadStart;
import org.proofmode.sign.StreamSigner;

class EarlyReadTest {
    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    /** A JPEG-headed file of {@code size} bytes, mostly a hole, with a few marked bytes. */
    private Path large(String name, long size, byte mark) throws Exception {
        Path f = tmp.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
            raf.write(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0});
            raf.seek(size / 2);
            raf.write(new byte[] {mark, mark, mark});
        }
        return f;
    }

    @Test
    void guess_namesTheFileReadFirst_proveAndVerifyCommandLines() {
        assertThat(ClientMain.fileReadFirst(new String[] {"prove", "--out", "o", "v.mp4"})).contains("v.mp4");
        assertThat(ClientMain.fileReadFirst(new String[] {"verify", "--media", "v.mp4", "dir"})).contains("v.mp4");
        assertThat(ClientMain.fileReadFirst(new String[] {"verify", "--media=v.mp4", "dir"})).contains("v.mp4");
        assertThat(ClientMain.fileReadFirst(new String[] {"verify", "b.zip"})).contains("b.zip");
        assertThat(ClientMain.fileReadFirst(new String[] {"prove"})).isEmpty();
        assertThat(ClientMain.fileReadFirst(new String[] {"prove", "a.jpg", "--force"})).isEmpty();
        assertThat(ClientMain.fileReadFirst(new String[] {"export", "-o", "x.zip", "a.jpg"})).isEmpty();
        assertThat(ClientMain.fileReadFirst(new String[] {"keys", "prove"})).isEmpty();
        assertThat(ClientMain.fileReadFirst(new String[] {})).isEmpty();
    }

    @Test
    void prove_takesTheReadBegunEarly_sameHashAndProgress() throws Exception {
        Path f = large("big.jpg", (65L << 20) + 11, (byte) 1);
        ClientMain.startEarlyRead(new String[] {"prove", f.toString()}, tmp);

        Cli.Result r = cli.run("prove", f.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith(Digests.sha256(f) + "  ");
        assertThat(HeadStart.takeRead(f, StreamSigner.Progress.NONE)).as("taken once, by the command").isEmpty();
    }

    @Test
    void take_forwardsBytesReadSoFar_thenTheRest() throws Exception {
        long size = (65L << 20) + 5;
        Path f = large("progress.jpg", size, (byte) 2);
        ClientMain.startEarlyRead(new String[] {"prove", f.toString()}, tmp);
        AtomicLong told = new AtomicLong();

        Optional<HeadStart.Read> r = HeadStart.takeRead(f, told::addAndGet);

        assertThat(r).isPresent();
        assertThat(r.get().join().sha256()).isEqualTo(Digests.sha256(f));
        assertThat(told).hasValue(size);
    }

    @Test
    void take_dropsTheRead_fileChangedSinceItBegan() throws Exception {
        Path f = large("changing.jpg", (65L << 20) + 3, (byte) 3);
        ClientMain.startEarlyRead(new String[] {"prove", f.toString()}, tmp);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(100);
            raf.write(new byte[] {9, 9, 9});
        }
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().plusSeconds(5)));

        assertThat(HeadStart.takeRead(f, StreamSigner.Progress.NONE)).isEmpty();
        Cli.Result r = cli.run("prove", f.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).as("the file as it is now").startsWith(Digests.sha256(f) + "  ");
    }

    @Test
    void start_readsNothing_smallFileOtherCommandOrMissingFile() throws Exception {
        Path small = tmp.resolve("small.jpg");
        Files.write(small, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 1, 2, 3});
        Path big = large("other.jpg", (65L << 20) + 1, (byte) 4);

        ClientMain.startEarlyRead(new String[] {"prove", small.toString()}, tmp);
        assertThat(HeadStart.takeRead(small, StreamSigner.Progress.NONE)).isEmpty();
        ClientMain.startEarlyRead(new String[] {"export", big.toString()}, tmp);
        assertThat(HeadStart.takeRead(big, StreamSigner.Progress.NONE)).isEmpty();
        ClientMain.startEarlyRead(new String[] {"prove", tmp.resolve("missing.jpg").toString()}, tmp);
        assertThat(HeadStart.takeRead(tmp.resolve("missing.jpg"), StreamSigner.Progress.NONE)).isEmpty();
        ClientMain.startEarlyRead(new String[] {"prove", tmp.toString()}, tmp);
        assertThat(HeadStart.takeRead(tmp, StreamSigner.Progress.NONE)).as("a folder").isEmpty();
    }

    @Test
    void take_givesNothing_forAnotherFile() throws Exception {
        Path a = large("a.jpg", (65L << 20) + 1, (byte) 5);
        Path b = large("b.jpg", (65L << 20) + 1, (byte) 6);
        ClientMain.startEarlyRead(new String[] {"prove", a.toString()}, tmp);

        assertThat(HeadStart.takeRead(b, StreamSigner.Progress.NONE)).isEmpty();
        assertThat(HeadStart.takeRead(a, StreamSigner.Progress.NONE)).as("still there for its own file").isPresent();
    }

    @Test
    void verify_usesTheReadBegunEarly_andSeesAChangedMedia() throws Exception {
        Path f = large("v.jpg", (65L << 20) + 9, (byte) 7);
        Path out = tmp.resolve("out");
        assertThat(cli.run("prove", "--out", out.toString(), f.toString()).exit()).isZero();
        Path folder = out.resolve(Digests.sha256(f));

        ClientMain.startEarlyRead(new String[] {"verify", "--media", f.toString(), folder.toString()}, tmp);
        Cli.Result ok = cli.run("verify", "--media", f.toString(), folder.toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("media.hash.match");

        ClientMain.startEarlyRead(new String[] {"verify", "--media", f.toString(), folder.toString()}, tmp);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(7);
            raf.write(0x55);
        }
        Files.setLastModifiedTime(f, FileTime.from(Instant.now().plusSeconds(5)));
        Cli.Result changed = cli.run("verify", "--media", f.toString(), folder.toString());
        assertThat(changed.exit()).isNotZero();
        assertThat(changed.out()).contains("media.hash.mismatch");
    }

    @Test
    void unlockStart_waitsForHashing_largeWorkOnly() throws Exception {
        HeadStart.Unlock small = new HeadStart.Unlock(10L << 20);
        assertThat(small.future()).isDone();

        HeadStart.Unlock large = new HeadStart.Unlock(1L << 30);
        assertThat(large.future()).isNotDone();
        large.hashed(16L << 20);
        assertThat(large.future()).isNotDone();
        large.hashed(16L << 20);
        assertThat(large.future()).isDone();

        HeadStart.Unlock asked = new HeadStart.Unlock(1L << 30);
        asked.now();
        assertThat(asked.future()).isDone();

        HeadStart.Unlock idle = new HeadStart.Unlock(1L << 30);
        idle.future().get(5, TimeUnit.SECONDS); // at most LATEST_START_MS, whatever happens
        assertThat(idle.future()).isDone();
    }
}
