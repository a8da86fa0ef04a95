// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.ots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.ZipFile;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;

class OtsFileTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final Path STARLING = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor");

    static byte[] appOts(String zip) throws Exception {
        try (ZipFile z = new ZipFile(STARLING.resolve(zip).toFile()); InputStream in = z.getInputStream(z.getEntry(H + ".ots"))) {
            return in.readAllBytes();
        }
    }

    @Test
    void parse_roundTripsByteForByte_appFiles() throws Exception {
        for (String zip : List.of("good.zip", "no-json.zip")) {
            byte[] bytes = appOts(zip);
            OtsFile f = OtsFile.parse(bytes);
            assertThat(f.toBytes()).as(zip).isEqualTo(bytes);
            assertThat(HexFormat.of().formatHex(f.digest())).isEqualTo(H);
            assertThat(f.fileHash()).isEqualTo(Op.Kind.SHA256);
            assertThat(f.timestamp().allAttestations()).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getValue()).isInstanceOf(Attestation.Pending.class));
        }
    }

    @Test
    void compareTo_ordersBitcoinByHeight_asTheReference() {
        // LEB128 payloads of 300 (ac 02) and 200 (c8 01) sort the other way round as bytes.
        assertThat(new Attestation.Bitcoin(200).compareTo(new Attestation.Bitcoin(300))).isNegative();
        assertThat(new Attestation.Bitcoin(2).compareTo(new Attestation.Bitcoin(128))).isNegative();
    }

    @Test
    void compareTo_ordersPendingByUri_notByLengthPrefix() {
        Attestation alice = new Attestation.Pending("https://alice.btc.calendar.opentimestamps.org");
        Attestation bob = new Attestation.Pending("https://bob.btc.calendar.opentimestamps.org");
        assertThat(alice.compareTo(bob)).isNegative();
    }

    @Test
    void toBytes_writesAttestationsInReferenceOrder() throws Exception {
        Timestamp t = new Timestamp(new byte[32]);
        t.attest(new Attestation.Bitcoin(300));
        t.attest(new Attestation.Bitcoin(200));
        OtsFile f = new OtsFile(Op.Kind.SHA256, t);
        OtsFile back = OtsFile.parse(f.toBytes());
        assertThat(back.timestamp().attestations()).containsExactly(new Attestation.Bitcoin(200), new Attestation.Bitcoin(300));
        assertThat(back.toBytes()).isEqualTo(f.toBytes());
    }

    @Test
    void pending_rejectsCharactersTheReferenceRejects() {
        assertThatThrownBy(() -> new Attestation.Pending("https://cal.example/?q=1")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Attestation.Pending("https://a-b.example_1/x.y:443").uri()).isNotEmpty();
    }

    @Test
    void parse_throwsFormatException_forMemoryAmplification() {
        // A 4 KiB message, then thousands of one-byte branches that each copy it: small file, huge tree.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = Arrays.copyOf(HexFormat.of().parseHex("004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294" + "01" + "08"), 32 + 33);
        out.write(header, 0, header.length);
        out.write(0xF0);
        OtsReader.writeVarbytes(out, new byte[4000]);
        for (int i = 0; i < 4000; i++) {
            out.write(0xFF);
            out.write(0xF0);
            OtsReader.writeVarbytes(out, new byte[] {(byte) i, (byte) (i >> 8)});
            writePending(out);
        }
        out.write(0x00);
        new Attestation.Bitcoin(1).write(out);
        byte[] hostile = out.toByteArray();
        assertThat(hostile.length).isLessThan(OtsFile.MAX_BYTES);
        assertThatThrownBy(() -> OtsFile.parse(hostile)).isInstanceOf(OtsFormatException.class).hasMessageContaining("exceed");
    }

    private static void writePending(ByteArrayOutputStream out) {
        out.write(0x00);
        new Attestation.Pending("http://c").write(out);
    }

    @Test
    void parse_throwsFormatException_forTrailingBytesAndBadMagic() throws Exception {
        byte[] good = appOts("good.zip");
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> OtsFile.parse(trailing)).isInstanceOf(OtsFormatException.class).hasMessageContaining("trailing");
        byte[] magic = good.clone();
        magic[1] ^= 1;
        assertThatThrownBy(() -> OtsFile.parse(magic)).isInstanceOf(OtsFormatException.class).hasMessageContaining("magic");
    }

    @Test
    void merge_copiesNodes_soLaterChangesStayLocal() throws Exception {
        Timestamp a = new Timestamp(new byte[32]);
        Timestamp b = new Timestamp(new byte[32]);
        b.add(Op.sha256()).attest(new Attestation.Bitcoin(5));
        a.merge(b);
        a.add(Op.sha256()).attest(new Attestation.Bitcoin(6));
        assertThat(b.allAttestations()).hasSize(1);
        assertThat(a.allAttestations()).hasSize(2);
    }

    @Property(tries = 200)
    void toBytes_parse_isIdentity(@ForAll("trees") Timestamp t) throws Exception {
        OtsFile f = new OtsFile(Op.Kind.SHA256, t);
        byte[] bytes = f.toBytes();
        assertThat(OtsFile.parse(bytes).toBytes()).isEqualTo(bytes);
    }

    @Property(tries = 300)
    void parse_detectsAnySingleByteFlip(@ForAll("trees") Timestamp t, @ForAll int where, @ForAll byte mask) throws Exception {
        byte[] bytes = new OtsFile(Op.Kind.SHA256, t).toBytes();
        byte[] flipped = bytes.clone();
        int i = Math.floorMod(where, bytes.length);
        flipped[i] ^= mask == 0 ? 1 : mask;
        try {
            OtsFile back = OtsFile.parse(flipped);
            assertThat(back.toBytes()).isNotEqualTo(bytes);
        } catch (OtsFormatException expected) {
            // detected
        }
    }

    @Provide
    Arbitrary<Timestamp> trees() {
        Arbitrary<byte[]> digest = Arbitraries.bytes().array(byte[].class).ofSize(32);
        Arbitrary<byte[]> arg = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(40);
        Arbitrary<Integer> shape = Arbitraries.integers().between(0, 6);
        return Combinators.combine(digest, arg.list().ofMinSize(1).ofMaxSize(6), shape.list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.longs().between(0, 900_000)).as((d, args, shapes, height) -> {
                    try {
                        Timestamp root = new Timestamp(d);
                        Timestamp node = root;
                        for (int i = 0; i < args.size(); i++) {
                            int s = shapes.get(i % shapes.size());
                            node = switch (s % 3) {
                                case 0 -> node.add(Op.append(args.get(i)));
                                case 1 -> node.add(Op.prepend(args.get(i)));
                                default -> node.add(Op.sha256());
                            };
                            if (s >= 4) {
                                node.attest(new Attestation.Pending("https://cal" + i + ".example"));
                            }
                        }
                        node.attest(new Attestation.Bitcoin(height));
                        return root;
                    } catch (OtsFormatException e) {
                        throw new IllegalStateException(e);
                    }
                });
    }
}
