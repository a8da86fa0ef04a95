// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;

/** PEM files of the C2PA signer: certificates, and private keys encrypted as PKCS#8. */
public final class Pem {
    private static final int PBKDF2_ITERATIONS = 600_000;

    private Pem() {}

    /** A certificate as PEM text. */
    static String certificate(X509Certificate c) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(c);
        }
        return w.toString();
    }

    /** A private key, encrypted (AES-256-CBC, PBKDF2-HMAC-SHA256), as PEM text. */
    static String encryptedKey(PrivateKey key, Passphrase passphrase) throws IOException, OperatorCreationException {
        JceOpenSSLPKCS8EncryptorBuilder enc = new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                .setProvider(CoseSign1.BC)
                .setPRF(new AlgorithmIdentifier(PKCSObjectIdentifiers.id_hmacWithSHA256, DERNull.INSTANCE))
                .setIterationCount(PBKDF2_ITERATIONS)
                .setPassword(passphrase.chars());
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(new JcaPKCS8Generator(key, enc.build()));
        }
        return w.toString();
    }

    /**
     * Reads every certificate of a PEM file.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} or {@link Failure#BAD_DATA}
     */
    public static List<X509Certificate> certificates(Path file) {
        List<X509Certificate> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            JcaX509CertificateConverter conv = new JcaX509CertificateConverter().setProvider(CoseSign1.BC);
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(conv.getCertificate(h));
                }
            }
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": not a PEM certificate file: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": holds no certificate");
        }
        return out;
    }

    /**
     * Reads a private key: encrypted PKCS#8 (decrypted with the passphrase) or, for keys the user
     * supplies, unencrypted PKCS#8 or SEC1.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the passphrase is wrong,
     *     {@link Failure#BAD_DATA} if the file holds no key
     */
    public static PrivateKey decryptKey(Path file, Passphrase passphrase) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter().setProvider(CoseSign1.BC);
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof PKCS8EncryptedPrivateKeyInfo enc) {
                    try {
                        return conv.getPrivateKey(enc.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder()
                                .setProvider(CoseSign1.BC).build(passphrase.chars())));
                    } catch (PKCSException e) {
                        throw new ProofModeException(Failure.KEY_LOCKED, file + ": wrong passphrase", e);
                    }
                }
                if (o instanceof PrivateKeyInfo k) {
                    return conv.getPrivateKey(k);
                }
                if (o instanceof PEMKeyPair kp) {
                    return conv.getKeyPair(kp).getPrivate();
                }
            }
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException | OperatorCreationException | RuntimeException e) {
            if (e instanceof ProofModeException pme) {
                throw pme;
            }
            throw new ProofModeException(Failure.BAD_DATA, file + ": not a PEM private key: " + e.getMessage(), e);
        }
        throw new ProofModeException(Failure.BAD_DATA, file + ": holds no private key");
    }
}
