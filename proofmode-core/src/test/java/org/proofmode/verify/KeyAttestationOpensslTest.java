// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.proofmode.verify.KeyAttestations.Made;
import org.proofmode.verify.KeyAttestations.Spec;

/**
 * Interop: {@code openssl verify -attime} (the chain when its newest certificate became valid, against the
 * same roots) agrees with our chain verdict on Google's published device chains and on chains made here,
 * tampered and untampered. Left out: the Pixel 3 chain of 2018, which ends at Google's 2016 root; openssl
 * also checks the dates of the trusted root (the bundled 2022 reissue, same name and key), path validation
 * as RFC 5280 defines it, and ours, do not.
 */
class KeyAttestationOpensslTest {
    private static final String MEDIA = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";

    @TempDir
    Path tmp;

    static Stream<Arguments> chains() throws Exception {
        List<X509Certificate> google = DeviceIntegrityChecks.googleKeyAttestationRoots();
        Made made = KeyAttestations.chain(Spec.good(MEDIA));
        Made other = KeyAttestations.chain(Spec.good(MEDIA));
        byte[] tampered = made.pem().clone();
        String text = new String(tampered, StandardCharsets.US_ASCII);
        // One base64 character of the leaf's signature, near the leaf's end, changed.
        int end = text.indexOf("-----END CERTIFICATE-----") - 6;
        tampered[end] = (byte) (tampered[end] == 'A' ? 'B' : 'A');
        return Stream.of(
                Arguments.of("akita", KeyAttestations.sample("akita-sdk34-TEE_EC_NONE.pem"), google, true),
                Arguments.of("caiman", KeyAttestations.sample("caiman-sdk36-TEE_EC_RKP.pem"), google, true),
                Arguments.of("tegu", KeyAttestations.sample("tegu-sdk36-SB_EC_2026_ROOT.pem"), google, true),
                Arguments.of("marlinSoftwareRoot", KeyAttestations.sample("marlin-sdk29-TEE_EC_NONE.pem"), google, false),
                Arguments.of("made", made.pem(), List.of(made.root()), true),
                Arguments.of("madeOtherRoot", made.pem(), List.of(other.root()), false),
                Arguments.of("madeSignatureChanged", tampered, List.of(made.root()), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void keyAttestationChain_agreesWithOpenssl(String label, byte[] pem, List<X509Certificate> roots, boolean holds) throws Exception {
        List<Check> ours = DeviceIntegrityChecks.of(roots, List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID))
                .keyAttestation(label, pem, Optional.of(MEDIA));
        boolean oursHolds = !ours.get(0).code().equals(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID)
                && !ours.get(0).code().equals(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED);
        assertThat(oursHolds).as(ours.toString()).isEqualTo(holds);

        List<X509Certificate> chain = new ArrayList<>();
        try {
            CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))
                    .forEach(c -> chain.add((X509Certificate) c));
        } catch (java.security.cert.CertificateException e) {
            assertThat(holds).isFalse();
            return;
        }
        Path leaf = Files.write(tmp.resolve("leaf.pem"), Made.pem(chain.subList(0, 1)));
        Path untrusted = Files.write(tmp.resolve("untrusted.pem"), Made.pem(chain.subList(1, chain.size())));
        Path rootsFile = Files.write(tmp.resolve("roots.pem"), Made.pem(roots));
        long at = KeyAttestationChecks.chainTime(chain).getEpochSecond();
        boolean openssl = run("openssl", "verify", "-attime", Long.toString(at), "-CAfile", rootsFile.toString(), "-untrusted",
                untrusted.toString(), leaf.toString()) == 0;
        assertThat(openssl).as("openssl verify -attime on " + label).isEqualTo(holds);
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
