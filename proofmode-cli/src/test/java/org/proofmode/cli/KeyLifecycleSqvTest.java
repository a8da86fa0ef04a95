// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.media.Digests;
import org.proofmode.testkit.LifecycleKeys.Key;
import org.proofmode.testkit.LifecycleKeys.Reason;
import org.proofmode.testkit.LifecycleKeys;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Sqv;
import org.proofmode.util.Hex;
import org.proofmode.verify.Check;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Key lifecycle against Sequoia's {@code sqv}: keys that expire, are revoked (with reason "superseded",
 * "retired", "compromised", or none) and have expired or revoked signing subkeys, each signing before
 * and after the event. Our verdict on the media signature must be sqv's on every case, and a refusal
 * must name why ({@code signature.media.keyExpired} or {@code signature.media.keyRevoked}). Without sqv
 * the test fails: it is an interop test and does not skip.
 */
class KeyLifecycleSqvTest {
    private static final Instant EVENT = LifecycleKeys.BORN.plus(Duration.ofDays(15));
    private static final Instant BEFORE = LifecycleKeys.BORN.plus(Duration.ofDays(5));
    private static final Instant AFTER = LifecycleKeys.BORN.plus(Duration.ofDays(25));
    private static final byte[] DATA = "a photo's bytes".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /** A key's story: how it is made and what happens to it. */
    record Story(String name, boolean subkey, UnaryOperator<Key> event) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        Instant early = LifecycleKeys.BORN.plusSeconds(60);
        List<Story> stories = List.of(
                new Story("live primary", false, k -> k),
                new Story("live subkey", true, k -> k),
                new Story("expired primary", false, k -> k.expire(early, EVENT)),
                new Story("primary revoked, no reason", false, k -> k.revoke(EVENT, Reason.NONE)),
                new Story("primary revoked, superseded", false, k -> k.revoke(EVENT, Reason.SUPERSEDED)),
                new Story("primary revoked, retired", false, k -> k.revoke(EVENT, Reason.RETIRED)),
                new Story("primary revoked, compromised", false, k -> k.revoke(EVENT, Reason.COMPROMISED)),
                new Story("expired subkey", true, k -> k.expireSubkey(early, EVENT)),
                new Story("subkey revoked, no reason", true, k -> k.revokeSubkey(EVENT, Reason.NONE)),
                new Story("subkey revoked, superseded", true, k -> k.revokeSubkey(EVENT, Reason.SUPERSEDED)),
                new Story("subkey revoked, compromised", true, k -> k.revokeSubkey(EVENT, Reason.COMPROMISED)),
                new Story("expired primary with subkey", true, k -> k.expire(early, EVENT)),
                new Story("primary with subkey revoked, superseded", true, k -> k.revoke(EVENT, Reason.SUPERSEDED)),
                new Story("primary with subkey revoked, compromised", true, k -> k.revoke(EVENT, Reason.COMPROMISED)));
        return stories.stream().flatMap(s -> Stream.of(Arguments.of(s, "before"), Arguments.of(s, "after")));
    }

    @ParameterizedTest(name = "{0}, signed {1}")
    @MethodSource("cases")
    void verify_agreesWithSqv_keyLifecycle(Story story, String when) throws IOException {
        Key key = story.event().apply(story.subkey()
                ? LifecycleKeys.withSigningSubkey("lifecycle <l@example.org>") : LifecycleKeys.primaryOnly("lifecycle <l@example.org>"));
        byte[] sig = key.sign(DATA, when.equals("before") ? BEFORE : AFTER);
        String sha = Hex.encode(Digests.newSha256().digest(DATA));
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Path media = Files.write(bundle.resolve("photo.jpg"), DATA);
        Path sigFile = Files.write(bundle.resolve(sha + ".asc"), sig);
        Path pubkey = Files.write(bundle.resolve("pubkey.asc"), key.armored());

        VerificationReport r = new Verifier(List.of(), BundleLimits.DEFAULT).verify(bundle, Optional.empty());
        Check ours = r.allChecks().stream().filter(c -> c.code().startsWith("signature.media.")).findFirst().orElseThrow();
        ProcessResult sqv = Sqv.verify(pubkey, sigFile, media);

        assertThat(ours.code().equals("signature.media.valid"))
                .as("ours %s; sqv exit %d: %s", ours, sqv.exitCode(), sqv.stderr().strip())
                .isEqualTo(sqv.exitCode() == 0);
        if (sqv.exitCode() != 0) {
            String why = story.name().contains("expired") ? "signature.media.keyExpired" : "signature.media.keyRevoked";
            assertThat(ours.code()).as(ours.message()).isEqualTo(why);
        }
    }
}
