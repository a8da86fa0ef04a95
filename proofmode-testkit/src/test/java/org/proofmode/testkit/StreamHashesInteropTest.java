// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.context.Settings;
import org.proofmode.imaging.StreamHashes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;

/**
 * Video frame hashes and audio sample hashes against FFmpeg itself: for clips made here in H.264, HEVC,
 * VP9 and MJPEG and recordings in WAV, MP3 and FLAC, the recorded values are what a skeptic computes
 * from {@code ffmpeg -f framehash} / {@code -f hash} with {@code xxd} and {@code sha256sum}; they survive
 * re-muxing, metadata edits and a stripped audio track, and change when a frame does.
 */
class StreamHashesInteropTest {
    private static final Prover.Options PLAIN = new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE);

    @TempDir
    static Path work;

    static Path h264;
    static Path hevc;
    static Path vp9;
    static Path mjpeg;
    static Path wav;
    static Path mp3;
    static Path flac;

    @BeforeAll
    static void makeClips() {
        ExternalTool.require("ffprobe");
        ExternalTool.require("xxd");
        String video = "testsrc=size=192x108:rate=25:duration=2";
        String tone = "sine=frequency=440:sample_rate=44100:duration=2";
        h264 = make("h264.mp4", "-f", "lavfi", "-i", video, "-f", "lavfi", "-i", tone, "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "-c:a", "aac", "-shortest");
        hevc = make("hevc.mp4", "-f", "lavfi", "-i", "testsrc=size=160x96:rate=10:duration=1", "-c:v", "libx265",
                "-x265-params", "log-level=error", "-pix_fmt", "yuv420p");
        vp9 = make("vp9.webm", "-f", "lavfi", "-i", video, "-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "200k");
        mjpeg = make("mjpeg.avi", "-f", "lavfi", "-i", video, "-c:v", "mjpeg");
        wav = make("tone.wav", "-f", "lavfi", "-i", tone, "-c:a", "pcm_s16le");
        mp3 = make("tone.mp3", "-f", "lavfi", "-i", tone, "-c:a", "libmp3lame");
        flac = make("tone.flac", "-f", "lavfi", "-i", tone, "-c:a", "flac");
    }

    private static Path make(String name, String... args) {
        return Ffmpeg.make(work.resolve(name), args);
    }

    @Test
    void frameHash_isWhatFfmpegsFramehashGives_forEveryCodec() throws Exception {
        for (Path clip : List.of(h264, hevc, vp9, mjpeg)) {
            StreamHashes.Frames f = StreamHashes.frames(clip, Optional.empty()).value();
            Ffmpeg.FrameHash expected = Ffmpeg.skepticsFrameHash(clip);
            assertThat(f.frameHash()).as(clip.getFileName().toString()).isEqualTo(expected.sha256());
            assertThat(f.count()).as(clip.getFileName().toString()).isEqualTo(expected.frames());
        }
        assertThat(StreamHashes.frames(h264, Optional.empty()).value().count()).isEqualTo(50);
    }

    @Test
    void sampleHash_isWhatFfmpegsHashGives_forAudioFilesAndTheAudioOfVideo() throws Exception {
        for (Path file : List.of(wav, mp3, flac, h264)) {
            assertThat(StreamHashes.samples(file, Optional.empty()).value()).as(file.getFileName().toString())
                    .isEqualTo(Ffmpeg.sampleHash(file));
        }
        assertThat(StreamHashes.probe(wav)).satisfies(s -> {
            assertThat(s.audio()).isTrue();
            assertThat(s.video()).isFalse();
        });
    }

    @Test
    void frameHash_survivesRemuxMetadataAndStrippedAudio_butNotAChangedFrame() throws Exception {
        String original = StreamHashes.frames(h264, Optional.empty()).value().frameHash();
        Path mkv = Ffmpeg.make(work.resolve("remuxed.mkv"), "-i", h264.toString(), "-c", "copy");
        Path tagged = Ffmpeg.make(work.resolve("tagged.mp4"), "-i", h264.toString(), "-c", "copy", "-metadata",
                "title=edited", "-metadata", "creation_time=2020-01-01T00:00:00Z");
        Path silent = Ffmpeg.make(work.resolve("silent.mp4"), "-i", h264.toString(), "-c", "copy", "-an");
        for (Path same : List.of(mkv, tagged, silent)) {
            assertThat(Files.mismatch(same, h264)).as("a different file").isNotEqualTo(-1L);
            assertThat(StreamHashes.frames(same, Optional.empty()).value().frameHash()).as(same.getFileName().toString())
                    .isEqualTo(original);
        }
        Path reencoded = Ffmpeg.make(work.resolve("reencoded.mp4"), "-i", h264.toString(), "-c:v", "libx264", "-crf", "35");
        Path dropped = Ffmpeg.make(work.resolve("dropped.mp4"), "-i", h264.toString(), "-vf", "select='not(eq(n\\,10))'",
                "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p");
        for (Path other : List.of(reencoded, dropped)) {
            assertThat(StreamHashes.frames(other, Optional.empty()).value().frameHash()).as(other.getFileName().toString())
                    .isNotEqualTo(original);
        }
        assertThat(StreamHashes.frames(dropped, Optional.empty()).value().count()).isEqualTo(49);
    }

    private static ProofMode home(Path dir) {
        ProofMode pm = ProofMode.at(dir);
        pm.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("stream hashes".toCharArray())));
        return pm;
    }

    private static SigningKey key(ProofMode pm) {
        return pm.keys().unlock(Passphrase.adopt("stream hashes".toCharArray()));
    }

    @Test
    void prove_recordsTheHashesAndASignedFrameList_thatVerifyChecks() throws Exception {
        ProofMode pm = home(work.resolve("home-prove"));
        Prover prover = pm.prover(key(pm), pm.store(), pm.contextSources(Settings.defaults(), Optional.empty()));
        ProveResult r = prover.prove(h264, PLAIN);
        String h = r.sha256().orElseThrow();
        Path folder = r.proofFolder().orElseThrow();
        ProofRecord record = ProofJson.readStored(folder, h);
        Ffmpeg.FrameHash expected = Ffmpeg.skepticsFrameHash(h264);
        assertThat(record.get(ContextFields.VIDEO_FRAME_HASH)).contains(expected.sha256());
        assertThat(record.get(ContextFields.VIDEO_FRAME_COUNT)).contains(Integer.toString(expected.frames()));
        assertThat(record.get(ContextFields.AUDIO_SAMPLE_HASH)).contains(Ffmpeg.sampleHash(h264));
        assertThat(record.get(ContextFields.MEDIA_DECODER)).hasValueSatisfying(d -> assertThat(d).startsWith("ffmpeg "));
        assertThat(record.fields().keySet()).noneMatch(k -> k.startsWith(ProofFields.WARNING_PREFIX));
        String list = Files.readString(folder.resolve(ProofFiles.frames(h)), StandardCharsets.US_ASCII);
        assertThat(list.lines().filter(l -> !l.startsWith("#"))).first().isEqualTo("index,pts,sha256");
        assertThat(list.lines().filter(l -> l.matches("[0-9]+,-?[0-9]+,[0-9a-f]{64}"))).hasSize(50);
        assertThat(folder.resolve(ProofFiles.framesSig(h))).isRegularFile();

        VerificationReport ok = pm.verifier(Trust.HOME).verify(folder, Optional.of(h264));
        assertThat(ok.verdict()).isEqualTo(Verdict.TRUSTED);
        assertThat(ok.has(CheckCodes.signature("frames", CheckCodes.VALID))).isTrue();
        assertThat(ok.has(CheckCodes.FRAMES_MATCH)).isTrue();
        // The list also holds one perceptual hash per second of the clip.
        assertThat(list.lines().dropWhile(l -> !l.equals("second,phash")).skip(1)).hasSizeBetween(2, 3).allMatch(l -> l.matches("[0-9]+,[0-9a-f]{16}"));

        // A list larger than what a proof file may be in memory (a long video's: 17 MB for two hours) is read
        // as a stream, its signature finished from its SHA-256.
        long size = Files.size(folder.resolve(ProofFiles.frames(h)));
        VerificationReport small = pm.verifier(Trust.HOME.withLimits(new BundleLimits(2_000, size / 2, 200)))
                .verify(folder, Optional.of(h264));
        assertThat(small.verdict()).isEqualTo(Verdict.TRUSTED);
        assertThat(small.has(CheckCodes.signature("frames", CheckCodes.VALID))).isTrue();
        assertThat(small.has(CheckCodes.FRAMES_MATCH)).isTrue();

        // A frame list changed after signing: its signature and its hash both fail.
        Path copy = Files.createDirectories(work.resolve("tampered"));
        for (Path p : (Iterable<Path>) Files.list(folder)::iterator) {
            Files.copy(p, copy.resolve(p.getFileName()));
        }
        Path frames = copy.resolve(ProofFiles.frames(h));
        int at = list.indexOf("\n10,");
        int end = list.indexOf('\n', at + 1);
        char last = list.charAt(end - 1);
        String changed = list.substring(0, end - 1) + (last == '0' ? '1' : '0') + list.substring(end);
        Files.writeString(frames, changed, StandardCharsets.US_ASCII);
        VerificationReport bad = pm.verifier(Trust.HOME).verify(copy, Optional.of(h264));
        assertThat(bad.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(bad.has(CheckCodes.signature("frames", CheckCodes.INVALID))).isTrue();
        assertThat(bad.has(CheckCodes.FRAMES_MISMATCH)).isTrue();
    }

    @Test
    void prove_ofAudio_recordsTheSampleHash_andNoFrameList() throws Exception {
        ProofMode pm = home(work.resolve("home-audio"));
        Prover prover = pm.prover(key(pm), pm.store(), pm.contextSources(Settings.defaults(), Optional.empty()));
        ProveResult r = prover.prove(mp3, PLAIN);
        ProofRecord record = ProofJson.readStored(r.proofFolder().orElseThrow(), r.sha256().orElseThrow());
        assertThat(record.get(ContextFields.AUDIO_SAMPLE_HASH)).contains(Ffmpeg.sampleHash(mp3));
        assertThat(record.get(ContextFields.VIDEO_FRAME_HASH)).isEmpty();
        assertThat(r.proofFolder().orElseThrow().resolve(ProofFiles.frames(r.sha256().orElseThrow()))).doesNotExist();
    }

    @Test
    void prove_ofDamagedVideo_warnsAndStillProves() throws Exception {
        ProofMode pm = home(work.resolve("home-damaged"));
        Prover prover = pm.prover(key(pm), pm.store(), pm.contextSources(Settings.defaults(), Optional.empty()));
        // Cut short: the MP4's index (moov) is at its end, so nothing can be decoded.
        byte[] whole = Files.readAllBytes(h264);
        Path cut = Files.write(work.resolve("cut.mp4"), Arrays.copyOf(whole, whole.length / 3));
        ProveResult r = prover.prove(cut, PLAIN);
        assertThat(r.outcome()).isEqualTo(ProveResult.Outcome.PROVED);
        ProofRecord record = ProofJson.readStored(r.proofFolder().orElseThrow(), r.sha256().orElseThrow());
        assertThat(record.get(ProofFields.WARNING_PREFIX + "Video")).hasValueSatisfying(w -> assertThat(w).contains("ffprobe"));
        assertThat(record.get(ContextFields.VIDEO_FRAME_HASH)).isEmpty();

        // Damaged inside the stream: what ffmpeg decodes is hashed, and the decoding errors are noted.
        Path mkv = Ffmpeg.make(work.resolve("damaged.mkv"), "-i", h264.toString(), "-c", "copy", "-an");
        byte[] b = Files.readAllBytes(mkv);
        for (int i = b.length / 2; i < b.length / 2 + 400; i++) {
            b[i] = (byte) 0x5a;
        }
        Path damaged = Files.write(work.resolve("damaged-inside.mkv"), b);
        ProveResult d = prover.prove(damaged, PLAIN);
        ProofRecord dr = ProofJson.readStored(d.proofFolder().orElseThrow(), d.sha256().orElseThrow());
        assertThat(dr.get(ContextFields.VIDEO_FRAME_HASH)).contains(Ffmpeg.skepticsFrameHash(damaged).sha256());
        assertThat(dr.get(ProofFields.WARNING_PREFIX + "Video")).hasValueSatisfying(w -> assertThat(w).contains("decoding errors"));
    }
}
