// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPBESecretKeyDecryptorBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgpainless.PGPainless;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.Digests;
import org.proofmode.sign.StreamSigner;

/**
 * A signature checked from the document's SHA-256 state (one read for the hash and the signature) gives
 * the same outcome, signer and message as the streamed check through PGPainless, for each key type; and
 * signatures it cannot check that way are left to the streamed check.
 */
class PrehashedSignatureTest {
    @TempDir
    static Path tmp;

    private static final byte[] DATA = new byte[200_000];
    private static byte[] changed;

    @BeforeAll
    static void data() {
        new Random(7).nextBytes(DATA);
        changed = DATA.clone();
        changed[123_456] ^= 1;
    }

    private static MessageDigest hashed(byte[] data) {
        MessageDigest md = Digests.newSha256();
        md.update(data);
        return md;
    }

    /** Checks both ways and asserts they agree; returns the outcome. */
    private static SignatureChecker.Outcome bothWays(SignatureChecker checker, byte[] sig, byte[] data) throws Exception {
        SignatureChecker.Outcome streamed = checker.check(sig, new ByteArrayInputStream(data));
        SignatureChecker.Outcome prehashed = checker.prehashed(sig).orElseThrow().check(hashed(data));
        assertThat(prehashed.kind()).isEqualTo(streamed.kind());
        assertThat(prehashed.signer().map(PGPPublicKeyRing::getPublicKey).map(k -> k.getKeyID()))
                .isEqualTo(streamed.signer().map(PGPPublicKeyRing::getPublicKey).map(k -> k.getKeyID()));
        assertThat(prehashed.message()).isEqualTo(streamed.message());
        return prehashed;
    }

    private static byte[] sign(SigningKey key, byte[] data) {
        return StreamSigner.sign(key, data, Instant.now()).armoredSignature().getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void prehashed_sameOutcomeAsStreamed_forEd25519() throws Exception {
        SigningKey key = TestHomes.keyIn(ProofMode.at(tmp.resolve("ed")), KeyType.ED25519);
        SignatureChecker checker = new SignatureChecker(List.of(key.certificate()));
        byte[] sig = sign(key, DATA);
        assertThat(bothWays(checker, sig, DATA).kind()).isEqualTo(SignatureChecker.Kind.VALID);
        assertThat(bothWays(checker, sig, changed).kind()).isEqualTo(SignatureChecker.Kind.INVALID);
    }

    @Test
    void prehashed_sameOutcomeAsStreamed_forRsa() throws Exception {
        SigningKey key = TestHomes.sharedRsaKey();
        SignatureChecker checker = new SignatureChecker(List.of(key.certificate()));
        byte[] sig = sign(key, DATA);
        assertThat(bothWays(checker, sig, DATA).kind()).isEqualTo(SignatureChecker.Kind.VALID);
        assertThat(bothWays(checker, sig, changed).kind()).isEqualTo(SignatureChecker.Kind.INVALID);
    }

    @Test
    void prehashed_sameOutcomeAsStreamed_forEcdsaP256() throws Exception {
        PGPSecretKeyRing ring = PGPainless.generateKeyRing().simpleEcKeyRing("ec <ec@example.org>");
        byte[] sig = signWith(ring, HashAlgorithmTags.SHA256, DATA);
        SignatureChecker checker = new SignatureChecker(List.of(PGPainless.extractCertificate(ring)));
        assertThat(bothWays(checker, sig, DATA).kind()).isEqualTo(SignatureChecker.Kind.VALID);
        assertThat(bothWays(checker, sig, changed).kind()).isEqualTo(SignatureChecker.Kind.INVALID);
    }

    @Test
    void prehashed_empty_forSha512SignatureAndForeignKey() throws Exception {
        PGPSecretKeyRing ring = PGPainless.generateKeyRing().simpleEcKeyRing("ec <ec@example.org>");
        byte[] sha512 = signWith(ring, HashAlgorithmTags.SHA512, DATA);
        SignatureChecker checker = new SignatureChecker(List.of(PGPainless.extractCertificate(ring)));
        assertThat(checker.prehashed(sha512)).isEmpty();
        assertThat(checker.check(sha512, new ByteArrayInputStream(DATA)).kind()).isEqualTo(SignatureChecker.Kind.VALID);

        SigningKey other = TestHomes.keyIn(ProofMode.at(tmp.resolve("other")), KeyType.ED25519);
        assertThat(checker.prehashed(sign(other, DATA))).isEmpty();
        assertThat(checker.prehashed("not a signature".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    }

    @Test
    void prehashed_invalid_forSignatureMadeBeforeItsKey() throws Exception {
        // PGPainless's policy runs on the pre-hashed path too: a key cannot sign before it existed.
        PGPSecretKeyRing ring = PGPainless.generateKeyRing().simpleEcKeyRing("ec <ec@example.org>");
        byte[] sig = signWith(ring, HashAlgorithmTags.SHA256, DATA, new Date(System.currentTimeMillis() - 86_400_000L));
        SignatureChecker checker = new SignatureChecker(List.of(PGPainless.extractCertificate(ring)));
        assertThat(bothWays(checker, sig, DATA).kind()).isEqualTo(SignatureChecker.Kind.INVALID);
    }

    private static byte[] signWith(PGPSecretKeyRing ring, int hash, byte[] data) throws Exception {
        return signWith(ring, hash, data, new Date());
    }

    private static byte[] signWith(PGPSecretKeyRing ring, int hash, byte[] data, Date when) throws Exception {
        PGPSecretKey secret = ring.getSecretKey();
        PGPPrivateKey priv = secret.extractPrivateKey(new BcPBESecretKeyDecryptorBuilder(new BcPGPDigestCalculatorProvider()).build(new char[0]));
        PGPSignatureGenerator gen = new PGPSignatureGenerator(
                new BcPGPContentSignerBuilder(secret.getPublicKey().getAlgorithm(), hash), secret.getPublicKey());
        gen.init(PGPSignature.BINARY_DOCUMENT, priv);
        PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
        hashed.setSignatureCreationTime(true, when);
        hashed.setIssuerFingerprint(false, secret.getPublicKey());
        gen.setHashedSubpackets(hashed.generate());
        gen.update(data);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream armored = ArmoredOutputStream.builder().clearHeaders().build(bytes)) {
            gen.generate().encode(armored);
        }
        return bytes.toByteArray();
    }

    @Test
    void verify_sameChecks_whenMediaHashedByCaller() throws Exception {
        ProofMode pm = ProofMode.at(tmp.resolve("fx"));
        ProvedFixture fx = ProvedFixture.prove(tmp.resolve("fx-work"), pm, TestHomes.keyIn(pm, KeyType.ED25519), 5);
        Verifier v = new Verifier(List.of(), org.proofmode.bundle.BundleLimits.DEFAULT);
        VerificationReport streamed = v.verify(fx.folder(), Optional.of(fx.media()));
        VerificationReport prehashed;
        try (var in = java.nio.file.Files.newInputStream(fx.media())) {
            var p = StreamSigner.digest(in, StreamSigner.Progress.NONE);
            prehashed = v.verify(fx.folder(), fx.media(), () -> p, Optional.empty());
        }
        assertThat(prehashed.verdict()).isEqualTo(streamed.verdict()).isEqualTo(Verdict.VALID);
        assertThat(prehashed.proofs().get(0).checks()).isEqualTo(streamed.proofs().get(0).checks());
    }

    @Test
    void verify_readsMediaEntryToItsEndOnce_forZipBundle() throws Exception {
        ProofMode pm = ProofMode.at(tmp.resolve("once"));
        SigningKey key = TestHomes.keyIn(pm, KeyType.ED25519);
        Path media = TestHomes.jpegLike(tmp.resolve("once-media/big.jpg"), 9, 3_000_000);
        var proved = TestHomes.prove(pm, key, media);
        Path zip = tmp.resolve("once.zip");
        org.proofmode.bundle.BundleWriter.write(List.of(new org.proofmode.bundle.BundleWriter.Item(proved.proofFolder().orElseThrow(),
                Optional.of(media))), zip, false);
        java.util.Map<String, long[]> reads = new java.util.concurrent.ConcurrentHashMap<>();
        VerificationReport r;
        try (org.proofmode.bundle.Bundle zipped = org.proofmode.bundle.Bundle.open(zip, org.proofmode.bundle.BundleLimits.DEFAULT)) {
            List<org.proofmode.bundle.BundleEntry> counted = zipped.entries().stream().map(e -> counting(e, reads)).toList();
            r = new Verifier(List.of(), org.proofmode.bundle.BundleLimits.DEFAULT)
                    .verify(org.proofmode.bundle.Bundle.of(zipped.source(), counted), Optional.empty());
        }
        assertThat(r.verdict()).isEqualTo(Verdict.VALID);
        long[] m = reads.get("big.jpg");
        // m[0]: streams read to their end, m[1]: bytes read in all. Only the content-credential probe reads
        // the media's first bytes again (its header, about 80 KB here, to find a manifest), not the whole.
        assertThat(m[0]).as("full reads of the media").isEqualTo(1);
        assertThat(m[1]).as("bytes read of the media").isLessThan(java.nio.file.Files.size(media) * 3 / 2);
    }

    private static org.proofmode.bundle.BundleEntry counting(org.proofmode.bundle.BundleEntry e, java.util.Map<String, long[]> reads) {
        long[] c = reads.computeIfAbsent(e.fileName(), k -> new long[2]);
        return new org.proofmode.bundle.BundleEntry() {
            @Override
            public String name() {
                return e.name();
            }

            @Override
            public long size() {
                return e.size();
            }

            @Override
            public java.io.InputStream open() throws java.io.IOException {
                return new java.io.FilterInputStream(e.open()) {
                    @Override
                    public int read() throws java.io.IOException {
                        int b = super.read();
                        count(b < 0 ? -1 : 1);
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws java.io.IOException {
                        int n = super.read(b, off, len);
                        count(n);
                        return n;
                    }

                    @Override
                    public long skip(long n) throws java.io.IOException {
                        long s = super.skip(n);
                        synchronized (c) {
                            c[1] += s;
                        }
                        return s;
                    }

                    private void count(int n) {
                        synchronized (c) {
                            if (n < 0) {
                                c[0]++;
                            } else {
                                c[1] += n;
                            }
                        }
                    }
                };
            }
        };
    }
}
