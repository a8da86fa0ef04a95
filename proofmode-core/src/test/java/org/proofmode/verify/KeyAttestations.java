// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.DERTaggedObject;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.proofmode.verify.KeyDescription.BootState;
import org.proofmode.verify.KeyDescription.SecurityLevel;

/**
 * Android key attestation chains for tests: Google's published device chains (test resources, see the
 * README beside them) and chains made here with Bouncy Castle, carrying a {@code KeyDescription} written
 * from the specification's ASN.1.
 */
final class KeyAttestations {
    /** The time the chains made here are valid around. */
    static final Instant MADE = Instant.parse("2026-06-01T12:00:00Z");

    private KeyAttestations() {
    }

    /** A published chain from the test resources, as its bytes. */
    static byte[] sample(String file) {
        try (InputStream in = KeyAttestations.class.getResourceAsStream("key-attestation/" + file)) {
            if (in == null) {
                throw new IllegalStateException("test resource missing: key-attestation/" + file);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a made chain's attestation says. */
    record Spec(SecurityLevel level, boolean locked, BootState boot, byte[] challenge, String pkg, byte[] digest) {
        /** A TEE attestation on a locked, verified phone, by the ProofMode app, for {@code media}. */
        static Spec good(String media) {
            return new Spec(SecurityLevel.TRUSTED_ENVIRONMENT, true, BootState.VERIFIED, media.getBytes(StandardCharsets.US_ASCII),
                    DeviceIntegrityChecks.PROOFMODE_ANDROID.packageName(),
                    Base64.getDecoder().decode(DeviceIntegrityChecks.PROOFMODE_ANDROID.signingCertSha256()));
        }

        Spec level(SecurityLevel l) {
            return new Spec(l, locked, boot, challenge, pkg, digest);
        }

        Spec boot(boolean l, BootState b) {
            return new Spec(level, l, b, challenge, pkg, digest);
        }

        Spec app(String p) {
            return new Spec(level, locked, boot, challenge, p, digest);
        }
    }

    /** A chain made here: its root, and the chain leaf first (root last). */
    record Made(X509Certificate root, List<X509Certificate> chain) {
        /** The chain as a PEM file, leaf first. */
        byte[] pem() {
            return pem(chain);
        }

        static byte[] pem(List<X509Certificate> certs) {
            StringBuilder s = new StringBuilder();
            Base64.Encoder mime = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
            for (X509Certificate c : certs) {
                try {
                    s.append("-----BEGIN CERTIFICATE-----\n").append(mime.encodeToString(c.getEncoded()))
                            .append("\n-----END CERTIFICATE-----\n");
                } catch (java.security.cert.CertificateEncodingException e) {
                    throw new IllegalStateException(e);
                }
            }
            return s.toString().getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** A root, an attestation CA and a leaf carrying {@code spec}'s attestation. */
    static Made chain(Spec spec) throws Exception {
        return chain(keyDescription(spec));
    }

    /** A root, an attestation CA and a leaf carrying these extension bytes (a DER KeyDescription). */
    static Made chain(byte[] keyDescription) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        KeyPair root = g.generateKeyPair();
        KeyPair ca = g.generateKeyPair();
        KeyPair leaf = g.generateKeyPair();
        X509Certificate r = cert("CN=Test Attestation Root", root, "CN=Test Attestation Root", root, true, null);
        X509Certificate c = cert("CN=Test TEE, O=TEE", ca, "CN=Test Attestation Root", root, true, null);
        X509Certificate l = cert("CN=Android Keystore Key", leaf, "CN=Test TEE, O=TEE", ca, false, keyDescription);
        return new Made(r, List.of(l, c, r));
    }

    private static X509Certificate cert(String subject, KeyPair key, String issuer, KeyPair issuerKey, boolean ca, byte[] ext)
            throws Exception {
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name(issuer), BigInteger.valueOf(System.nanoTime()),
                Date.from(MADE.minusSeconds(86400)), Date.from(MADE.plusSeconds(86400 * 365)), new X500Name(subject), key.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(ca ? KeyUsage.keyCertSign : KeyUsage.digitalSignature));
        if (ext != null) {
            b.addExtension(new ASN1ObjectIdentifier(KeyDescription.OID), false, ext);
        }
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA")
                .build(issuerKey.getPrivate())));
    }

    /** The DER KeyDescription of the specification for {@code spec}, with {@code packages} copies of its package. */
    static byte[] keyDescription(Spec spec, int packages) throws IOException {
        ASN1EncodableVector infos = new ASN1EncodableVector();
        for (int i = 0; i < packages; i++) {
            infos.add(new DERSequence(new ASN1Encodable[] {
                new DEROctetString((spec.pkg() + (i == 0 ? "" : "." + i)).getBytes(StandardCharsets.UTF_8)), new ASN1Integer(42)}));
        }
        byte[] appId = new DERSequence(new ASN1Encodable[] {new DERSet(infos), new DERSet(new DEROctetString(spec.digest()))})
                .getEncoded(ASN1Encoding.DER);
        DERSequence rootOfTrust = new DERSequence(new ASN1Encodable[] {new DEROctetString(new byte[32]),
            ASN1Boolean.getInstance(spec.locked()), new ASN1Enumerated(spec.boot().ordinal()), new DEROctetString(new byte[32])});
        boolean hw = spec.level() != SecurityLevel.SOFTWARE;
        ASN1EncodableVector software = new ASN1EncodableVector();
        software.add(new DERTaggedObject(true, 701, new ASN1Integer(MADE.toEpochMilli())));
        if (!hw) {
            software.add(new DERTaggedObject(true, 704, rootOfTrust));
        }
        software.add(new DERTaggedObject(true, 709, new DEROctetString(appId)));
        ASN1EncodableVector hardware = new ASN1EncodableVector();
        if (hw) {
            hardware.add(new DERTaggedObject(true, 704, rootOfTrust));
        }
        return new DERSequence(new ASN1Encodable[] {new ASN1Integer(300), new ASN1Enumerated(spec.level().ordinal()),
            new ASN1Integer(300), new ASN1Enumerated(spec.level().ordinal()), new DEROctetString(spec.challenge()),
            new DEROctetString(new byte[0]), new DERSequence(software), new DERSequence(hardware)}).getEncoded(ASN1Encoding.DER);
    }

    static byte[] keyDescription(Spec spec) throws IOException {
        return keyDescription(spec, 1);
    }
}
