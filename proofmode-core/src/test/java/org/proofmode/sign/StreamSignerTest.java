// SPDX-License-Identifier: Apache-2.0
package org.proofmode.sign;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pgpainless.PGPainless;
import org.proofmode.media.Digests;
import org.pgpainless.decryption_verification.ConsumerOptions;
import org.pgpainless.decryption_verification.DecryptionStream;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.SigningKey;

class StreamSignerTest {
    private static final int MIB = 1 << 20;

    @TempDir
    static Path home;

    private static SigningKey ed25519;
    private static SigningKey rsa;
    /** Signature time: not before the keys were made, or PGPainless rightly rejects the signatures. */
    private static Instant time;

    @BeforeAll
    static void keys() {
        ed25519 = TestHomes.keyIn(ProofMode.at(home), KeyType.ED25519);
        rsa = TestHomes.sharedRsaKey();
        time = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    static Stream<Arguments> keysAndSizes() {
        List<Arguments> out = new ArrayList<>();
        for (KeyType type : KeyType.values()) {
            for (int size : new int[] {0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB + 17}) {
                out.add(Arguments.of(type, size));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, {1} bytes")
    @MethodSource("keysAndSizes")
    void sign_returnsSha256AndVerifiableSignature_anySize(KeyType type, int size) throws Exception {
        SigningKey key = key(type);
        byte[] data = data(size);
        AtomicLong progress = new AtomicLong();

        Signed s = StreamSigner.sign(key, new ByteArrayInputStream(data), time, progress::addAndGet);

        assertThat(s.sha256()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)));
        assertThat(s.size()).isEqualTo(size);
        assertThat(progress.get()).isEqualTo(size);
        assertThat(verifies(data, s.armoredSignature(), key.certificate())).isTrue();
        byte[] changed = size == 0 ? new byte[] {0} : data.clone();
        if (size > 0) {
            changed[size / 2] ^= 0x01;
        }
        assertThat(verifies(changed, s.armoredSignature(), key.certificate())).isFalse();
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void sign_sameSignature_shortReadsAcrossBufferBoundaries(KeyType type) throws Exception {
        SigningKey key = key(type);
        byte[] data = data(MIB + 4099);

        Signed whole = StreamSigner.sign(key, data, time);
        Signed trickled = StreamSigner.sign(key, new TrickleInputStream(new ByteArrayInputStream(data)), time,
                StreamSigner.Progress.NONE);

        assertThat(trickled.sha256()).isEqualTo(whole.sha256());
        assertThat(trickled.size()).isEqualTo(data.length);
        // Ed25519 and RSA PKCS#1 v1.5 signatures are deterministic: same hash and time, same bytes.
        assertThat(trickled.armoredSignature()).isEqualTo(whole.armoredSignature());
        assertThat(verifies(data, trickled.armoredSignature(), key.certificate())).isTrue();
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void sign_writesV4BinaryDocumentSha256Signature_anyKey(KeyType type) throws Exception {
        SigningKey key = key(type);

        Signed s = StreamSigner.sign(key, "document".getBytes(StandardCharsets.UTF_8), time);

        assertThat(s.armoredSignature()).startsWith("-----BEGIN PGP SIGNATURE-----\n\n")
                .endsWith("-----END PGP SIGNATURE-----\n").doesNotContain("Version:");
        PGPSignature sig = parse(s.armoredSignature());
        assertThat(sig.getVersion()).isEqualTo(4);
        assertThat(sig.getSignatureType()).isEqualTo(PGPSignature.BINARY_DOCUMENT);
        assertThat(sig.getHashAlgorithm()).isEqualTo(HashAlgorithmTags.SHA256);
        assertThat(sig.getKeyAlgorithm()).isEqualTo(key.signingPublicKey().getAlgorithm());
        assertThat(sig.getCreationTime().toInstant()).isEqualTo(time);
        assertThat(sig.getKeyID()).isEqualTo(key.signingPublicKey().getKeyID());
        assertThat(sig.getHashedSubPackets().getIssuerFingerprint().getFingerprint())
                .isEqualTo(key.signingPublicKey().getFingerprint());
    }

    @Test
    void sign_signatureFailsAgainstOtherKey_ed25519AndRsa() throws Exception {
        byte[] data = data(100);

        Signed byEd = StreamSigner.sign(ed25519, data, time);

        assertThat(verifies(data, byEd.armoredSignature(), ed25519.certificate())).isTrue();
        assertThat(verifies(data, byEd.armoredSignature(), rsa.certificate())).isFalse();
    }

    static Stream<KeyType> keyTypes() {
        return Stream.of(KeyType.values());
    }

    private static SigningKey key(KeyType type) {
        return type == KeyType.ED25519 ? ed25519 : rsa;
    }

    private static byte[] data(int size) {
        byte[] out = new byte[size];
        new Random(size).nextBytes(out);
        return out;
    }

    /** Verifies a detached signature with PGPainless, independent of the code under test. */
    private static boolean verifies(byte[] data, String armoredSignature, PGPPublicKeyRing cert) throws Exception {
        DecryptionStream in = PGPainless.decryptAndOrVerify().onInputStream(new ByteArrayInputStream(data)).withOptions(
                ConsumerOptions.get().forceNonOpenPgpData().addVerificationCert(cert)
                        .addVerificationOfDetachedSignatures(new ByteArrayInputStream(armoredSignature.getBytes(StandardCharsets.US_ASCII))));
        try (InputStream i = in) {
            i.transferTo(OutputStream.nullOutputStream());
        }
        return !in.getMetadata().getVerifiedDetachedSignatures().isEmpty();
    }

    private static PGPSignature parse(String armored) throws IOException {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            Object o = new BcPGPObjectFactory(in).nextObject();
            assertThat(o).isInstanceOf(PGPSignatureList.class);
            PGPSignatureList list = (PGPSignatureList) o;
            assertThat(list.size()).isEqualTo(1);
            return list.get(0);
        }
    }

    /** Hands out at most 4,093 bytes per read, so reads straddle every buffer boundary. */
    private static final class TrickleInputStream extends FilterInputStream {
        TrickleInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return super.read(b, off, Math.min(len, 4093));
        }
    }

    @Test
    void digest_matchesPlainSha256_fileOfManyBuffers(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("big");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength((65L << 20) + 7);
            raf.seek(12345);
            raf.write(new byte[] {1, 2, 3});
            raf.seek((65L << 20) + 3);
            raf.write(new byte[] {4, 5});
        }
        String expected = Digests.sha256(f);
        AtomicLong told = new AtomicLong();
        try (FileChannel ch = FileChannel.open(f)) {
            Prehash p = StreamSigner.digest(ch, told::addAndGet);
            assertThat(p.sha256()).isEqualTo(expected);
            assertThat(p.size()).isEqualTo((65L << 20) + 7);
        }
        assertThat(told).hasValue((65L << 20) + 7);
    }
}
