// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.DefaultSignatureAlgorithmIdentifierFinder;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;

/**
 * Gives a key pair that another tool made in a token (e.g. {@code pkcs11-tool --keypairgen}) the
 * self-signed X.509 certificate object that Java's PKCS#11 provider needs to find its private key: the
 * provider's key store lists a private key only through a certificate with the same {@code CKA_ID}, and
 * such tools make none.
 *
 * <p>Why a certificate object rather than signing through the object handle directly: once the
 * certificate is in the token, the key is an ordinary key-store entry like those {@code keys create}
 * makes, so unlocking, the agent, OpenPGP and C2PA signing stay on one path through the provider; and the
 * certificate's start records the key's creation time, part of its OpenPGP fingerprint, so that adopting
 * the key again (in another home) gives the same fingerprint.
 *
 * <p>The token's own PKCS#11 interface is reached through the binding inside the JDK, as in
 * {@link TokenSlots} (same {@code Add-Exports}); the module is the same loaded instance the provider
 * uses, so its login holds for the session opened here. The certificate is signed by the token's key
 * (its public half checks the signature before the object is stored): it proves that the public key
 * read from the token belongs to the private one.
 */
final class TokenObjects {
    private static final String WRAPPER = "sun.security.pkcs11.wrapper.";
    // Values from the PKCS#11 standard (pkcs11t.h).
    private static final long CKA_CLASS = 0x0;
    private static final long CKA_TOKEN = 0x1;
    private static final long CKA_PRIVATE = 0x2;
    private static final long CKA_LABEL = 0x3;
    private static final long CKA_VALUE = 0x11;
    private static final long CKA_CERTIFICATE_TYPE = 0x80;
    private static final long CKA_KEY_TYPE = 0x100;
    private static final long CKA_SUBJECT = 0x101;
    private static final long CKA_ID = 0x102;
    private static final long CKA_MODULUS = 0x120;
    private static final long CKA_PUBLIC_EXPONENT = 0x122;
    private static final long CKA_EC_PARAMS = 0x180;
    private static final long CKA_EC_POINT = 0x181;
    private static final long CKO_CERTIFICATE = 1;
    private static final long CKO_PUBLIC_KEY = 2;
    private static final long CKO_PRIVATE_KEY = 3;
    private static final long CKC_X_509 = 0;
    private static final long CKK_RSA = 0;
    private static final long CKK_EC = 3;
    private static final long CKM_RSA_PKCS = 1;
    private static final long CKM_ECDSA = 0x1041;
    private static final long CKF_RW_SESSION = 2;
    private static final long CKF_SERIAL_SESSION = 4;

    private final Path module;
    private final Object p11;
    private final Class<?> attribute;
    private final long session;
    private final String token;

    private TokenObjects(Path module, Object p11, Class<?> attribute, long session, String token) {
        this.module = module;
        this.p11 = p11;
        this.attribute = attribute;
        this.session = session;
        this.token = token;
    }

    /**
     * Certifies the key pair named {@code keyId} (its label; else its ID, as hex digits or as text) so
     * that the provider finds it under the alias {@code keyId}, its certificate beginning at
     * {@code created}. The token must be logged in.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the token holds no such private
     *     key, {@link Failure#BAD_ARGUMENT} if several match, {@link Failure#UNSUPPORTED} for a key
     *     neither EC P-256 nor RSA of at least {@value KeyPolicy#MIN_RSA_BITS} bits, or what the token
     *     answered
     */
    static void certify(Path module, TokenSlots.Token token, String keyId, Instant created) {
        TokenObjects objects = open(module, token);
        try {
            objects.certify(keyId, created);
        } finally {
            objects.close();
        }
    }

    private static TokenObjects open(Path module, TokenSlots.Token token) {
        try {
            Class<?> p11 = Class.forName(WRAPPER + "PKCS11");
            Object instance = p11.getMethod("getInstance", String.class, String.class, Class.forName(WRAPPER + "CK_C_INITIALIZE_ARGS"), boolean.class)
                    .invoke(null, module.toString(), "C_GetFunctionList", null, false);
            long session = (long) p11.getMethod("C_OpenSession", long.class, long.class, Object.class, Class.forName(WRAPPER + "CK_NOTIFY"))
                    .invoke(instance, token.slot(), CKF_SERIAL_SESSION | CKF_RW_SESSION, null, null);
            return new TokenObjects(module, instance, Class.forName(WRAPPER + "CK_ATTRIBUTE"), session, token.describe());
        } catch (InvocationTargetException e) {
            throw Pkcs11Token.failure(e.getCause(), "cannot open a session with " + token.describe());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ProofModeException(Failure.UNSUPPORTED, "this Java runtime does not let ProofMode reach the token's objects ("
                    + OpenPgpKeys.oneLine(e) + "); run it with --add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED", e);
        }
    }

    private void close() {
        try {
            call("C_CloseSession", new Class<?>[] {long.class}, session);
        } catch (ProofModeException e) {
            // The session ends with the process anyway; what went before matters more.
        }
    }

    private void certify(String keyId, Instant created) {
        long key = privateKey(keyId);
        byte[] id = bytes(key, CKA_ID);
        long[] certified = find(attr(CKA_CLASS, CKO_CERTIFICATE), attr(CKA_ID, id));
        if (certified.length > 0) {
            // a second certificate with the same ID would make the provider's key store ambiguous
            Object label = value(certified[0], CKA_LABEL);
            String name = label instanceof char[] c ? new String(c) : label instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : "";
            throw new ProofModeException(Failure.BAD_ARGUMENT, "the key " + keyId + " in " + token + " already has a certificate, labelled \""
                    + name.strip() + "\"; name the key by that label: --key-id " + name.strip());
        }
        PublicKey publicKey = publicKey(key, id, keyId);
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, keyId).addRDN(BCStyle.O, "ProofMode").build();
        X509Certificate cert;
        try {
            long mechanism = publicKey.getAlgorithm().equals("EC") ? CKM_ECDSA : CKM_RSA_PKCS;
            cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name,
                    BigInteger.valueOf(created.getEpochSecond()), Date.from(created), Date.from(created.plus(Duration.ofDays(36500))),
                    name, publicKey).build(new Signer(key, mechanism)));
            cert.verify(publicKey);
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the public key " + token + " holds with ID " + HexFormat.of().formatHex(id)
                    + " does not belong to the private key " + keyId + " (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
        try {
            call("C_CreateObject", new Class<?>[] {long.class, Array.newInstance(attribute, 0).getClass()}, session, template(
                    attr(CKA_CLASS, CKO_CERTIFICATE), attr(CKA_CERTIFICATE_TYPE, CKC_X_509), attr(CKA_TOKEN, true), attr(CKA_PRIVATE, false),
                    attr(CKA_ID, id), attr(CKA_LABEL, keyId.getBytes(StandardCharsets.UTF_8)),
                    attr(CKA_SUBJECT, name.getEncoded()), attr(CKA_VALUE, cert.getEncoded())));
        } catch (IOException | GeneralSecurityException e) {
            throw new ProofModeException(Failure.INTERNAL, "cannot encode the key's certificate: " + OpenPgpKeys.oneLine(e), e);
        }
    }

    /** The one private key labelled {@code keyId}, or else with the ID it spells (hex digits or text). */
    private long privateKey(String keyId) {
        List<byte[]> ids = new ArrayList<>();
        if (keyId.matches("([0-9A-Fa-f]{2})+")) {
            ids.add(HexFormat.of().parseHex(keyId));
        }
        ids.add(keyId.getBytes(StandardCharsets.UTF_8));
        long[] found = find(attr(CKA_CLASS, CKO_PRIVATE_KEY), attr(CKA_LABEL, keyId.getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; found.length == 0 && i < ids.size(); i++) {
            found = find(attr(CKA_CLASS, CKO_PRIVATE_KEY), attr(CKA_ID, ids.get(i)));
        }
        if (found.length == 0) {
            throw new ProofModeException(Failure.INPUT_MISSING, token + " holds no key with ID or label " + keyId
                    + " (was it deleted from the token?); see the keys it holds with: pkcs11-tool --module " + module + " --login -O");
        }
        if (found.length > 1) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, token + " holds " + found.length + " private keys named " + keyId
                    + "; give each its own label (pkcs11-tool --set-id / --label) and name one");
        }
        return found[0];
    }

    /** The key's public half: from its public key object (same ID), or for RSA from the private key's own public attributes. */
    private PublicKey publicKey(long privateKey, byte[] id, String keyId) {
        long type = ((Number) value(privateKey, CKA_KEY_TYPE)).longValue();
        long[] pub = find(attr(CKA_CLASS, CKO_PUBLIC_KEY), attr(CKA_ID, id));
        try {
            if (type == CKK_EC) {
                if (pub.length == 0) {
                    throw new ProofModeException(Failure.INPUT_MISSING, token + " holds no public key beside the private key " + keyId
                            + " (same ID " + HexFormat.of().formatHex(id) + "); ProofMode needs it to make the key's certificate");
                }
                ASN1Primitive params = ASN1Primitive.fromByteArray(bytes(pub[0], CKA_EC_PARAMS));
                if (!SECObjectIdentifiers.secp256r1.equals(params)) {
                    throw unsupported(keyId, "an EC key on another curve than P-256");
                }
                byte[] point = bytes(pub[0], CKA_EC_POINT);
                if (point.length != 65) {
                    point = ASN1OctetString.getInstance(point).getOctets(); // DER-wrapped, as the standard asks (some tokens give it bare)
                }
                SubjectPublicKeyInfo info = new SubjectPublicKeyInfo(new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, params), point);
                return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(info.getEncoded()));
            }
            if (type == CKK_RSA) {
                long from = pub.length > 0 ? pub[0] : privateKey;
                RSAPublicKey rsa = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(
                        new BigInteger(1, bytes(from, CKA_MODULUS)), new BigInteger(1, bytes(from, CKA_PUBLIC_EXPONENT))));
                if (rsa.getModulus().bitLength() < KeyPolicy.MIN_RSA_BITS) {
                    throw unsupported(keyId, "an RSA key of " + rsa.getModulus().bitLength() + " bits (at least " + KeyPolicy.MIN_RSA_BITS + " are required)");
                }
                return rsa;
            }
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the public key of " + keyId + " in " + token + " cannot be read ("
                    + OpenPgpKeys.oneLine(e) + ")", e);
        }
        throw unsupported(keyId, "a key of PKCS#11 type " + type);
    }

    private ProofModeException unsupported(String keyId, String what) {
        return new ProofModeException(Failure.UNSUPPORTED, "the key " + keyId + " in " + token + " is " + what
                + "; ProofMode signs with EC P-256 or RSA keys in tokens");
    }

    private long[] find(Object... attributes) {
        Object template = template(attributes);
        call("C_FindObjectsInit", new Class<?>[] {long.class, template.getClass()}, session, template);
        try {
            return (long[]) call("C_FindObjects", new Class<?>[] {long.class, long.class}, session, 16L);
        } finally {
            call("C_FindObjectsFinal", new Class<?>[] {long.class}, session);
        }
    }

    private Object value(long object, long type) {
        try {
            Object a = attribute.getConstructor(long.class).newInstance(type);
            Object template = template(a);
            call("C_GetAttributeValue", new Class<?>[] {long.class, long.class, template.getClass()}, session, object, template);
            // the binding puts new attribute objects in the template
            return attribute.getField("pValue").get(Array.get(template, 0));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the JDK's PKCS#11 binding changed: " + e, e);
        }
    }

    private byte[] bytes(long object, long type) {
        Object v = value(object, type);
        if (v instanceof byte[] b) {
            return b;
        }
        throw new ProofModeException(Failure.BAD_DATA, token + " gave no value for the attribute 0x" + Long.toHexString(type) + " of a key");
    }

    private Object attr(long type, Object value) {
        try {
            return value instanceof Boolean b ? attribute.getConstructor(long.class, boolean.class).newInstance(type, b)
                    : value instanceof Long l ? attribute.getConstructor(long.class, long.class).newInstance(type, l)
                    : attribute.getConstructor(long.class, Object.class).newInstance(type, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the JDK's PKCS#11 binding changed: " + e, e);
        }
    }

    private Object template(Object... attributes) {
        Object array = Array.newInstance(attribute, attributes.length);
        for (int i = 0; i < attributes.length; i++) {
            Array.set(array, i, attributes[i]);
        }
        return array;
    }

    private Object call(String name, Class<?>[] types, Object... args) {
        try {
            // the binding's public class: the instance may be of a private subclass
            Method m = Class.forName(WRAPPER + "PKCS11").getMethod(name, types);
            return m.invoke(p11, args);
        } catch (InvocationTargetException e) {
            throw Pkcs11Token.failure(e.getCause(), "cannot read the keys of " + token);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the JDK's PKCS#11 binding changed: " + e, e);
        }
    }

    /** Signs the certificate with the private key: SHA-256 here, the token signs the digest (ECDSA) or its DigestInfo (RSA). */
    private final class Signer implements ContentSigner {
        private final ByteArrayOutputStream tbs = new ByteArrayOutputStream();
        private final long key;
        private final long mechanism;

        Signer(long key, long mechanism) {
            this.key = key;
            this.mechanism = mechanism;
        }

        @Override
        public AlgorithmIdentifier getAlgorithmIdentifier() {
            return new DefaultSignatureAlgorithmIdentifierFinder().find(mechanism == CKM_ECDSA ? "SHA256withECDSA" : "SHA256withRSA");
        }

        @Override
        public OutputStream getOutputStream() {
            return tbs;
        }

        @Override
        public byte[] getSignature() {
            byte[] digest = Digests.newSha256().digest(tbs.toByteArray());
            try {
                Object mech = Class.forName(WRAPPER + "CK_MECHANISM").getConstructor(long.class).newInstance(mechanism);
                call("C_SignInit", new Class<?>[] {long.class, mech.getClass(), long.class}, session, mech, key);
                byte[] data = mechanism == CKM_ECDSA ? digest : Sha256ContentSigner.digestInfo(digest);
                byte[] sig = (byte[]) call("C_Sign", new Class<?>[] {long.class, byte[].class}, session, data);
                if (mechanism != CKM_ECDSA) {
                    return sig;
                }
                // PKCS#11 gives r and s side by side; X.509 wants them as a DER sequence
                int half = sig.length / 2;
                return new DERSequence(new ASN1Encodable[] {new ASN1Integer(new BigInteger(1, Arrays.copyOfRange(sig, 0, half))),
                        new ASN1Integer(new BigInteger(1, Arrays.copyOfRange(sig, half, sig.length)))}).getEncoded();
            } catch (IOException | ReflectiveOperationException e) {
                throw new IllegalStateException("cannot sign the key's certificate: " + e, e);
            }
        }
    }
}
