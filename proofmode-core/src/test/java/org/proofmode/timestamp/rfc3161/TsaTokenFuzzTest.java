// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp.rfc3161;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.cert.X509CertificateHolder;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the RFC 3161 response parser and the token check: parsing may only fail with
 * {@link TsaFormatException}; checking never throws and never calls anything valid that the seed
 * authority did not sign. In a normal build this replays the seeds in
 * {@code TsaTokenFuzzTestInputs/<method>/}; {@code JAZZER_FUZZ=1} fuzzes (see bench/fuzz.sh).
 */
class TsaTokenFuzzTest {
    private static final String GENUINE = "TsaTokenFuzzTestInputs/verify/";
    private static final TokenVerifier NO_ROOTS = new TokenVerifier(List.of());
    private static final List<TokenVerifier.Candidate> OTHER_DATA = List.of(
            new TokenVerifier.Candidate("the data", Optional.of(new byte[] {1, 2, 3}), new byte[32]));
    /** Trusts the root that signed the seed authority's certificate, so that mutated seeds reach the chain check. */
    private static final TokenVerifier SEED_ROOT = new TokenVerifier(seedRoot());
    /** The time-stamp infos the seed authority signed (DER, hex): the only ones a valid token may carry. */
    private static final Set<String> SIGNED = signedInfos();

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
        // Data the token does not cover: the check stops at the imprint, and must say so without throwing.
        assertThat(NO_ROOTS.verify(data, OTHER_DATA).kind()).isEqualTo(TokenVerifier.Kind.INVALID);

        // Data the token claims to cover, and a trusted root: the signature and the chain are checked on these bytes.
        Optional<TsaToken> parsed = parsed(data);
        List<TokenVerifier.Candidate> claimed = parsed.map(t -> List.of(new TokenVerifier.Candidate("what the token claims",
                Optional.empty(), t.imprint()))).orElse(OTHER_DATA);
        TokenVerifier.Result r = SEED_ROOT.verify(data, claimed);
        if (r.kind() == TokenVerifier.Kind.VALID) {
            assertThat(SIGNED).as("a valid verdict for a time-stamp the authority never signed: " + r.message())
                    .contains(info(parsed.orElseThrow()));
        }
    }

    /** The oracle of {@link #verify} is live: the genuine seeds are valid under the seed root. */
    @Test
    void verify_valid_forGenuineSeedsUnderSeedRoot() {
        for (String name : List.of("granted.tsr", "token.der")) {
            TsaToken t = genuine(name);
            TokenVerifier.Result r = SEED_ROOT.verify(seed(name), List.of(new TokenVerifier.Candidate("the seed data", Optional.empty(), t.imprint())));
            assertThat(r.kind()).as(name + ": " + r.message()).isEqualTo(TokenVerifier.Kind.VALID);
            assertThat(SIGNED).contains(info(t));
        }
    }

    private static Optional<TsaToken> parsed(byte[] data) {
        try {
            return Optional.of(TsaToken.parse(data));
        } catch (TsaFormatException e) {
            return Optional.empty();
        }
    }

    private static String info(TsaToken t) {
        try {
            return HexFormat.of().formatHex(t.token().getTimeStampInfo().getEncoded());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] seed(String name) {
        try (InputStream in = Objects.requireNonNull(TsaTokenFuzzTest.class.getResourceAsStream(GENUINE + name), name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TsaToken genuine(String name) {
        try {
            return TsaToken.parse(seed(name));
        } catch (TsaFormatException e) {
            throw new IllegalStateException("seed " + name + " does not parse", e);
        }
    }

    private static List<X509Certificate> seedRoot() {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (X509CertificateHolder c : genuine("granted.tsr").certificates()) {
                if (c.getSubject().equals(c.getIssuer())) {
                    out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(c.getEncoded())));
                }
            }
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("the seed granted.tsr carries no root certificate");
        }
        return out;
    }

    private static Set<String> signedInfos() {
        Set<String> out = new TreeSet<>();
        for (String name : List.of("granted.tsr", "token.der")) {
            out.add(info(genuine(name)));
        }
        return out;
    }
}
