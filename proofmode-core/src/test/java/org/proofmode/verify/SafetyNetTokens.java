// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.zip.ZipFile;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.proofmode.TestHomes;

/**
 * SafetyNet tokens for tests: the app's real one from the sample bundle, tampered copies derived from it
 * by code, and tokens made here under a Bouncy Castle-made chain.
 */
final class SafetyNetTokens {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path GOOD_ZIP = TestHomes.samples().resolve("proofmode/starlinglab-integrity-preprocessor/good.zip");
    static final String MEDIA = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    static final Instant SAMPLE_TIME = Instant.ofEpochMilli(1669819805414L);

    private SafetyNetTokens() {
    }

    /** The app's token from {@code good.zip}, read in place. */
    static String sample() {
        try (ZipFile z = new ZipFile(GOOD_ZIP.toFile());
                InputStream in = z.getInputStream(z.getEntry(MEDIA + ".gst"))) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String part(String token, int i) {
        return token.split("\\.")[i];
    }

    static ObjectNode json(String token, int i) throws IOException {
        return (ObjectNode) JSON.readTree(Base64.getUrlDecoder().decode(part(token, i)));
    }

    static String b64url(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String enc(ObjectNode n) throws IOException {
        return b64url(JSON.writeValueAsBytes(n));
    }

    /** The sample with its payload changed (and the signature kept). */
    static String payloadChanged() throws IOException {
        String t = sample();
        ObjectNode p = json(t, 1);
        p.put("apkPackageName", "org.example.other");
        return part(t, 0) + "." + enc(p) + "." + part(t, 2);
    }

    /** The sample with its signature cut short. */
    static String signatureCut() {
        String t = sample();
        String sig = part(t, 2);
        return part(t, 0) + "." + part(t, 1) + "." + sig.substring(0, sig.length() / 2);
    }

    /** The sample's payload signed by a chain made here, named attest.android.com but not Google's. */
    static String chainSwapped() throws Exception {
        return chain(DeviceIntegrityChecks.ATTEST_HOST, SAMPLE_TIME.minusSeconds(86400), SAMPLE_TIME.plusSeconds(86400))
                .sign(json(sample(), 1));
    }

    /** A chain made here: root, intermediate, leaf, each with its key. */
    record Chain(X509Certificate root, X509Certificate intermediate, X509Certificate leaf, PrivateKey leafKey) {
        /** Signs a token with this chain's leaf (RS256) over a header naming leaf and intermediate. */
        String sign(ObjectNode payload) throws IOException, GeneralSecurityException {
            ObjectNode h = JSON.createObjectNode().put("alg", "RS256");
            h.putArray("x5c").add(Base64.getEncoder().encodeToString(leaf.getEncoded()))
                    .add(Base64.getEncoder().encodeToString(intermediate.getEncoded()));
            String signed = enc(h) + "." + enc(payload);
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(leafKey);
            s.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + b64url(s.sign());
        }
    }

    /** A chain valid from {@code from} to {@code to}, whose leaf is named {@code cn}. */
    static Chain chain(String cn, Instant from, Instant to) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair root = g.generateKeyPair();
        KeyPair mid = g.generateKeyPair();
        KeyPair leaf = g.generateKeyPair();
        X509Certificate r = cert("CN=Test Root", root, "CN=Test Root", root, from, to, true);
        X509Certificate m = cert("CN=Test CA", mid, "CN=Test Root", root, from, to, true);
        X509Certificate l = cert("CN=" + cn, leaf, "CN=Test CA", mid, from, to, false);
        return new Chain(r, m, l, leaf.getPrivate());
    }

    private static X509Certificate cert(String subject, KeyPair key, String issuer, KeyPair issuerKey, Instant from, Instant to,
            boolean ca) throws Exception {
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name(issuer), BigInteger.valueOf(System.nanoTime()),
                Date.from(from), Date.from(to), new X500Name(subject), key.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        if (ca) {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign));
        }
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey.getPrivate())));
    }

    /** A payload like the app's, at {@code time}, naming {@code media}. */
    static ObjectNode payload(Instant time, String media, String pkg, boolean cts) {
        ObjectNode p = JSON.createObjectNode();
        byte[] random = new byte[24];
        byte[] hex = media.getBytes(StandardCharsets.US_ASCII);
        byte[] nonce = new byte[random.length + hex.length];
        System.arraycopy(hex, 0, nonce, random.length, hex.length);
        p.put("nonce", Base64.getEncoder().encodeToString(nonce));
        p.put("timestampMs", time.toEpochMilli());
        p.put("apkPackageName", pkg);
        p.putArray("apkCertificateDigestSha256").add(DeviceIntegrityChecks.PROOFMODE_ANDROID.signingCertSha256());
        p.put("ctsProfileMatch", cts);
        p.put("basicIntegrity", true);
        p.put("evaluationType", "BASIC");
        return p;
    }
}
