// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.junit.jupiter.api.Test;

/** The parser on responses made by {@code openssl ts -reply} (the fuzz seeds): granted, bare token, rejected. */
class TsaTokenTest {
    private static byte[] seed(String name) throws Exception {
        try (InputStream in = TsaTokenTest.class.getResourceAsStream("TsaTokenFuzzTestInputs/parse/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void parse_readsImprintTimeAndCertificates_fromGrantedResponseAndBareToken() throws Exception {
        byte[] expected = MessageDigest.getInstance("SHA-256").digest("seed data".getBytes());
        for (String name : List.of("granted.tsr", "token.der")) {
            TsaToken t = TsaToken.parse(seed(name));
            assertThat(t.imprint()).as(name).isEqualTo(expected);
            assertThat(t.imprintAlgorithm()).isEqualTo(NISTObjectIdentifiers.id_sha256);
            assertThat(t.nonce()).isPresent();
            assertThat(t.tsaName()).hasValueSatisfying(n -> assertThat(n).contains("Seed TSA"));
        }
        assertThat(TsaToken.parse(seed("granted.tsr")).certificates()).hasSize(2);
    }

    @Test
    void parse_throwsFormatException_forRejectedResponseEmptyAndTrailingBytes() throws Exception {
        assertThatThrownBy(() -> TsaToken.parse(seed("rejected.tsr"))).isInstanceOf(TsaFormatException.class)
                .hasMessageContaining("granted no token").hasMessageContaining("not supported");
        assertThatThrownBy(() -> TsaToken.parse(new byte[0])).isInstanceOf(TsaFormatException.class);
        byte[] granted = seed("granted.tsr");
        byte[] longer = java.util.Arrays.copyOf(granted, granted.length + 2);
        assertThatThrownBy(() -> TsaToken.parse(longer)).isInstanceOf(TsaFormatException.class).hasMessageContaining("trailing");
    }

    @Test
    void verify_untrustedNotValid_forGoodTokenFromUnknownAuthority() throws Exception {
        byte[] data = "seed data".getBytes();
        TokenVerifier.Result r = new TokenVerifier(List.of()).verify(seed("granted.tsr"), List.of(
                new TokenVerifier.Candidate("the seed", Optional.of(data), MessageDigest.getInstance("SHA-256").digest(data))));
        assertThat(r.kind()).as(r.message()).isEqualTo(TokenVerifier.Kind.UNTRUSTED);
        assertThat(r.tsa()).hasValueSatisfying(n -> assertThat(n).contains("Seed TSA"));
    }
}
