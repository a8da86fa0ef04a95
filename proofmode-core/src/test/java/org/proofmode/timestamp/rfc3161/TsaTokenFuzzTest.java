package org.proofmode.timestamp.rfc3161;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Optional;

/**
 * Fuzzes the RFC 3161 response parser and the token check: parsing may only fail with
 * {@link TsaFormatException}; checking never throws and never calls garbage valid. In a normal build
 * this replays the seeds in {@code TsaTokenFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class TsaTokenFuzzTest {
    private static final TokenVerifier VERIFIER = new TokenVerifier(List.of());
    private static final List<TokenVerifier.Candidate> DATA = List.of(
            new TokenVerifier.Candidate("the data", Optional.of(new byte[] {1, 2, 3}), new byte[32]));

    @FuzzTest(maxDuration = "2m")
    void parse(byte[] data) {
        try {
            TsaToken t = TsaToken.parse(data);
            assertThat(t.genTime()).isNotNull();
            assertThat(t.imprint()).isNotNull();
        } catch (TsaFormatException expected) {
            // the one documented failure
        }
    }

    @FuzzTest(maxDuration = "2m")
    void verify(byte[] data) {
        TokenVerifier.Result r = VERIFIER.verify(data, DATA);
        assertThat(r.kind()).isNotEqualTo(TokenVerifier.Kind.VALID);
    }
}
