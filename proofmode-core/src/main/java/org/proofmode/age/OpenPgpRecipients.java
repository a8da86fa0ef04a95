// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.util.encoders.Hex;
import org.pgpainless.PGPainless;
import org.pgpainless.algorithm.EncryptionPurpose;
import org.pgpainless.encryption_signing.EncryptionOptions;
import org.pgpainless.encryption_signing.ProducerOptions;
import org.pgpainless.exception.KeyException;
import org.pgpainless.key.collection.PGPKeyRingCollection;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Share bundles encrypted to OpenPGP certificates (PGPainless): to each certificate's encryption
 * subkeys, as a binary OpenPGP message that {@code gpg --decrypt} opens.
 */
public final class OpenPgpRecipients {
    /** Most bytes of a key file read. */
    private static final long MAX_KEY_FILE = 1L << 20;

    private OpenPgpRecipients() {}

    /**
     * The encryption to the certificates in these key files (armored or binary; a secret key file gives
     * its certificate).
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for a missing file, {@link Failure#BAD_DATA}
     *     for one that holds no OpenPGP key, {@link Failure#UNSUPPORTED} for a key that cannot encrypt (no
     *     encryption subkey, expired or revoked)
     */
    public static ShareEncryption encryptionTo(List<Path> keyFiles) {
        List<PGPPublicKeyRing> certs = new ArrayList<>();
        for (Path f : keyFiles) {
            certs.addAll(read(f));
        }
        EncryptionOptions options = options(certs, keyFiles);
        return out -> encrypt(out, options);
    }

    private static EncryptionOptions options(List<PGPPublicKeyRing> certs, List<Path> files) {
        EncryptionOptions options = new EncryptionOptions(EncryptionPurpose.ANY);
        for (int i = 0; i < certs.size(); i++) {
            PGPPublicKeyRing cert = certs.get(i);
            try {
                options.addRecipient(cert);
            } catch (KeyException | IllegalArgumentException e) {
                throw new ProofModeException(Failure.UNSUPPORTED, "key " + fingerprint(cert) + " cannot encrypt (no valid "
                        + "encryption subkey: it may sign only, or be expired or revoked)", e);
            }
        }
        return options;
    }

    private static String fingerprint(PGPPublicKeyRing cert) {
        return Hex.toHexString(cert.getPublicKey().getFingerprint()).toUpperCase(Locale.ROOT);
    }

    private static OutputStream encrypt(OutputStream out, EncryptionOptions options) throws IOException {
        try {
            return PGPainless.encryptAndOrSign().onOutputStream(out)
                    .withOptions(ProducerOptions.encrypt(options).setAsciiArmor(false));
        } catch (PGPException e) {
            throw new IOException("OpenPGP encryption failed: " + e.getMessage(), e);
        }
    }

    private static List<PGPPublicKeyRing> read(Path f) {
        byte[] bytes;
        try {
            if (Files.isRegularFile(f) && Files.size(f) > MAX_KEY_FILE) {
                throw new ProofModeException(Failure.BAD_DATA, f + ": not an OpenPGP key file (too large)");
            }
            bytes = Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, f + ": no such key file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, f + ": cannot read the key file: " + e.getMessage(), e);
        }
        List<PGPPublicKeyRing> out = new ArrayList<>();
        try {
            PGPKeyRingCollection all = PGPainless.readKeyRing().keyRingCollection(bytes, false);
            all.getPgpPublicKeyRingCollection().forEach(out::add);
            for (PGPSecretKeyRing secret : all.getPgpSecretKeyRingCollection()) {
                out.add(PGPainless.extractCertificate(secret));
            }
        } catch (IOException | RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, f + ": not an OpenPGP key file", e);
        }
        if (out.isEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, f + ": not an OpenPGP key file (no key in it)");
        }
        return out;
    }
}
