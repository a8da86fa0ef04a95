// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A SafetyNet attestation in JWS compact form, parsed but not yet checked: the header's {@code x5c}
 * chain, the signed part, the signature and the payload's facts.
 */
record SafetyNetToken(List<X509Certificate> chain, byte[] signedPart, byte[] signature, byte[] nonce, Instant time,
        String packageName, List<String> certDigests, boolean ctsProfileMatch, boolean basicIntegrity,
        String evaluationType) {

    /**
     * Parses the three parts of a compact JWS.
     *
     * @throws IllegalArgumentException, IOException, GeneralSecurityException when it is not one
     */
    static SafetyNetToken parse(String[] parts, ObjectMapper json) throws IOException, GeneralSecurityException {
        if (parts.length != 3) {
            throw new IllegalArgumentException(parts.length + " dot-separated parts, not the 3 of a signed token");
        }
        Base64.Decoder url = Base64.getUrlDecoder();
        JsonNode header = json.readTree(url.decode(parts[0]));
        JsonNode payload = json.readTree(url.decode(parts[1]));
        byte[] signature = url.decode(parts[2]);
        if (header == null || !header.isObject() || payload == null || !payload.isObject()) {
            throw new IllegalArgumentException("header or payload is not a JSON object");
        }
        if (!"RS256".equals(header.path("alg").asText())) {
            throw new IllegalArgumentException("algorithm " + clip(header.path("alg").asText()) + ", not RS256");
        }
        JsonNode x5c = header.path("x5c");
        if (!x5c.isArray() || x5c.isEmpty() || x5c.size() > DeviceIntegrityChecks.MAX_CHAIN) {
            throw new IllegalArgumentException("the header's x5c holds " + x5c.size() + " certificates, not 1 to "
                    + DeviceIntegrityChecks.MAX_CHAIN);
        }
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        List<X509Certificate> chain = new ArrayList<>();
        for (JsonNode c : x5c) {
            chain.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(c.asText()))));
        }
        JsonNode ts = payload.path("timestampMs");
        if (!ts.canConvertToLong() || !payload.path("nonce").isTextual() || !payload.path("apkPackageName").isTextual()) {
            throw new IllegalArgumentException("the payload lacks timestampMs, nonce or apkPackageName");
        }
        List<String> digests = new ArrayList<>();
        payload.path("apkCertificateDigestSha256").forEach(d -> digests.add(clip(d.asText())));
        return new SafetyNetToken(List.copyOf(chain), (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII),
                signature, Base64.getDecoder().decode(payload.path("nonce").asText()), Instant.ofEpochMilli(ts.asLong()),
                clip(payload.path("apkPackageName").asText()), List.copyOf(digests),
                payload.path("ctsProfileMatch").asBoolean(false), payload.path("basicIntegrity").asBoolean(false),
                clip(payload.path("evaluationType").asText("not stated")));
    }

    /** A value from a token, cut to a length fit for one line. */
    static String clip(String s) {
        if (s == null) {
            return "";
        }
        return s.length() <= 120 ? s : s.substring(0, 120) + "…";
    }
}
