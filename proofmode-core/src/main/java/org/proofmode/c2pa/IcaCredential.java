// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Checks an identity claims aggregation credential (CAWG identity assertion 1.x, signature type
 * {@code cawg.identity_claims_aggregation}): a W3C verifiable credential (JSON, COSE_Sign1 payload of
 * content type {@code application/vc}) signed with EdDSA by its issuer, an identity service that verified
 * the named identities. The issuer's key comes from its DID: {@code did:jwk} (the key inside the DID) is
 * checked; {@code did:web} would need the network and is {@code cawg.ica.did_unavailable}, as for a
 * validator offline; another method is {@code cawg.ica.invalid_issuer}. Then {@code validFrom} and
 * {@code validUntil} against the time, and the credential's {@code c2paAsset} against the signer payload.
 * No issuer is trusted ({@code cawg.ica.untrusted_issuer}, information), so, as in the reference, the
 * credential is never called valid and its identities are reported as named by an untrusted issuer.
 */
final class IcaCredential {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] ED25519_SPKI = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
    private static final int MAX_NAMES = 16;

    private IcaCredential() {}

    /** Adds the statuses of the credential in {@code signature} for {@code payload} at time {@code now}. */
    static void check(JsonNode payload, byte[] signature, String url, Instant now, List<C2paStatus> out) {
        JsonNode cose;
        byte[] prot;
        JsonNode protMap;
        try {
            cose = Cbor.read(signature);
            if (!cose.isArray() || cose.size() != 4 || !cose.get(0).isBinary() || !cose.get(3).isBinary()) {
                throw new C2paFormatException("not a COSE_Sign1");
            }
            prot = cose.get(0).binaryValue();
            protMap = prot.length == 0 ? Cbor.map() : Cbor.read(prot);
        } catch (C2paFormatException | IOException e) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_COSE_SIGN1, Outcome.FAILURE, "the identity credential is not a COSE_Sign1: " + e.getMessage(), url);
            return;
        }
        if (protMap.path("1").asLong(0) != CoseAlgorithm.ED25519.id()) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_ALG, Outcome.FAILURE, "the identity credential is not signed with EdDSA", url);
            return;
        }
        if (!protMap.path("3").asText("").equals("application/vc")) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_CONTENT_TYPE, Outcome.FAILURE, "the identity credential's content type is not application/vc", url);
        }
        JsonNode vc;
        byte[] body;
        try {
            body = cose.get(2).binaryValue();
            vc = body == null ? null : JSON.readTree(body);
        } catch (IOException e) {
            vc = null;
            body = null;
        }
        if (vc == null || !vc.isObject()) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_VERIFIABLE_CREDENTIAL, Outcome.FAILURE, "the identity credential holds no JSON credential", url);
            return;
        }
        String issuer = vc.path("issuer").isObject() ? vc.path("issuer").path("id").asText("") : vc.path("issuer").asText("");
        boolean signed = issuerSignature(issuer, prot, body, CawgIdentity.binary(cose.get(3)), url, out);
        List<String> names = names(vc);
        if (signed) {
            CawgIdentity.add(out, Codes.CAWG_ICA_UNTRUSTED_ISSUER, Outcome.INFORMATIONAL, "the identity credential's issuer " + issuer
                    + " is not one this verifier trusts; it names " + (names.isEmpty() ? "nobody" : String.join("; ", names)), url);
        }
        validity(vc, now, url, out);
        JsonNode subject = vc.path("credentialSubject").isArray() ? vc.path("credentialSubject").path(0) : vc.path("credentialSubject");
        if (!sameAsset(subject.path("c2paAsset"), payload)) {
            CawgIdentity.add(out, Codes.CAWG_ICA_SIGNER_PAYLOAD_MISMATCH, Outcome.FAILURE,
                    "the identity credential's c2paAsset is not the identity assertion's signer payload", url);
        }
    }

    /** Verifies the issuer's signature; true when it verifies. */
    private static boolean issuerSignature(String issuer, byte[] prot, byte[] body, byte[] sig, String url, List<C2paStatus> out) {
        String did = issuer.contains("#") ? issuer.substring(0, issuer.indexOf('#')) : issuer;
        if (did.startsWith("did:web:")) {
            CawgIdentity.add(out, Codes.CAWG_ICA_DID_UNAVAILABLE, Outcome.FAILURE, "the identity credential's issuer " + did
                    + " would be resolved over the network, which this verifier does not do", url);
            return false;
        }
        if (!did.startsWith("did:jwk:")) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_ISSUER, Outcome.FAILURE, "the identity credential's issuer is not a did:jwk or did:web DID", url);
            return false;
        }
        PublicKey key;
        try {
            JsonNode jwk = JSON.readTree(Base64.getUrlDecoder().decode(did.substring("did:jwk:".length())));
            byte[] x = Base64.getUrlDecoder().decode(jwk.path("x").asText(""));
            if (!jwk.path("kty").asText("").equals("OKP") || !jwk.path("crv").asText("").equals("Ed25519") || x.length != 32) {
                throw new IOException("not an Ed25519 OKP key");
            }
            byte[] spki = new byte[ED25519_SPKI.length + 32];
            System.arraycopy(ED25519_SPKI, 0, spki, 0, ED25519_SPKI.length);
            System.arraycopy(x, 0, spki, ED25519_SPKI.length, 32);
            key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
        } catch (IOException | IllegalArgumentException | GeneralSecurityException e) {
            CawgIdentity.add(out, Codes.CAWG_ICA_INVALID_DID_DOCUMENT, Outcome.FAILURE, "the identity credential's issuer key cannot be read: "
                    + e.getMessage(), url);
            return false;
        }
        boolean ok;
        try {
            ok = CoseSign1.verify(CoseAlgorithm.ED25519, key, CoseSign1.toBeSigned(prot, body), sig);
        } catch (GeneralSecurityException | RuntimeException e) {
            ok = false;
        }
        if (!ok) {
            CawgIdentity.add(out, Codes.CAWG_ICA_SIGNATURE_MISMATCH, Outcome.FAILURE, "the identity credential's signature does not verify with its "
                    + "issuer's key", url);
        }
        return ok;
    }

    private static void validity(JsonNode vc, Instant now, String url, List<C2paStatus> out) {
        Optional<Instant> from = time(vc.path("validFrom"));
        if (from.isEmpty()) {
            CawgIdentity.add(out, Codes.CAWG_ICA_VALID_FROM_MISSING, Outcome.FAILURE, "the identity credential has no validFrom date", url);
        } else if (now.isBefore(from.get())) {
            CawgIdentity.add(out, Codes.CAWG_ICA_VALID_FROM_INVALID, Outcome.FAILURE, "the identity credential is valid only from " + from.get(), url);
        }
        Optional<Instant> until = time(vc.path("validUntil"));
        if (until.isPresent() && now.isAfter(until.get())) {
            CawgIdentity.add(out, Codes.CAWG_ICA_VALID_UNTIL_INVALID, Outcome.FAILURE, "the identity credential was valid until " + until.get(), url);
        }
    }

    private static Optional<Instant> time(JsonNode n) {
        try {
            return n.isTextual() ? Optional.of(Instant.parse(n.asText())) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Tells whether the credential's {@code c2paAsset} (hashes in base64) is the signer payload. */
    private static boolean sameAsset(JsonNode asset, JsonNode payload) {
        JsonNode a = asset.path("referenced_assertions");
        JsonNode p = payload.path("referenced_assertions");
        if (!asset.path("sig_type").asText("").equals(payload.path("sig_type").asText()) || !a.isArray() || a.size() != p.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            byte[] vcHash;
            try {
                vcHash = Base64.getDecoder().decode(base64Text(a.get(i).path("hash")));
            } catch (IllegalArgumentException e) {
                return false;
            }
            if (!a.get(i).path("url").asText("").equals(p.get(i).path("url").asText())
                    || !java.security.MessageDigest.isEqual(vcHash, CawgIdentity.binary(p.get(i).path("hash")))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A hash of {@code c2paAsset} as base64 text: a JSON string, or (as c2pa-rs writes it) an array of the
     * text's bytes.
     */
    private static String base64Text(JsonNode hash) {
        if (!hash.isArray()) {
            return hash.asText("");
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode c : hash) {
            int v = c.asInt(-1);
            if (v < 0x20 || v > 0x7E) {
                return "";
            }
            b.append((char) v);
        }
        return b.toString();
    }

    /** The verified identities the credential names: name or username, type, provider. */
    private static List<String> names(JsonNode vc) {
        JsonNode subject = vc.path("credentialSubject").isArray() ? vc.path("credentialSubject").path(0) : vc.path("credentialSubject");
        List<String> out = new ArrayList<>();
        JsonNode ids = subject.path("verifiedIdentities");
        for (JsonNode id : ids) {
            if (out.size() == MAX_NAMES) {
                out.add("and " + (ids.size() - MAX_NAMES) + " more");
                break;
            }
            String who = id.path("name").asText(id.path("username").asText(id.path("uri").asText("")));
            out.add((who.isEmpty() ? "an unnamed identity" : who) + " (" + id.path("type").asText("?") + ", verified by "
                    + id.path("provider").path("name").asText(id.path("provider").path("id").asText("?")) + ")");
        }
        return out;
    }
}
