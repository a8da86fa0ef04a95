// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.ValidationState;
import org.proofmode.keys.Passphrase;

/** Our writer's RIFF output (WAV, AVI, WebP) read by the reference validator, intact and with a content byte flipped. */
class C2paRiffInteropTest {
    @TempDir
    static Path home;
    @TempDir
    static Path work;
    private static C2paSigner signer;
    private static Path anchors;

    @BeforeAll
    static void ca() {
        LocalCa ca = new LocalCa(home);
        ca.create(Passphrase.adopt("riff".toCharArray()), "RIFF", false);
        signer = ca.signer(Passphrase.adopt("riff".toCharArray()));
        anchors = ca.caCertificateFile();
    }

    /** A second of 8 kHz mono 16-bit PCM; an odd-length chunk before the end tests the pad byte rules. */
    private static byte[] wav() {
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        for (int i = 0; i < 8000; i++) {
            int v = (int) (8000 * Math.sin(i / 5.0));
            d.write(v & 0xFF);
            d.write((v >> 8) & 0xFF);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        le32(out, 4 + 8 + 16 + 8 + d.size());
        out.writeBytes("WAVEfmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        le32(out, 16);
        out.writeBytes(new byte[] {1, 0, 1, 0});
        le32(out, 8000);
        le32(out, 16000);
        out.writeBytes(new byte[] {2, 0, 16, 0});
        out.writeBytes("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        le32(out, d.size());
        out.writeBytes(d.toByteArray());
        return out.toByteArray();
    }

    private static void le32(ByteArrayOutputStream out, int v) {
        for (int i = 0; i < 4; i++) {
            out.write(v >>> (8 * i));
        }
    }

    private static byte[] avi() throws Exception {
        Path ffmpeg = ExternalTool.require("ffmpeg");
        Path out = work.resolve("made.avi");
        ProcessResult r = ExternalTool.run(List.of(ffmpeg.toString(), "-v", "error", "-y", "-f", "lavfi", "-i",
                "testsrc=duration=1:size=64x48:rate=5", "-c:v", "mjpeg", out.toString()), Map.of(), Duration.ofSeconds(60));
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        return Files.readAllBytes(out);
    }

    /**
     * A WebP made with ffmpeg's libwebp: the simple form ({@code VP8 } chunk only) when opaque, the extended
     * form ({@code VP8X} with an {@code ALPH} chunk) when half of it is translucent.
     */
    private static byte[] webp(String name, boolean translucent) throws Exception {
        Path ffmpeg = ExternalTool.require("ffmpeg");
        Path out = work.resolve(name);
        String filter = translucent ? "format=yuva420p,geq=lum='p(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(X,32),255,128)'"
                : "format=yuv420p";
        ProcessResult r = ExternalTool.run(List.of(ffmpeg.toString(), "-v", "error", "-y", "-f", "lavfi", "-i",
                "testsrc=size=64x48:rate=1", "-vf", filter, "-frames:v", "1", "-c:v", "libwebp", out.toString()), Map.of(),
                Duration.ofSeconds(60));
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        byte[] b = Files.readAllBytes(out);
        assertThat(new String(b, 12, 4, java.nio.charset.StandardCharsets.US_ASCII)).as(name).isEqualTo(translucent ? "VP8X" : "VP8 ");
        return b;
    }

    @Test
    void validate_validTrustedThenMismatch_ourWavAviAndWebp() throws Exception {
        Object[][] cases = {{"ours.wav", "audio/wav", wav()}, {"ours.avi", "video/x-msvideo", avi()},
            {"ours.webp", "image/webp", webp("made.webp", false)},
            {"ours-extended.webp", "image/webp", webp("made-extended.webp", true)}};
        for (Object[] c : cases) {
            String name = (String) c[0];
            String mime = (String) c[1];
            byte[] in = (byte[]) c[2];
            Path p = work.resolve(name);
            Files.write(p, new ManifestBuilder().title(name).created(ManifestBuilder.DIGITAL_CAPTURE).sign(in, signer, Optional.empty()));
            C2paWasm.Result plain = C2paWasm.validate(p, mime, Optional.empty());
            assertThat(plain.state()).as(name).isEqualTo("Valid");
            assertThat(plain.failure()).as(name).containsExactly("signingCredential.untrusted");
            assertThat(plain.success()).as(name).contains("claimSignature.validated", "assertion.dataHash.match");
            assertThat(C2paWasm.validate(p, mime, Optional.of(anchors)).state()).as(name).isEqualTo("Trusted");
            C2paReport ours = new C2paReader(LocalCa.anchorsInHome(home), List.of()).read(p).orElseThrow();
            assertThat(ours.state()).as(name).isEqualTo(ValidationState.TRUSTED);

            byte[] b = Files.readAllBytes(p);
            b[in.length / 2] ^= 0x01;
            Path flipped = work.resolve("flipped-" + name);
            Files.write(flipped, b);
            assertThat(C2paWasm.validate(flipped, mime, Optional.empty()).failure()).as(name).contains("assertion.dataHash.mismatch");
            assertThat(new C2paReader(List.of(), List.of()).read(flipped).orElseThrow().has("assertion.dataHash.mismatch")).as(name)
                    .isTrue();
        }
    }
}
