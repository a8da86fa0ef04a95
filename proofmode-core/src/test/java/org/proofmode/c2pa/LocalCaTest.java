// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;

class LocalCaTest {
    @TempDir
    Path home;

    @Test
    void create_encryptedOwnerOnlyKeys_profileCompliantLeaf() throws Exception {
        C2paSigner signer = C2paFixtures.signer(home);
        for (String key : new String[] {"ca.key", "signer.key"}) {
            Path f = home.resolve("c2pa").resolve(key);
            String text = Files.readString(f, StandardCharsets.US_ASCII);
            assertThat(text).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----").doesNotContain("BEGIN PRIVATE KEY");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        }
        X509Certificate leaf = signer.chain().get(0);
        assertThat(Credentials.profileProblem(leaf)).isEmpty();
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(leaf.getKeyUsage()[0]).isTrue();
        assertThat(LocalCa.anchorsInHome(home)).hasSize(1);
    }

    @Test
    void signer_keyLocked_wrongPassphrase() {
        assertThatThrownBy(() -> new LocalCa(C2paFixtures.sharedHome()).signer(Passphrase.adopt("wrong".toCharArray())))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
    }

    @Test
    void create_outputExists_secondTimeWithoutReplace() {
        assertThatThrownBy(() -> new LocalCa(C2paFixtures.sharedHome()).create(C2paFixtures.passphrase(), "TEST", false))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.OUTPUT_EXISTS));
    }

    @Test
    void signer_inputMissing_noCa() {
        assertThatThrownBy(() -> new LocalCa(home).signer(C2paFixtures.passphrase()))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.INPUT_MISSING));
    }
}
