// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;

/** A few single-byte changes to a proof made with an RSA-4096 key (too slow to generate per property). */
class RsaTamperTest {
    @TempDir
    static Path dir;

    private static ProvedFixture fx;

    @BeforeAll
    static void prove() {
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        fx = ProvedFixture.prove(dir, pm, TestHomes.sharedRsaKey(), 3);
    }

    @Test
    void verify_valid_untouchedCopy() {
        VerificationReport r = fx.verifyUntouched();

        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        assertThat(r.proofs().get(0).signer().orElseThrow().algorithm()).isEqualTo("rsa4096");
    }

    @Test
    void verify_invalid_mediaByteFlipped() {
        assertInvalid(ProvedFixture.MEDIA, 30, 0x01);
    }

    @Test
    void verify_invalid_jsonByteFlipped() {
        String json = fx.flipTargets().get(1);
        assertInvalid(json, fx.original(json).length / 2, 0x20);
    }

    @Test
    void verify_invalid_csvByteFlipped() {
        String csv = fx.flipTargets().get(2);
        assertInvalid(csv, fx.original(csv).length - 2, 0x04);
    }

    @Test
    void verify_invalid_signatureBase64DigitFlipped() {
        String sig = fx.signatureFiles().get(0);
        int pos = SingleByteFlipTest.bodyPositions(fx.original(sig)).get(100);

        VerificationReport r = fx.verifyWith(sig, ProvedFixture.flip(fx.original(sig), pos, 0x01));

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.malformed")).isTrue();
    }

    @Test
    void verify_invalid_rsaSignatureMpiByteChangedAndReArmored() {
        for (String sig : fx.signatureFiles()) {
            byte[] packet = ProvedFixture.dearmor(fx.original(sig));
            SignaturePacketTamperTest.Layout l = SignaturePacketTamperTest.Layout.of(packet);
            byte[] changed = ProvedFixture.flip(packet, l.mpiStart() + 2 + 200, 0x80);

            VerificationReport r = fx.verifyWith(sig, ProvedFixture.armor(changed));

            assertThat(r.verdict()).as(sig).isEqualTo(Verdict.INVALID);
            assertThat(r.has(CheckCodes.signature(fx.subjectOf(sig), CheckCodes.INVALID))).as(sig).isTrue();
        }
    }

    @Test
    void verify_invalid_rsaSignatureHashedSubpacketChangedAndReArmored() {
        String sig = fx.signatureFiles().get(1);
        byte[] packet = ProvedFixture.dearmor(fx.original(sig));
        SignaturePacketTamperTest.Layout l = SignaturePacketTamperTest.Layout.of(packet);
        byte[] changed = ProvedFixture.flip(packet, l.issuerFingerprintVersion() + 5, 0x01);

        VerificationReport r = fx.verifyWith(sig, ProvedFixture.armor(changed));

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.find("signature.proofJson.valid")).isEmpty();
    }

    private static void assertInvalid(String target, int position, int mask) {
        VerificationReport r = fx.verifyWith(target, ProvedFixture.flip(fx.original(target), position, mask));

        assertThat(r.verdict()).as("%s at %d", target, position).isEqualTo(Verdict.INVALID);
    }
}
