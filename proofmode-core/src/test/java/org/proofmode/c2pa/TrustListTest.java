// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.timestamp.rfc3161.TrustedRoots;

/**
 * Trust lists as published (the C2PA trust list, the interim list): one PEM file with many
 * certificates and text between them, read as {@code --c2pa-trust} reads it.
 */
class TrustListTest {
    @Test
    void read_trusted_anchorInsideAnAnnotatedPemBundle(@TempDir Path dir) throws Exception {
        C2paSigner signer = C2paFixtures.shared();
        Path ca = new LocalCa(C2paFixtures.sharedHome()).caCertificateFile();
        Path other = C2paFixtures.sharedHome().resolve("c2pa/signer.pem");
        Path bundle = dir.resolve("C2PA-TRUST-LIST.pem");
        Files.writeString(bundle, "# C2PA trust list\n# Subject: an unrelated signer ----- not a PEM line\n"
                + Files.readString(other, StandardCharsets.US_ASCII) + "\n# Subject: our CA\n"
                + Files.readString(ca, StandardCharsets.US_ASCII), StandardCharsets.US_ASCII);
        byte[] asset = C2paFixtures.created(C2paFixtures.JPEG, signer);

        List<java.security.cert.X509Certificate> anchors = TrustedRoots.read(bundle);

        assertThat(anchors).hasSizeGreaterThanOrEqualTo(2);
        assertThat(new C2paReader(anchors, List.of()).read(asset).map(C2paReport::state)).isEqualTo(Optional.of(ValidationState.TRUSTED));
        assertThat(new C2paReader(List.of(), List.of()).read(asset).map(C2paReport::state)).isEqualTo(Optional.of(ValidationState.VALID));
    }
}
