// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.verify.SafetyNetTokens.MEDIA;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interop: {@code openssl dgst -sha256 -verify} (the JWS signature with the leaf's key) and
 * {@code openssl verify -attime} (the chain at the token's time against Debian's trust store) agree with
 * our verdict on the app's real token and on copies tampered by code. openssl cannot read the nonce; a
 * token for other media passes both openssl steps and fails ours only on {@code nonce.mismatch}.
 */
class SafetyNetOpensslTest {
    @TempDir
    Path tmp;

    static Stream<Arguments> tokens() throws Exception {
        return Stream.of(
                Arguments.of("sample", SafetyNetTokens.sample(), MEDIA, CheckCodes.INTEGRITY_SAFETYNET_VALID),
                Arguments.of("payloadChanged", SafetyNetTokens.payloadChanged(), MEDIA, CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID),
                Arguments.of("signatureCut", SafetyNetTokens.signatureCut(), MEDIA, CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID),
                Arguments.of("chainSwapped", SafetyNetTokens.chainSwapped(), MEDIA, CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID),
                Arguments.of("otherMedia", SafetyNetTokens.sample(), "2".repeat(64), CheckCodes.INTEGRITY_SAFETYNET_NONCE_MISMATCH));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tokens")
    void safetyNet_agreesWithOpenssl_realAndTamperedTokens(String label, String token, String media, String expected)
            throws Exception {
        List<Check> ours = DeviceIntegrityChecks.systemDefault().safetyNet(label + ".gst",
                token.getBytes(StandardCharsets.US_ASCII), Optional.of(media));
        assertThat(ours.get(0).code()).isEqualTo(expected);

        String[] parts = token.split("\\.");
        var header = SafetyNetTokens.json(token, 0);
        long seconds = SafetyNetTokens.json(token, 1).get("timestampMs").asLong() / 1000;
        List<String> pems = new ArrayList<>();
        header.get("x5c").forEach(c -> pems.add("-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(Base64.getDecoder().decode(c.asText()))
                + "\n-----END CERTIFICATE-----\n"));
        Path leaf = Files.writeString(tmp.resolve("leaf.pem"), pems.get(0));
        Path untrusted = Files.writeString(tmp.resolve("untrusted.pem"), String.join("", pems.subList(1, pems.size())));
        Path signed = Files.writeString(tmp.resolve("signed"), parts[0] + "." + parts[1], StandardCharsets.US_ASCII);
        Path sig = Files.write(tmp.resolve("sig"), Base64.getUrlDecoder().decode(parts[2]));
        Path pub = tmp.resolve("pub.pem");
        assertThat(run("openssl", "x509", "-in", leaf.toString(), "-pubkey", "-noout", "-out", pub.toString())).isZero();

        boolean opensslSignature = run("openssl", "dgst", "-sha256", "-verify", pub.toString(), "-signature", sig.toString(),
                signed.toString()) == 0;
        boolean opensslChain = run("openssl", "verify", "-attime", Long.toString(seconds), "-untrusted", untrusted.toString(),
                "-CAfile", TrustRoots.DEBIAN_BUNDLE.toString(), leaf.toString()) == 0;

        assertThat(opensslSignature).as("openssl dgst on " + label)
                .isEqualTo(!expected.equals(CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID));
        if (opensslSignature) {
            assertThat(opensslChain).as("openssl verify -attime on " + label)
                    .isEqualTo(!expected.equals(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID));
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
