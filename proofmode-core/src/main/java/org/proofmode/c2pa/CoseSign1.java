// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * A COSE_Sign1 structure (RFC 9052) as C2PA uses it: detached payload (the claim), algorithm and
 * certificate chain ({@code x5chain}, label 33) in the protected header, time-stamp tokens and padding
 * in the unprotected header.
 *
 * @param protectedBytes the protected header as stored (a CBOR map inside a byte string)
 * @param algorithm the signature algorithm
 * @param chain the signer's certificate first, then its issuers as given
 * @param unprotected the unprotected header
 * @param signature the signature value (raw {@code r || s} for ECDSA)
 */
public record CoseSign1(byte[] protectedBytes, CoseAlgorithm algorithm, List<X509Certificate> chain,
        JsonNode unprotected, byte[] signature) {
    /** The largest certificate chain accepted. */
    public static final int MAX_CHAIN = 10;
    static final Provider BC = new BouncyCastleProvider();
    private static final int COSE_SIGN1_TAG = 18;
    private static final String X5CHAIN = "33";

    /** Validates and copies the fields. */
    public CoseSign1 {
        protectedBytes = protectedBytes.clone();
        signature = signature.clone();
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a C2PA signature carries its certificate");
        }
    }

    @Override
    public byte[] protectedBytes() {
        return protectedBytes.clone();
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    /**
     * The algorithm a COSE_Sign1's protected header names when it is not one C2PA allows (C2PA 2.2,
     * 13.2.1: ES256/384/512, PS256/384/512, Ed25519), such as ES256K (-47).
     *
     * @return empty when the header names an allowed algorithm, or none, or cannot be read
     */
    static Optional<Long> unsupportedAlgorithm(byte[] bytes) {
        try {
            JsonNode n = Cbor.read(bytes);
            if (!n.isArray() || n.size() != 4 || !n.get(0).isBinary()) {
                return Optional.empty();
            }
            JsonNode alg = Cbor.read(n.get(0).binaryValue()).get("1");
            if (alg == null || !alg.isIntegralNumber() || CoseAlgorithm.of(alg.longValue()).isPresent()) {
                return Optional.empty();
            }
            return Optional.of(alg.longValue());
        } catch (C2paFormatException | IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses a COSE_Sign1 (tagged or not).
     *
     * @throws C2paFormatException if it is not a COSE_Sign1 with a supported algorithm and a chain
     */
    public static CoseSign1 parse(byte[] bytes) throws C2paFormatException {
        JsonNode n = Cbor.read(bytes);
        if (!n.isArray() || n.size() != 4) {
            throw new C2paFormatException("COSE_Sign1 is not an array of four");
        }
        byte[] prot = binary(n.get(0), "protected header");
        JsonNode protMap = prot.length == 0 ? Cbor.map() : Cbor.read(prot);
        JsonNode unprot = n.get(1);
        if (!protMap.isObject() || !unprot.isObject()) {
            throw new C2paFormatException("COSE headers are not maps");
        }
        if (!n.get(2).isNull()) {
            binary(n.get(2), "payload");
        }
        byte[] sig = binary(n.get(3), "signature");
        JsonNode alg = protMap.get("1");
        if (alg == null || !alg.isIntegralNumber()) {
            throw new C2paFormatException("COSE protected header has no algorithm");
        }
        CoseAlgorithm a = CoseAlgorithm.of(alg.longValue())
                .orElseThrow(() -> new C2paFormatException("unsupported COSE algorithm " + alg.longValue()));
        JsonNode x5 = first(protMap.get(X5CHAIN), protMap.get("x5chain"), unprot.get(X5CHAIN), unprot.get("x5chain"))
                .orElseThrow(() -> new C2paFormatException("COSE signature has no certificate chain (x5chain)"));
        return new CoseSign1(prot, a, certificates(x5), unprot, sig);
    }

    private static Optional<JsonNode> first(JsonNode... nodes) {
        return Arrays.stream(nodes).filter(x -> x != null && !x.isNull()).findFirst();
    }

    private static List<X509Certificate> certificates(JsonNode x5) throws C2paFormatException {
        List<JsonNode> items = new ArrayList<>();
        if (x5.isArray()) {
            x5.forEach(items::add);
        } else {
            items.add(x5);
        }
        if (items.isEmpty() || items.size() > MAX_CHAIN) {
            throw new C2paFormatException("x5chain has " + items.size() + " certificates");
        }
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (JsonNode i : items) {
                out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(binary(i, "x5chain entry"))));
            }
        } catch (CertificateException | RuntimeException e) {
            throw new C2paFormatException("x5chain holds a malformed certificate: " + e.getMessage(), e);
        }
        return out;
    }

    static byte[] binary(JsonNode n, String what) throws C2paFormatException {
        if (n == null || !n.isBinary()) {
            throw new C2paFormatException("COSE " + what + " is not a byte string");
        }
        try {
            return n.binaryValue();
        } catch (IOException e) {
            throw new C2paFormatException("COSE " + what + " unreadable", e);
        }
    }

    /** Tells whether the signature verifies over the detached payload with the leaf's key. */
    public boolean verifies(byte[] payload) {
        try {
            return verify(algorithm, chain.get(0).getPublicKey(), toBeSigned(protectedBytes, payload), signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** The time-stamp token of {@code sigTst2} (or the older {@code sigTst}), and whether it is the v2 kind. */
    public Optional<TimeStampRef> timeStampToken() {
        for (String label : List.of("sigTst2", "sigTst")) {
            JsonNode c = unprotected.path(label).path("tstTokens").path(0).path("val");
            if (c.isBinary()) {
                try {
                    return Optional.of(new TimeStampRef(c.binaryValue(), label.equals("sigTst2")));
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A time-stamp token found in the unprotected header.
     *
     * @param token the DER {@code TimeStampToken}
     * @param v2 true for {@code sigTst2} (stamps the signature), false for {@code sigTst} (stamps the claim)
     */
    public record TimeStampRef(byte[] token, boolean v2) {
        /** Copies the token. */
        public TimeStampRef {
            token = token.clone();
        }

        @Override
        public byte[] token() {
            return token.clone();
        }
    }

    /** What a time-stamp authority stamps for this signature: C2PA's countersignature structure. */
    public byte[] timeStampData(byte[] claim, boolean v2) {
        byte[] data = v2 ? bstr(signature) : claim;
        return structure("CounterSignature", protectedBytes, data);
    }

    /** The {@code Sig_structure} of a COSE_Sign1 with a detached payload and no external data. */
    static byte[] toBeSigned(byte[] protectedBytes, byte[] payload) {
        return structure("Signature1", protectedBytes, payload);
    }

    private static byte[] structure(String context, byte[] protectedBytes, byte[] payload) {
        return Cbor.encode(g -> {
            g.writeStartArray(null, 4);
            g.writeString(context);
            g.writeBinary(protectedBytes);
            g.writeBinary(new byte[0]);
            g.writeBinary(payload);
            g.writeEndArray();
        });
    }

    static byte[] bstr(byte[] b) {
        return Cbor.encode(g -> g.writeBinary(b));
    }

    /** Writes a tagged COSE_Sign1 with a detached payload. */
    static byte[] write(byte[] protectedBytes, ObjectNode unprotected, byte[] signature) {
        return Cbor.encode(g -> {
            g.writeTag(COSE_SIGN1_TAG);
            g.writeStartArray(null, 4);
            g.writeBinary(protectedBytes);
            Cbor.write(g, unprotected);
            g.writeNull();
            g.writeBinary(signature);
            g.writeEndArray();
        });
    }

    /** The protected header: algorithm and certificate chain. */
    static byte[] protectedHeader(CoseAlgorithm alg, List<X509Certificate> chain) {
        List<byte[]> ders = new ArrayList<>();
        try {
            for (X509Certificate c : chain) {
                ders.add(c.getEncoded());
            }
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("certificate cannot be encoded", e);
        }
        return Cbor.encode(g -> {
            g.writeStartObject(null, 2);
            g.writeFieldId(1);
            g.writeNumber(alg.id());
            g.writeFieldId(33);
            if (ders.size() == 1) {
                g.writeBinary(ders.get(0));
            } else {
                g.writeStartArray(null, ders.size());
                for (byte[] d : ders) {
                    g.writeBinary(d);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        });
    }

    static boolean verify(CoseAlgorithm alg, PublicKey key, byte[] tbs, byte[] sig) throws GeneralSecurityException {
        Signature s = Signature.getInstance(alg.jcaName(), BC);
        s.initVerify(key);
        s.update(tbs);
        if (alg.ecCoordinateBytes() > 0) {
            int n = alg.ecCoordinateBytes();
            if (sig.length != 2 * n) {
                return false;
            }
            ASN1EncodableVector v = new ASN1EncodableVector();
            v.add(new ASN1Integer(new BigInteger(1, Arrays.copyOfRange(sig, 0, n))));
            v.add(new ASN1Integer(new BigInteger(1, Arrays.copyOfRange(sig, n, 2 * n))));
            try {
                return s.verify(new DERSequence(v).getEncoded());
            } catch (IOException e) {
                return false;
            }
        }
        return s.verify(sig);
    }
}
