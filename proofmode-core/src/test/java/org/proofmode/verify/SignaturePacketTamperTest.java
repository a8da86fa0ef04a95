// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;

/**
 * Changes to the binary signature packet, re-armored with a correct checksum (as anyone can do): the
 * armor checksum then no longer stands in the way, so these tests reach the signature check itself.
 *
 * <p>A v4 signature packet has parts the signature covers (version, type, algorithms, hashed
 * subpackets) or that are the signature (the MPIs), and parts nothing covers: the packet length, the
 * unhashed subpackets and the 16-bit hash prefix. A change to a covered part must make the proof
 * invalid: the signed header bytes are tried exhaustively (nine masks each), the signature values by a
 * property. A change to an uncovered part cannot forge anything; it must never make the verifier
 * throw, nor name another signer. MPI bit counts are neither: what a changed count does depends on the
 * random key's signature values, so the properties leave them out (the keys differ on every run) and
 * two examples build such packets on purpose.
 */
class SignaturePacketTamperTest {
    private static Path dir;
    private static ProvedFixture fx;

    /** A change to byte {@code position} of the binary packet in {@code target}. */
    record PacketFlip(String target, int position, int mask) {}

    @BeforeContainer
    static void prove() throws Exception {
        dir = Files.createTempDirectory("packet-flip");
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        fx = ProvedFixture.prove(dir, pm, TestHomes.keyIn(pm, KeyType.ED25519), 2);
    }

    @AfterContainer
    static void cleanUp() {
        TestHomes.deleteTree(dir);
    }

    @Example
    void verify_valid_reArmoredUnchangedPacket() {
        for (String sig : fx.signatureFiles()) {
            byte[] rearmored = ProvedFixture.armor(ProvedFixture.dearmor(fx.original(sig)));

            assertThat(fx.verifyWith(sig, rearmored).verdict()).as(sig).isEqualTo(Verdict.VALID);
        }
    }

    @Example
    void verify_invalid_anySignedByteBeforeSignatureValuesChanged() {
        String sig = fx.signatureFiles().get(0);
        Layout l = Layout.of(ProvedFixture.dearmor(fx.original(sig)));
        List<String> wrong = new ArrayList<>();
        for (int pos = l.bodyStart(); pos < l.unhashedStart(); pos++) {
            for (int mask : new int[] {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xFF}) {
                PacketFlip flip = new PacketFlip(sig, pos, mask);
                try {
                    VerificationReport r = verifyPacket(flip);
                    if (r.verdict() != Verdict.INVALID || r.has(CheckCodes.signature("media", CheckCodes.VALID))) {
                        wrong.add(flip + " -> " + r.verdict());
                    }
                } catch (RuntimeException e) {
                    wrong.add(flip + " -> " + e);
                }
            }
        }

        assertThat(wrong).isEmpty();
    }

    @Property(tries = 100, seed = "20251203")
    void verify_invalid_signatureValueByteChanged(@ForAll("signatureValueFlips") PacketFlip flip) {
        VerificationReport r = verifyPacket(flip);

        assertThat(r.verdict()).as("%s", flip).isEqualTo(Verdict.INVALID);
        assertThat(r.find(CheckCodes.signature(fx.subjectOf(flip.target()), CheckCodes.VALID))).as("%s", flip).isEmpty();
    }

    @Property(tries = 150, seed = "20251203")
    void verify_invalidOrSameSigner_uncoveredByteOfSignaturePacketChanged(@ForAll("uncoveredFlips") PacketFlip flip) {
        VerificationReport r = verifyPacket(flip);

        assertInvalidOrSameSigner(r, flip.toString());
    }

    @Example
    void verify_invalidOrSameSigner_mpiBitCountChangedWithinSameByteLength() {
        String sig = fx.signatureFiles().get(2);
        byte[] packet = ProvedFixture.dearmor(fx.original(sig));
        int at = Layout.of(packet).mpiBitCounts().get(1);
        int bits = (packet[at] & 0xFF) << 8 | (packet[at + 1] & 0xFF);
        int bytes = (bits + 7) / 8;
        int other = bits == bytes * 8 ? bits - 1 : bytes * 8;
        packet[at] = (byte) (other >> 8);
        packet[at + 1] = (byte) other;

        VerificationReport r = fx.verifyWith(sig, ProvedFixture.armor(packet));

        assertInvalidOrSameSigner(r, "bit count " + bits + " -> " + other);
    }

    @Example
    void verify_invalid_signatureHashAlgorithmUnknown() {
        assertInvalidWithoutException(fx.signatureFiles().get(0), Layout::hashAlgorithm, 100);
    }

    @Example
    void verify_invalid_signatureTypeUnknown() {
        assertInvalidWithoutException(fx.signatureFiles().get(1), Layout::signatureType, 0xFF);
    }

    @Example
    void verify_invalid_signatureKeyAlgorithmChanged() {
        assertInvalidWithoutException(fx.signatureFiles().get(2), Layout::keyAlgorithm, 20);
    }

    @Example
    void verify_invalid_issuerFingerprintVersionChanged() {
        assertInvalidWithoutException(fx.signatureFiles().get(0), Layout::issuerFingerprintVersion, 5);
    }

    @Example
    void verify_invalid_eddsaMpiLongerThan32Bytes() {
        String sig = fx.signatureFiles().get(0);
        byte[] packet = ProvedFixture.dearmor(fx.original(sig));
        Layout l = Layout.of(packet);
        assertThat(l.bodyStart()).isEqualTo(2);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(packet, 2, l.mpiStart() - 2);
        body.write(0x01); // R: 257 bits, 33 bytes
        body.write(0x01);
        body.write(0x01);
        body.write(packet, l.mpiStart() + 2, 32);
        body.write(0x00); // S: 1 bit, 1 byte
        body.write(0x01);
        body.write(0x01);
        byte[] changed = new byte[2 + body.size()];
        changed[0] = packet[0];
        changed[1] = (byte) body.size();
        System.arraycopy(body.toByteArray(), 0, changed, 2, body.size());

        assertInvalidWithoutException(sig, changed);
    }

    @Provide
    Arbitrary<PacketFlip> signatureValueFlips() {
        return flips(Layout::signatureValues);
    }

    @Provide
    Arbitrary<PacketFlip> uncoveredFlips() {
        return flips(Layout::uncovered);
    }

    private static Arbitrary<PacketFlip> flips(Function<Layout, List<Integer>> positions) {
        return Arbitraries.of(fx.signatureFiles()).flatMap(t -> {
            Layout l = Layout.of(ProvedFixture.dearmor(fx.original(t)));
            return Arbitraries.of(positions.apply(l))
                    .flatMap(pos -> Arbitraries.integers().between(1, 255).map(mask -> new PacketFlip(t, pos, mask)));
        });
    }

    private static VerificationReport verifyPacket(PacketFlip flip) {
        byte[] packet = ProvedFixture.dearmor(fx.original(flip.target()));
        return fx.verifyWith(flip.target(), ProvedFixture.armor(ProvedFixture.flip(packet, flip.position(), flip.mask())));
    }

    private static void assertInvalidOrSameSigner(VerificationReport r, String what) {
        if (r.verdict() != Verdict.INVALID) {
            String signer = fx.verifyUntouched().proofs().get(0).signer().orElseThrow().fingerprint();
            assertThat(r.proofs().get(0).signer()).as(what)
                    .hasValueSatisfying(s -> assertThat(s.fingerprint()).isEqualTo(signer));
        }
    }

    private static void assertInvalidWithoutException(String sig, ToIntFunction<Layout> position, int newValue) {
        byte[] packet = ProvedFixture.dearmor(fx.original(sig));
        packet[position.applyAsInt(Layout.of(packet))] = (byte) newValue;
        assertInvalidWithoutException(sig, packet);
    }

    private static void assertInvalidWithoutException(String sig, byte[] packet) {
        AtomicReference<VerificationReport> report = new AtomicReference<>();

        assertThatCode(() -> report.set(fx.verifyWith(sig, ProvedFixture.armor(packet)))).doesNotThrowAnyException();

        assertThat(report.get().verdict()).isEqualTo(Verdict.INVALID);
        String subject = fx.subjectOf(sig);
        assertThat(report.get().has(CheckCodes.signature(subject, CheckCodes.MALFORMED))
                || report.get().has(CheckCodes.signature(subject, CheckCodes.INVALID))).isTrue();
    }

    /**
     * Where the parts of one v4 signature packet are (RFC 4880 5.2.3), for packets as StreamSigner
     * writes them: old format with a 1-, 2- or 4-byte length, or new format (RFC 4880 4.2.2) with a
     * 1-, 2- or 5-byte length.
     *
     * @param bodyStart where the packet body starts, after tag and length
     * @param unhashedStart where the unhashed subpacket area's 2-byte length starts
     * @param mpiStart where the first MPI's 2-byte bit count starts (the 16-bit hash prefix is just before)
     * @param end the packet's end
     * @param issuerFingerprintVersion where the key version byte of the issuer-fingerprint subpacket is
     * @param mpiBitCounts where each MPI's 2-byte bit count starts
     */
    record Layout(int bodyStart, int unhashedStart, int mpiStart, int end, int issuerFingerprintVersion,
            List<Integer> mpiBitCounts) {
        static Layout of(byte[] p) {
            int body = bodyStart(p);
            if (p[body] != 4) {
                throw new IllegalStateException("expected a v4 signature");
            }
            int hashedStart = body + 6;
            int unhashed = hashedStart + u16(p, body + 4);
            int fingerprintVersion = -1;
            for (int i = hashedStart; i < unhashed; ) {
                int len = p[i] & 0xFF;
                int header = 1;
                if (len >= 192 && len < 255) {
                    len = ((len - 192) << 8) + (p[i + 1] & 0xFF) + 192;
                    header = 2;
                } else if (len == 255) {
                    throw new IllegalStateException("5-byte subpacket lengths are not expected here");
                }
                if ((p[i + header] & 0x7F) == 33) {
                    fingerprintVersion = i + header + 1;
                }
                i += header + len;
            }
            if (fingerprintVersion < 0) {
                throw new IllegalStateException("no issuer fingerprint subpacket in the hashed area");
            }
            int mpiStart = unhashed + 2 + u16(p, unhashed) + 2;
            List<Integer> bitCounts = new ArrayList<>();
            for (int i = mpiStart; i < p.length; i += 2 + (u16(p, i) + 7) / 8) {
                bitCounts.add(i);
            }
            return new Layout(body, unhashed, mpiStart, p.length, fingerprintVersion, List.copyOf(bitCounts));
        }

        private static int bodyStart(byte[] p) {
            int tag = p[0] & 0xFF;
            if (tag == 0xC2) {
                int first = p[1] & 0xFF;
                if (first < 192) {
                    return 2;
                } else if (first < 224) {
                    return 3;
                } else if (first == 255) {
                    return 6;
                }
                throw new IllegalStateException("expected a signature packet of known length, not a partial one");
            }
            if ((tag & 0xC0) != 0x80 || ((tag >> 2) & 0x0F) != 2 || (tag & 0x03) == 3) {
                throw new IllegalStateException("expected a signature packet of known length");
            }
            return 1 + (1 << (tag & 0x03));
        }

        /** The signature type byte. */
        int signatureType() {
            return bodyStart + 1;
        }

        /** The public-key algorithm byte. */
        int keyAlgorithm() {
            return bodyStart + 2;
        }

        /** The hash algorithm byte. */
        int hashAlgorithm() {
            return bodyStart + 3;
        }

        /** Byte positions of the signature values (the MPIs without their bit counts). */
        List<Integer> signatureValues() {
            List<Integer> out = new ArrayList<>();
            range(out, mpiStart, end);
            for (int at : mpiBitCounts) {
                out.removeAll(List.of(at, at + 1));
            }
            return out;
        }

        /** Byte positions nothing covers: tag and length, unhashed area, hash prefix. */
        List<Integer> uncovered() {
            List<Integer> out = new ArrayList<>();
            range(out, 0, bodyStart);
            range(out, unhashedStart, mpiStart);
            return out;
        }

        private static void range(List<Integer> out, int from, int to) {
            for (int i = from; i < to; i++) {
                out.add(i);
            }
        }

        private static int u16(byte[] p, int at) {
            return (p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF);
        }
    }
}
