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
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.testkit.LifecycleKeys;
import org.proofmode.testkit.LifecycleKeys.Key;
import org.proofmode.testkit.LifecycleKeys.Reason;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * A trusted key is judged by the verifier's copy merged with the bundle's: the owner revokes (or lets a
 * key expire), the sender ships the older copy without it, and the proof is still refused.
 */
class TrustedKeyStateTest {
    private static final Instant EVENT = LifecycleKeys.BORN.plus(Duration.ofDays(15));
    private static final Instant BEFORE = LifecycleKeys.BORN.plus(Duration.ofDays(5));
    private static final Instant AFTER = LifecycleKeys.BORN.plus(Duration.ofDays(25));
    private static final byte[] MEDIA = "the stolen key's photo".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private Path bundle(Key signer, Instant at, Key shipped) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("bundle-" + System.nanoTime()));
        for (Map.Entry<String, byte[]> e : signer.proofEntries("photo.jpg", MEDIA, at, Map.of(), shipped.certificate()).entrySet()) {
            Files.write(folder.resolve(e.getKey()), e.getValue());
        }
        return folder;
    }

    private static VerificationReport verify(Path bundle, Key trusted) {
        return new Verifier(List.of(trusted.certificate()), BundleLimits.DEFAULT).verify(bundle, Optional.empty());
    }

    @Test
    void verify_isTrusted_liveKeyTrusted() throws IOException {
        Key key = LifecycleKeys.primaryOnly("owner <o@example.org>");

        VerificationReport r = verify(bundle(key, AFTER, key), key);

        assertThat(r.verdict()).as(r.allChecks().toString()).isEqualTo(Verdict.TRUSTED);
    }

    @Test
    void verify_isInvalidKeyRevoked_revocationStrippedFromBundleKey() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key revoked = old.revoke(EVENT, Reason.COMPROMISED);

        VerificationReport r = verify(bundle(old, AFTER, old), revoked);

        assertThat(r.verdict()).as(r.allChecks().toString()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyRevoked")).as(r.allChecks().toString()).isTrue();
        assertThat(r.has("signature.proofJson.keyRevoked")).isTrue();
        assertThat(r.has("signer.trusted")).isFalse();
    }

    @Test
    void verify_isInvalidKeyRevoked_compromisedKeyBackdatedSignature() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key revoked = old.revoke(EVENT, Reason.COMPROMISED);

        VerificationReport r = verify(bundle(old, BEFORE, old), revoked);

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyRevoked")).isTrue();
    }

    @Test
    void verify_staysTrusted_supersededAfterSigning() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key superseded = old.revoke(EVENT, Reason.SUPERSEDED);

        VerificationReport r = verify(bundle(old, BEFORE, old), superseded);

        assertThat(r.verdict()).as(r.allChecks().toString()).isEqualTo(Verdict.TRUSTED);
    }

    @Test
    void verify_isInvalidKeyRevoked_supersededBeforeSigningStripped() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key superseded = old.revoke(EVENT, Reason.SUPERSEDED);

        VerificationReport r = verify(bundle(old, AFTER, old), superseded);

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyRevoked")).isTrue();
    }

    @Test
    void verify_isInvalidKeyRevoked_subkeyRevocationStripped() throws IOException {
        Key old = LifecycleKeys.withSigningSubkey("owner <o@example.org>");
        Key revoked = old.revokeSubkey(EVENT, Reason.NONE);

        VerificationReport r = verify(bundle(old, AFTER, old), revoked);

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyRevoked")).as(r.allChecks().toString()).isTrue();
    }

    @Test
    void verify_isInvalidKeyExpired_expiryOnlyInVerifiersCopy() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key expiring = old.expire(LifecycleKeys.BORN.plusSeconds(60), EVENT);

        VerificationReport r = verify(bundle(old, AFTER, old), expiring);

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyExpired")).as(r.allChecks().toString()).isTrue();
    }

    @Test
    void verify_isInvalidKeyExpired_bundleCopyExpiredUntrusted() throws IOException {
        Key expiring = LifecycleKeys.primaryOnly("owner <o@example.org>").expire(LifecycleKeys.BORN.plusSeconds(60), EVENT);

        VerificationReport r = new Verifier(List.of(), BundleLimits.DEFAULT).verify(bundle(expiring, AFTER, expiring), Optional.empty());

        assertThat(r.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(r.has("signature.media.keyExpired")).isTrue();
    }

    @Test
    void verifyCommand_exitsInvalid_trustFileCarriesRevocation() throws IOException {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Path trust = Files.write(dir.resolve("owner.asc"), old.revoke(EVENT, Reason.COMPROMISED).armored());

        Cli.Result r = new Cli(dir.resolve("home")).run("verify", "--trust", trust.toString(), bundle(old, AFTER, old).toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).contains("signature.media.keyRevoked");
    }
}
