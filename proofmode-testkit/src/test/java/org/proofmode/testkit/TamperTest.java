// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class TamperTest {
    @TempDir
    Path dir;

    @Test
    void flipByte_changesOnlyThatByte_offsetInside() throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, new byte[] {'a', 'b', 'c'});
        Tamper.flipByte(f, 1);
        assertThat(Files.readAllBytes(f)).containsExactly('a', 'c', 'c');
    }

    @Test
    void flipByte_fails_offsetPastEnd() throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, new byte[] {'a'});
        assertThatThrownBy(() -> Tamper.flipByte(f, 1)).isInstanceOf(AssertionFailedError.class).hasMessageContaining("outside");
    }

    @Test
    void offsetOf_findsFirstOccurrence_textPresent() throws IOException {
        Path f = dir.resolve("f");
        Files.writeString(f, "xx\"Notes\":\"a\",\"Notes\"");
        assertThat(Tamper.offsetOf(f, "\"Notes\"")).isEqualTo(2);
    }

    @Test
    void offsetOf_fails_textAbsent() throws IOException {
        Path f = dir.resolve("f");
        Files.writeString(f, "abc");
        assertThatThrownBy(() -> Tamper.offsetOf(f, "z")).isInstanceOf(AssertionFailedError.class);
    }

    @Test
    void replaceEntry_keepsOthersAndOrder_entryPresent() throws IOException {
        Path in = zip("a", "1", "b", "2", "c", "3");
        Path out = dir.resolve("out.zip");
        Tamper.replaceEntry(in, out, "b", bytes("two"));
        assertThat(texts(out)).containsExactly(Map.entry("a", "1"), Map.entry("b", "two"), Map.entry("c", "3"));
    }

    @Test
    void replaceEntry_fails_entryAbsent() throws IOException {
        Path in = zip("a", "1");
        assertThatThrownBy(() -> Tamper.replaceEntry(in, dir.resolve("out.zip"), "z", bytes("")))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("z is not in");
    }

    @Test
    void removeEntry_dropsOnlyThatEntry_entryPresent() throws IOException {
        Path in = zip("a", "1", "b", "2");
        Path out = dir.resolve("out.zip");
        Tamper.removeEntry(in, out, "a");
        assertThat(texts(out)).containsExactly(Map.entry("b", "2"));
    }

    @Test
    void addEntry_appendsEntry_newName() throws IOException {
        Path in = zip("a", "1");
        Path out = dir.resolve("out.zip");
        Tamper.addEntry(in, out, "n", bytes("new"));
        assertThat(texts(out)).containsExactly(Map.entry("a", "1"), Map.entry("n", "new"));
    }

    @Test
    void addEntry_fails_nameTaken() throws IOException {
        Path in = zip("a", "1");
        assertThatThrownBy(() -> Tamper.addEntry(in, dir.resolve("out.zip"), "a", bytes("")))
                .isInstanceOf(AssertionFailedError.class);
    }

    @Test
    void breakSignatureValue_keepsArmorButChangesLastPacketByte_armoredSignature() throws IOException {
        Path sig = dir.resolve("s.asc");
        Files.writeString(sig, """
                -----BEGIN PGP SIGNATURE-----

                iHUEABYIAB0FgmsRG+gWIQTlZ/QBHm/iZYbfEqFkVmlcuy1SJgAKCRBkVmlcuy1S
                JmcjAQCaDtPOxdgdDdKAn0dwzkSzUKdeEkfGfxlIJ0inlh8IJwEA1PUrMvHJWB2a
                ILBFCqMaA/Ux0KoCf44JTXGdNc06yw4=
                =x47e
                -----END PGP SIGNATURE-----
                """, StandardCharsets.US_ASCII);
        byte[] before = dearmor(sig);
        Tamper.breakSignatureValue(sig);
        byte[] after = dearmor(sig);
        assertThat(Files.readString(sig)).startsWith("-----BEGIN PGP SIGNATURE-----");
        assertThat(after).hasSameSizeAs(before);
        before[before.length - 1] ^= 0x01;
        assertThat(after).isEqualTo(before);
    }

    private static byte[] dearmor(Path sig) throws IOException {
        try (var in = org.bouncycastle.bcpg.ArmoredInputStream.builder().setDetectMissingCRC(true).build(Files.newInputStream(sig))) {
            return in.readAllBytes();
        }
    }

    private Path zip(String... nameThenContent) throws IOException {
        Path z = Files.createTempFile(dir, "in", ".zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(z))) {
            for (int i = 0; i < nameThenContent.length; i += 2) {
                out.putNextEntry(new ZipEntry(nameThenContent[i]));
                out.write(bytes(nameThenContent[i + 1]));
                out.closeEntry();
            }
        }
        return z;
    }

    private static Map<String, String> texts(Path zip) {
        Map<String, String> out = new LinkedHashMap<>();
        Tamper.readZip(zip).forEach((k, v) -> out.put(k, new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
