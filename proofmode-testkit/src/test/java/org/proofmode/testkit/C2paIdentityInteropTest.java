// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paReport;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.C2paStatus;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.ValidationState;
import org.proofmode.keys.Passphrase;

/**
 * Our CAWG X.509 identity assertion read by the reference validator (c2pa-rs as WebAssembly, whose build
 * validates CAWG identity assertions): it must find the identity's signature valid and the manifest Valid,
 * as we do; without trust anchors both call the identity's certificate untrusted, which leaves the state.
 */
class C2paIdentityInteropTest {
    private static final String PASSPHRASE = "interop";

    @Test
    void validate_validWithIdentity_referenceReadsOurIdentityAssertion(@TempDir Path dir) throws Exception {
        LocalCa device = new LocalCa(dir.resolve("device"));
        device.create(Passphrase.adopt(PASSPHRASE.toCharArray()), "DEVICE", false);
        C2paSigner signer = device.signer(Passphrase.adopt(PASSPHRASE.toCharArray()));
        LocalCa reporter = new LocalCa(dir.resolve("reporter"));
        reporter.create(Passphrase.adopt(PASSPHRASE.toCharArray()), "REPORTER", false);
        Path folder = dir.resolve("reporter").resolve(LocalCa.FOLDER);
        Path pem = dir.resolve("identity.pem");
        Files.writeString(pem, Files.readString(folder.resolve("signer.pem")) + Files.readString(folder.resolve("signer.key")));
        C2paSigner identity;
        try (Passphrase p = Passphrase.adopt(PASSPHRASE.toCharArray())) {
            identity = C2paSigner.fromPem(pem, Optional.of(p));
        }
        Path out = dir.resolve("with-identity.jpg");
        Files.write(out, new ManifestBuilder().title("with-identity.jpg").created(ManifestBuilder.DIGITAL_CAPTURE).identity(identity)
                .sign(Files.readAllBytes(OwnMedia.examplePhoto()), signer, Optional.empty()));

        C2paWasm.Result ref = C2paWasm.validate(out, "image/jpeg", Optional.empty());
        C2paReport ours = new C2paReader(List.of(), List.of()).read(out).orElseThrow();

        assertThat(ref.state()).as(ref.toString()).isEqualTo("Valid");
        assertThat(ref.success()).as(ref.toString()).contains(C2paStatus.Codes.CAWG_X509_SIGNATURE_VALIDATED);
        assertThat(ref.manifests()).extracting(C2paWasm.ManifestFailure::code)
                .containsExactlyInAnyOrder(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED, C2paStatus.Codes.CAWG_X509_CREDENTIAL_UNTRUSTED);
        assertThat(ours.state()).isEqualTo(ValidationState.VALID);
        assertThat(ours.has(C2paStatus.Codes.CAWG_X509_SIGNATURE_VALIDATED)).isTrue();
        assertThat(ours.statuses()).filteredOn(s -> s.outcome() == C2paStatus.Outcome.FAILURE).extracting(C2paStatus::code)
                .containsExactlyInAnyOrder(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED, C2paStatus.Codes.CAWG_X509_CREDENTIAL_UNTRUSTED);
    }
}
