// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.S2K;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.openpgp.operator.PBESecretKeyDecryptor;
import org.bouncycastle.openpgp.operator.PGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPDigestCalculatorProviderBuilder;
import org.bouncycastle.openpgp.operator.jcajce.JcePBESecretKeyDecryptorBuilder;

class BufferedDigestCalculatorsTest {
    private static final int[] HASHES = {HashAlgorithmTags.SHA1, HashAlgorithmTags.SHA256, HashAlgorithmTags.SHA512};
    private static final int[] CIPHERS = {SymmetricKeyAlgorithmTags.AES_128, SymmetricKeyAlgorithmTags.AES_256,
        SymmetricKeyAlgorithmTags.TRIPLE_DES};

    @Property(tries = 200)
    void makeKeyFromPassPhrase_equalsBouncyCastlesOwn_iteratedSaltedS2k(
            @ForAll @StringLength(max = 40) String passphrase, @ForAll @Size(8) byte[] salt,
            @ForAll @IntRange(min = 0, max = 0xD0) int codedCount, @ForAll @IntRange(max = 2) int hash,
            @ForAll @IntRange(max = 2) int cipher) throws Exception {
        S2K s2k = new S2K(HASHES[hash], salt, codedCount);

        assertThat(derive(new BufferedDigestCalculators(jca()), passphrase, CIPHERS[cipher], s2k))
                .isEqualTo(derive(new BcPGPDigestCalculatorProvider(), passphrase, CIPHERS[cipher], s2k));
    }

    @Property(tries = 50)
    void makeKeyFromPassPhrase_equalsBouncyCastlesOwn_saltedAndSimpleS2k(
            @ForAll @StringLength(max = 40) String passphrase, @ForAll @Size(8) byte[] salt,
            @ForAll @IntRange(max = 2) int hash, @ForAll @IntRange(max = 2) int cipher) throws Exception {
        for (S2K s2k : new S2K[] {new S2K(HASHES[hash], salt), new S2K(HASHES[hash])}) {
            assertThat(derive(new BufferedDigestCalculators(jca()), passphrase, CIPHERS[cipher], s2k))
                    .isEqualTo(derive(new BcPGPDigestCalculatorProvider(), passphrase, CIPHERS[cipher], s2k));
        }
    }

    private static PGPDigestCalculatorProvider jca() throws Exception {
        return new JcaPGPDigestCalculatorProviderBuilder().build();
    }

    private static byte[] derive(PGPDigestCalculatorProvider digests, String passphrase, int cipher, S2K s2k) throws Exception {
        PBESecretKeyDecryptor d = new JcePBESecretKeyDecryptorBuilder(digests).build(passphrase.toCharArray());
        return d.makeKeyFromPassPhrase(cipher, s2k);
    }
}
