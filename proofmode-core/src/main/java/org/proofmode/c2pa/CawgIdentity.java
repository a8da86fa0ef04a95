// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Validates the CAWG identity assertions ({@code cawg.identity}, CAWG identity assertion 1.x) of a
 * manifest: who, besides the device or service that signed the claim, vouches for the content. Each
 * assertion holds a {@code signer_payload} (the assertions it binds, by hashed URI, and the signature
 * type), a {@code signature} and zero padding. The payload's references must be assertions of the claim
 * with the same hashes and include a hard binding. Signature type {@code cawg.x509.cose}: a COSE_Sign1 by
 * an X.509 certificate over the payload's CBOR, checked here like a claim signature; its subject is who
 * signed. Signature type {@code cawg.identity_claims_aggregation} (a W3C verifiable credential of an
 * identity aggregator): see {@link IcaCredential}. Status codes are CAWG's ({@code cawg.*}); as in the
 * reference validator, a {@code cawg.x509.*} failure does not make the manifest invalid, the others do.
 *
 * <p>Security: the subject named is the certificate's, as written by whoever made it; without
 * {@code --c2pa-trust} anchors that chain it ({@code cawg.x509.credential.trusted}) it is a claim, not an
 * identity anyone vouched for.
 */
final class CawgIdentity {
    /** The assertion's label (instances are {@code cawg.identity__2}…). */
    static final String LABEL = "cawg.identity";
    /** The X.509 signature type. */
    static final String X509 = "cawg.x509.cose";
    /** How the explanation of {@code cawg.x509.signature.validated} starts, before the subject. */
    static final String SIGNED_BY = "identity signed by ";
    /** The identity claims aggregation signature type. */
    static final String ICA = "cawg.identity_claims_aggregation";

    private CawgIdentity() {}

    /** Adds the statuses of every identity assertion of {@code m} to {@code out}. */
    static void check(ManifestStore store, Manifest m, TrustSettings trust, List<C2paStatus> out) {
        for (JsonNode ref : m.assertionRefs()) {
            String uri = ref.path("url").asText("");
            String label = uri.substring(uri.lastIndexOf('/') + 1);
            if (!label.equals(LABEL) && !label.startsWith(LABEL + "__")) {
                continue;
            }
            String url = ManifestCheck.absolute(m, uri);
            Optional<JsonNode> data = store.resolve(m, uri).flatMap(AssertionData::cbor);
            if (data.isEmpty()) {
                continue; // a missing or unreadable assertion is the claim's failure, reported already
            }
            one(m, data.get(), url, trust, out);
        }
    }

    private static void one(Manifest m, JsonNode a, String url, TrustSettings trust, List<C2paStatus> out) {
        JsonNode payload = a.path("signer_payload");
        if (!payload.isObject() || !payload.path("referenced_assertions").isArray() || !payload.path("sig_type").isTextual()
                || !a.path("signature").isBinary()) {
            add(out, Codes.CAWG_IDENTITY_CBOR_INVALID, Outcome.FAILURE, "the identity assertion lacks signer_payload, its fields or signature", url);
            return;
        }
        for (String pad : List.of("pad1", "pad2")) {
            if (a.has(pad) && !isZeros(a.get(pad))) {
                add(out, Codes.CAWG_IDENTITY_PAD_INVALID, Outcome.FAILURE, "the identity assertion's " + pad + " is not all zero bytes", url);
                return;
            }
        }
        references(m, payload.path("referenced_assertions"), url, out);
        String type = payload.path("sig_type").asText();
        if (type.equals(X509)) {
            x509(payload, binary(a.path("signature")), url, trust, out);
        } else if (type.equals(ICA)) {
            IcaCredential.check(payload, binary(a.path("signature")), url, trust.now(), out);
        } else {
            add(out, Codes.CAWG_IDENTITY_SIG_TYPE_UNKNOWN, Outcome.FAILURE, "unknown identity signature type " + type, url);
        }
    }

    /** Checks the payload's references against the claim (the signature is checked whatever they show). */
    private static void references(Manifest m, JsonNode refs, String url, List<C2paStatus> out) {
        Set<String> seen = new HashSet<>();
        boolean hardBinding = false;
        for (JsonNode r : refs) {
            String target = ManifestCheck.absolute(m, r.path("url").asText(""));
            if (!seen.add(target)) {
                add(out, Codes.CAWG_IDENTITY_ASSERTION_DUPLICATE, Outcome.FAILURE, "the identity assertion names " + target + " twice", url);
                return;
            }
            Optional<JsonNode> inClaim = m.assertionRefs().stream()
                    .filter(c -> ManifestCheck.absolute(m, c.path("url").asText("")).equals(target)).findFirst();
            if (inClaim.isEmpty() || !MessageDigest.isEqual(binary(inClaim.get().path("hash")), binary(r.path("hash")))) {
                add(out, Codes.CAWG_IDENTITY_ASSERTION_MISMATCH, Outcome.FAILURE,
                        "the identity assertion names " + target + (inClaim.isEmpty() ? ", which the claim does not" : " with another hash"), url);
                return;
            }
            String label = target.substring(target.lastIndexOf('/') + 1);
            hardBinding |= label.startsWith("c2pa.hash.");
        }
        if (!hardBinding) {
            add(out, Codes.CAWG_IDENTITY_HARD_BINDING_MISSING, Outcome.FAILURE, "the identity assertion does not name the hard binding", url);
        }
    }

    private static void x509(JsonNode payload, byte[] signature, String url, TrustSettings trust, List<C2paStatus> out) {
        CoseSign1 cose;
        try {
            cose = CoseSign1.parse(signature);
        } catch (C2paFormatException e) {
            if (CoseSign1.unsupportedAlgorithm(signature).isPresent()) {
                add(out, Codes.CAWG_X509_ALGORITHM_UNSUPPORTED, Outcome.FAILURE, "identity signature: " + e.getMessage(), url);
            } else {
                add(out, Codes.CAWG_X509_SIGNATURE_MISMATCH, Outcome.FAILURE, "unreadable identity signature: " + e.getMessage(), url);
            }
            return;
        }
        X509Certificate leaf = cose.chain().get(0);
        String subject = leaf.getSubjectX500Principal().getName();
        if (!cose.verifies(Cbor.write(payload))) {
            add(out, Codes.CAWG_X509_SIGNATURE_MISMATCH, Outcome.FAILURE, "the identity signature of " + subject + " is not valid", url);
            return;
        }
        add(out, Codes.CAWG_X509_SIGNATURE_VALIDATED, Outcome.SUCCESS, SIGNED_BY + subject, url);
        if (Credentials.trusted(cose.chain(), trust.anchors(), Date.from(trust.now()))) {
            add(out, Codes.CAWG_X509_CREDENTIAL_TRUSTED, Outcome.SUCCESS, "the identity certificate of " + subject
                    + " chains to a trust anchor", url);
        } else {
            add(out, Codes.CAWG_X509_CREDENTIAL_UNTRUSTED, Outcome.FAILURE, "the identity certificate of " + subject
                    + " does not chain to a trust anchor", url);
        }
    }

    private static boolean isZeros(JsonNode n) {
        byte[] b = binary(n);
        if (!n.isBinary()) {
            return false;
        }
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** The bytes of a CBOR byte string, empty when it is none. */
    static byte[] binary(JsonNode n) {
        try {
            byte[] b = n.binaryValue();
            return b == null ? new byte[0] : b;
        } catch (IOException e) {
            return new byte[0];
        }
    }

    static void add(List<C2paStatus> out, String code, Outcome o, String why, String url) {
        out.add(new C2paStatus(code, o, why, url));
    }
}
