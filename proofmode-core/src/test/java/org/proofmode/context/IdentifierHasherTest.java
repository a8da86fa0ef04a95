// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.util.Hex;

class IdentifierHasherTest {
    @TempDir
    Path home;

    @Test
    void hash_givesEqualValues_forOneMacInAnySpelling() {
        IdentifierHasher h = new IdentifierHasher(home);

        String a = h.hash(IdentifierHasher.Kind.MAC, "02:FC:00:00:00:01");

        assertThat(a).matches("hmac-sha256:[0-9a-f]{64}");
        assertThat(h.hash(IdentifierHasher.Kind.MAC, "02-fc-00-00-00-01")).isEqualTo(a);
        assertThat(h.hash(IdentifierHasher.Kind.MAC, "02fc00000001")).isEqualTo(a);
        assertThat(h.hash(IdentifierHasher.Kind.MAC, "02:fc:00:00:00:02")).isNotEqualTo(a);
        assertThat(h.hash(IdentifierHasher.Kind.SERIAL, "02:fc:00:00:00:01")).isNotEqualTo(a);
    }

    @Test
    void hash_keepsValues_acrossInstancesOfOneHome() {
        String a = new IdentifierHasher(home).hash(IdentifierHasher.Kind.HOSTNAME, "Laptop");

        assertThat(new IdentifierHasher(home).hash(IdentifierHasher.Kind.HOSTNAME, "laptop")).isEqualTo(a);
    }

    @Test
    void hash_differs_betweenInstallations() throws Exception {
        Path other = Files.createTempDirectory(home, "other");

        assertThat(new IdentifierHasher(home).hash(IdentifierHasher.Kind.MAC, "02:fc:00:00:00:01"))
                .isNotEqualTo(new IdentifierHasher(other).hash(IdentifierHasher.Kind.MAC, "02:fc:00:00:00:01"));
    }

    @Test
    void hash_isNotAPlainHash_soVendorPrefixesCannotBeTried() throws Exception {
        String mac = "02:fc:00:00:00:01";
        String plain = Hex.encode(MessageDigest.getInstance("SHA-256").digest(mac.getBytes()));

        assertThat(new IdentifierHasher(home).hash(IdentifierHasher.Kind.MAC, mac)).doesNotContain(plain);
    }

    @Test
    void hash_createsAnOwnerOnlySecretOf32Bytes_onFirstUseOnly() throws Exception {
        Path secret = home.resolve("keys").resolve(IdentifierHasher.SECRET_FILE);
        IdentifierHasher h = new IdentifierHasher(home);
        assertThat(secret).doesNotExist();

        h.hash(IdentifierHasher.Kind.SERIAL, "SN1");

        assertThat(Files.size(secret)).isEqualTo(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret.getParent()))).isEqualTo("rwx------");
        assertThat(h.toString()).doesNotContain(Hex.encode(Files.readAllBytes(secret)));
    }
}
