// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;

/**
 * A local C2PA certificate authority in {@code PROOFMODE_HOME/c2pa/}: a CA certificate ({@code ca.pem})
 * and key ({@code ca.key}), and a device signing certificate it issued ({@code signer.pem}) with its
 * key ({@code signer.key}). Verifiers who trust {@code ca.pem} see this device's content credentials as
 * trusted.
 *
 * <p>Security: both private keys are stored only as encrypted PKCS#8 (AES-256-CBC, PBKDF2-HMAC-SHA256),
 * under the passphrase given (the device key's), and written owner-only. The device certificate
 * follows C2PA's profile: EC P-256, key usage digitalSignature, extended key usage emailProtection and
 * documentSigning, no CA flag, authority and subject key identifiers.
 */
public final class LocalCa {
    /** The folder under the home. */
    public static final String FOLDER = Home.C2PA.fileName();
    /** The CA certificate, the trust anchor to hand to verifiers. */
    public static final String CA_CERT = "ca.pem";
    private static final String CA_KEY = "ca.key";
    private static final String SIGNER_CERT = "signer.pem";
    private static final String SIGNER_KEY = "signer.key";
    private static final Duration CA_LIFETIME = Duration.ofDays(3650);
    private static final Duration SIGNER_LIFETIME = Duration.ofDays(730);
    private static final KeyPurposeId DOCUMENT_SIGNING = KeyPurposeId.getInstance(
            new ASN1ObjectIdentifier("1.3.6.1.5.5.7.3.36"));

    private final Path dir;

    /** The local CA of a home folder (nothing is read or created yet). */
    public LocalCa(Path home) {
        this.dir = home.resolve(FOLDER);
    }

    /** Tells whether the CA and its device certificate exist. */
    public boolean exists() {
        return Files.isRegularFile(dir.resolve(CA_CERT)) && Files.isRegularFile(dir.resolve(SIGNER_KEY));
    }

    /** The CA certificate file. */
    public Path caCertificateFile() {
        return dir.resolve(CA_CERT);
    }

    /** The CA certificate of a home, as a trust anchor, or nothing if there is no local CA. */
    public static List<X509Certificate> anchorsInHome(Path home) {
        Path ca = home.resolve(FOLDER).resolve(CA_CERT);
        return Files.isRegularFile(ca) ? Pem.certificates(ca) : List.of();
    }

    /**
     * Creates the CA and a device certificate.
     *
     * @param passphrase encrypts both private keys
     * @param name the subject's common name suffix, e.g. the device key's fingerprint
     * @param replace whether an existing CA may be replaced
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if a CA exists and {@code replace}
     *     is false, {@link Failure#IO} if writing fails
     */
    public synchronized void create(Passphrase passphrase, String name, boolean replace) {
        if (exists() && !replace) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists in " + dir);
        }
        try {
            SecureRandom rnd = new SecureRandom();
            KeyPair caKeys = p256(rnd);
            KeyPair signerKeys = p256(rnd);
            X509Certificate[] certs = issue(caKeys, signerKeys.getPublic(), name, rnd);
            write(CA_KEY, Pem.encryptedKey(caKeys.getPrivate(), passphrase), true);
            write(SIGNER_KEY, Pem.encryptedKey(signerKeys.getPrivate(), passphrase), true);
            write(SIGNER_CERT, Pem.certificate(certs[1]), false);
            write(CA_CERT, Pem.certificate(certs[0]), false);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new ProofModeException(Failure.IO, "cannot create the C2PA CA in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates the CA and a device certificate issued to a key held elsewhere (a PKCS#11 token's P-256 key,
     * which then signs content credentials itself).
     *
     * <p>Security: the CA's private key exists in memory only while it issues the certificate, and is
     * never written: nobody, this program included, can issue another certificate under this CA. A new
     * key (after a rotation) needs a new CA ({@code replace}), whose certificate verifiers must be given again.
     *
     * @param signerKey the public key the device certificate is issued to (EC P-256)
     * @param name the subject's common name suffix, e.g. the device key's fingerprint
     * @param replace whether an existing CA may be replaced
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if a device certificate exists and
     *     {@code replace} is false, {@link Failure#IO} if writing fails
     */
    public synchronized void createFor(PublicKey signerKey, String name, boolean replace) {
        if (Files.isRegularFile(dir.resolve(SIGNER_CERT)) && !replace) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists in " + dir);
        }
        try {
            SecureRandom rnd = new SecureRandom();
            X509Certificate[] certs = issue(p256(rnd), signerKey, name, rnd);
            write(SIGNER_CERT, Pem.certificate(certs[1]), false);
            write(CA_CERT, Pem.certificate(certs[0]), false);
            DeviceKeys.shred(dir.resolve(SIGNER_KEY));
            DeviceKeys.shred(dir.resolve(CA_KEY));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new ProofModeException(Failure.IO, "cannot create the C2PA CA in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Tells whether a device certificate was issued to this public key (as {@link #createFor} does). */
    public boolean issuedTo(PublicKey key) {
        Path cert = dir.resolve(SIGNER_CERT);
        return Files.isRegularFile(cert) && Files.isRegularFile(dir.resolve(CA_CERT))
                && Pem.certificates(cert).get(0).getPublicKey().equals(key);
    }

    /**
     * The device signer for a key held elsewhere, whose certificate {@link #createFor} issued.
     *
     * @param key the key's handle
     * @param provider the provider that signs with it
     * @param publicKey its public half
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no certificate for this key
     */
    public C2paSigner signer(PrivateKey key, Provider provider, PublicKey publicKey) {
        if (!issuedTo(publicKey)) {
            throw new ProofModeException(Failure.INPUT_MISSING, "the local C2PA certificate in " + dir
                    + " is not for the device key (rotated since?); make a new one: proofmode c2pa ca --force");
        }
        return new C2paSigner(key, provider, Pem.certificates(dir.resolve(SIGNER_CERT)));
    }

    /** The CA certificate (self-signed) and the device certificate it issues to {@code signerKey}. */
    private static X509Certificate[] issue(KeyPair caKeys, PublicKey signerKey, String name, SecureRandom rnd)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        Instant now = Instant.now();
        X500Name caName = new X500Name("CN=ProofMode local C2PA CA " + name + ",O=ProofMode");
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder cb = new JcaX509v3CertificateBuilder(caName, serial(rnd),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(CA_LIFETIME)), caName, caKeys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
        X509Certificate ca = sign(cb, caKeys.getPrivate());
        X500Name signerName = new X500Name("CN=ProofMode device " + name + ",O=ProofMode");
        X509v3CertificateBuilder sb = new JcaX509v3CertificateBuilder(ca, serial(rnd),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(SIGNER_LIFETIME)), signerName, signerKey)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_emailProtection, DOCUMENT_SIGNING}))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(signerKey))
                .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
        return new X509Certificate[] {ca, sign(sb, caKeys.getPrivate())};
    }

    /**
     * Unlocks the device signer.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no CA (run
     *     {@code proofmode c2pa ca}), {@link Failure#KEY_LOCKED} if the passphrase is wrong
     */
    public C2paSigner signer(Passphrase passphrase) {
        if (!exists()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no C2PA certificate in " + dir + "; create one with: proofmode c2pa ca");
        }
        PrivateKey key = Pem.decryptKey(dir.resolve(SIGNER_KEY), passphrase);
        return new C2paSigner(key, Pem.certificates(dir.resolve(SIGNER_CERT)));
    }

    private void write(String name, String pem, boolean secret) throws IOException {
        AtomicFiles.write(dir.resolve(name), out -> out.write(pem.getBytes(StandardCharsets.US_ASCII)), true, secret);
    }

    private static KeyPair p256(SecureRandom rnd) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), rnd);
        return g.generateKeyPair();
    }

    private static BigInteger serial(SecureRandom rnd) {
        return new BigInteger(127, rnd).add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().setProvider(CoseSign1.BC)
                .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").setProvider(CoseSign1.BC).build(key)));
    }

}
