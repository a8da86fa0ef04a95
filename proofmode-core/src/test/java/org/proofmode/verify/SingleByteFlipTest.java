// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;

/**
 * Any single-byte change to a proved media file or to its proof files makes the proof invalid.
 *
 * <p>Signature files are ASCII armor. Flips are aimed at the base64 body, the part that encodes the
 * signature packet; flips in the checksum line have a property of their own. Flips in the
 * {@code BEGIN}/{@code END} line text and in line breaks are not aimed at: the armor decoder does not
 * read that text, so they leave the signature packet, and the proof, unchanged. A few body flips do
 * not change the packet either (see the property); they are told apart by decoding the body, not
 * skipped. Changes to the packet itself, re-armored with a correct checksum, are in
 * {@link SignaturePacketTamperTest}.
 */
class SingleByteFlipTest {
    private static Path dir;
    private static ProvedFixture fx;

    /** One flip: a target file, a byte position in it, and a non-zero XOR mask. */
    record Flip(String target, int position, int mask) {}

    @BeforeContainer
    static void prove() throws Exception {
        dir = Files.createTempDirectory("byte-flip");
        ProofMode pm = ProofMode.at(dir.resolve("home"));
        fx = ProvedFixture.prove(dir, pm, TestHomes.keyIn(pm, KeyType.ED25519), 1);
    }

    @AfterContainer
    static void cleanUp() {
        TestHomes.deleteTree(dir);
    }

    @Example
    void verify_valid_untouchedCopy() {
        VerificationReport r = fx.verifyUntouched();

        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        assertThat(r.has("signature.media.valid")).isTrue();
        assertThat(r.has("signature.proofJson.valid")).isTrue();
        assertThat(r.has("signature.proofCsv.valid")).isTrue();
        assertThat(r.has(CheckCodes.MEDIA_HASH_MATCH)).isTrue();
    }

    @Property(tries = 200, seed = "20251203")
    void verify_invalid_anyByteFlippedInMediaOrRecord(@ForAll("dataFlips") Flip flip) {
        byte[] changed = ProvedFixture.flip(fx.original(flip.target()), flip.position(), flip.mask());

        VerificationReport r = fx.verifyWith(flip.target(), changed);

        assertThat(r.verdict()).as("%s", flip).isEqualTo(Verdict.INVALID);
    }

    @Property(tries = 150, seed = "20251203")
    void verify_invalid_anyBase64ByteFlippedInSignature(@ForAll("signatureBodyFlips") Flip flip) {
        byte[] original = fx.original(flip.target());
        byte[] changed = ProvedFixture.flip(original, flip.position(), flip.mask());

        VerificationReport r = fx.verifyWith(flip.target(), changed);

        byte[] packet = decodeBody(original);
        byte[] decoded = decodeBody(changed);
        boolean samePacket = decoded.length >= packet.length && Arrays.equals(decoded, 0, packet.length, packet, 0, packet.length);
        Statistics.label("signature packet").collect(samePacket
                ? decoded.length == packet.length ? "same bytes" : "same packet, then extra bytes" : "changed");
        if (samePacket) {
            // No tamper: the digit that precedes '=' padding carries bits the decoder drops, and a
            // digit in place of '=' only adds bytes after the packet. The signature is the same one,
            // so the verifier may call it valid, or reject the armor; it must not name another signer.
            if (r.verdict() != Verdict.INVALID) {
                assertThat(r.proofs().get(0).signer()).as("%s", flip).hasValueSatisfying(
                        s -> assertThat(s.fingerprint()).isEqualTo(fx.verifyUntouched().proofs().get(0).signer().orElseThrow().fingerprint()));
            }
        } else {
            assertThat(r.verdict()).as("%s", flip).isEqualTo(Verdict.INVALID);
            assertThat(r.find(CheckCodes.signature(fx.subjectOf(flip.target()), CheckCodes.VALID))).as("%s", flip).isEmpty();
        }
    }

    @Example
    void decodeBody_samePacket_eitherOfTwoPaddingCharactersChanged() {
        // A packet of 4 bytes ends its base64 with "==" (as a signature whose MPI is a byte shorter does);
        // either '=' turned into '<' is skipped by an armor reader, which then has the same bytes.
        String armor = "-----BEGIN PGP SIGNATURE-----\n\nAQIDBA==\n=AAAA\n-----END PGP SIGNATURE-----\n";

        for (String end : List.of("BA<=", "BA=<")) {
            byte[] changed = armor.replace("BA==", end).getBytes(StandardCharsets.US_ASCII);
            assertThat(decodeBody(changed)).as(end).containsExactly(1, 2, 3, 4);
        }
    }

    @Property(tries = 100, seed = "20251203")
    void verify_malformedSignature_armorChecksumFlipped(@ForAll("checksumFlips") Flip flip) {
        byte[] changed = ProvedFixture.flip(fx.original(flip.target()), flip.position(), flip.mask());

        VerificationReport r = fx.verifyWith(flip.target(), changed);

        assertThat(r.verdict()).as("%s", flip).isEqualTo(Verdict.INVALID);
        assertThat(r.has(CheckCodes.signature(fx.subjectOf(flip.target()), CheckCodes.MALFORMED))).as("%s", flip).isTrue();
    }

    @Provide
    Arbitrary<Flip> dataFlips() {
        List<String> targets = List.of(ProvedFixture.MEDIA, fx.flipTargets().get(1), fx.flipTargets().get(2));
        return Arbitraries.of(targets).flatMap(t -> Arbitraries.integers().between(0, fx.original(t).length - 1)
                .flatMap(pos -> masks().map(mask -> new Flip(t, pos, mask))));
    }

    @Provide
    Arbitrary<Flip> signatureBodyFlips() {
        return Arbitraries.of(fx.signatureFiles()).flatMap(t -> Arbitraries.of(bodyPositions(fx.original(t)))
                .flatMap(pos -> masks().map(mask -> new Flip(t, pos, mask))));
    }

    @Provide
    Arbitrary<Flip> checksumFlips() {
        return Arbitraries.of(fx.signatureFiles()).flatMap(t -> Arbitraries.of(checksumPositions(fx.original(t)))
                .flatMap(pos -> masks().map(mask -> new Flip(t, pos, mask))));
    }

    private static Arbitrary<Integer> masks() {
        return Arbitraries.integers().between(1, 255);
    }

    /** Positions of the base64 digits (and '=' padding) of the armor body, line breaks excluded. */
    static List<Integer> bodyPositions(byte[] armored) {
        List<Integer> out = new ArrayList<>();
        for (int[] line : lines(armored)) {
            if (line[2] == 1) {
                for (int i = line[0]; i < line[1]; i++) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /** Positions of the checksum line ({@code =XXXX}), its '=' included. */
    static List<Integer> checksumPositions(byte[] armored) {
        List<Integer> out = new ArrayList<>();
        for (int[] line : lines(armored)) {
            if (line[2] == 2) {
                for (int i = line[0]; i < line[1]; i++) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /**
     * The base64 body decoded as an armor reader does: characters outside the base64 alphabet are skipped,
     * and padding is not required (so a padding '=' turned into another symbol leaves the packet as it
     * was, also when it was the first of two); empty if what remains is not valid base64.
     */
    static byte[] decodeBody(byte[] armored) {
        StringBuilder b64 = new StringBuilder();
        for (int[] line : lines(armored)) {
            if (line[2] == 1) {
                b64.append(new String(armored, line[0], line[1] - line[0], StandardCharsets.ISO_8859_1)
                        .replaceAll("[^A-Za-z0-9+/]", ""));
            }
        }
        try {
            return Base64.getDecoder().decode(b64.toString());
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    /**
     * Splits armor into lines {start, end, kind}: kind 1 for body lines (after the blank line that ends
     * the headers, before the checksum), 2 for the checksum line, 0 otherwise.
     */
    private static List<int[]> lines(byte[] armored) {
        List<int[]> out = new ArrayList<>();
        int state = 0; // 0 headers, 1 body, 2 after checksum
        int start = 0;
        for (int i = 0; i <= armored.length; i++) {
            if (i == armored.length || armored[i] == '\n') {
                int end = i > start && armored[i - 1] == '\r' ? i - 1 : i;
                int kind = 0;
                if (state == 0 && end == start) {
                    state = 1;
                } else if (state == 1 && end > start && armored[start] == '=') {
                    kind = 2;
                    state = 2;
                } else if (state == 1 && end > start && armored[start] != '-') {
                    kind = 1;
                }
                out.add(new int[] {start, end, kind});
                start = i + 1;
            }
        }
        return out;
    }
}
