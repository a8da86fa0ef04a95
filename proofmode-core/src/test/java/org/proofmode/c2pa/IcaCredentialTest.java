// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/** Identity claims aggregation credentials made here (did:jwk, Ed25519) and read by {@link IcaCredential}. */
class IcaCredentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");
    private static final byte[] HASH = new byte[32];

    private static ObjectNode payload() {
        ObjectNode p = Cbor.map();
        ObjectNode ref = p.putArray("referenced_assertions").addObject();
        ref.put("url", "self#jumbf=c2pa.assertions/c2pa.hash.data");
        ref.put("hash", HASH);
        p.put("sig_type", CawgIdentity.ICA);
        return p;
    }

    /** A credential for {@link #payload()}, changed by {@code vc}, signed (then {@code sig} changes the signature). */
    private static List<C2paStatus> check(Consumer<ObjectNode> vc, Consumer<byte[]> sig) throws Exception {
        KeyPair k = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] spki = k.getPublic().getEncoded();
        byte[] x = Arrays.copyOfRange(spki, spki.length - 32, spki.length);
        String jwk = "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(x) + "\"}";
        ObjectNode c = JSON.createObjectNode();
        c.putArray("type").add("VerifiableCredential").add("IdentityClaimsAggregationCredential");
        c.put("issuer", "did:jwk:" + Base64.getUrlEncoder().withoutPadding().encodeToString(jwk.getBytes(StandardCharsets.UTF_8)));
        c.put("validFrom", "2025-04-23T18:09:19Z");
        ObjectNode subject = c.putObject("credentialSubject");
        ObjectNode id = subject.putArray("verifiedIdentities").addObject();
        id.put("type", "cawg.social_media");
        id.put("username", "reporter23");
        id.putObject("provider").put("name", "example network");
        ObjectNode asset = subject.putObject("c2paAsset");
        asset.putArray("referenced_assertions").addObject().put("url", "self#jumbf=c2pa.assertions/c2pa.hash.data")
                .put("hash", Base64.getEncoder().encodeToString(HASH));
        asset.put("sig_type", CawgIdentity.ICA);
        vc.accept(c);
        byte[] body = JSON.writeValueAsBytes(c);
        ObjectNode prot = Cbor.map();
        prot.put("1", CoseAlgorithm.ED25519.id());
        prot.put("3", "application/vc");
        byte[] protBytes = Cbor.write(prot);
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(k.getPrivate());
        s.update(CoseSign1.toBeSigned(protBytes, body));
        byte[] signature = s.sign();
        sig.accept(signature);
        byte[] cose = Cbor.encode(g -> {
            g.writeStartArray(null, 4);
            g.writeBinary(protBytes);
            g.writeStartObject(0);
            g.writeEndObject();
            g.writeBinary(body);
            g.writeBinary(signature);
            g.writeEndArray();
        });
        List<C2paStatus> out = new ArrayList<>();
        IcaCredential.check(payload(), cose, "url", NOW, out);
        return out;
    }

    private static List<String> failures(List<C2paStatus> out) {
        return out.stream().filter(s -> s.outcome() == Outcome.FAILURE).map(C2paStatus::code).toList();
    }

    @Test
    void check_untrustedIssuerNamingIdentity_wellSignedCredential() throws Exception {
        List<C2paStatus> out = check(c -> {}, s -> {});

        assertThat(failures(out)).isEmpty();
        assertThat(out).filteredOn(s -> s.code().equals(Codes.CAWG_ICA_UNTRUSTED_ISSUER)).singleElement()
                .satisfies(s -> assertThat(s.explanation()).contains("reporter23 (cawg.social_media, verified by example network)"));
    }

    @Test
    void check_sixteenNamesListed_credentialNaming160Identities() throws Exception {
        List<C2paStatus> out = check(c -> {
            com.fasterxml.jackson.databind.node.ArrayNode ids = ((ObjectNode) c.path("credentialSubject")).putArray("verifiedIdentities");
            for (int i = 0; i < 160; i++) {
                ids.addObject().put("type", "cawg.social_media").put("username", "user" + i);
            }
        }, s -> {});

        String named = out.stream().filter(s -> s.code().equals(Codes.CAWG_ICA_UNTRUSTED_ISSUER)).findFirst().orElseThrow().explanation();
        assertThat(named).contains("user0 ", "user15 ").doesNotContain("user16 ").endsWith("; and 144 more");
        assertThat(named.split("\\(cawg.social_media", -1)).hasSize(17);
    }

    @Test
    void check_signatureMismatch_flippedSignatureByte() throws Exception {
        assertThat(failures(check(c -> {}, s -> s[5] ^= 1))).containsExactly(Codes.CAWG_ICA_SIGNATURE_MISMATCH);
    }

    @Test
    void check_signerPayloadMismatch_credentialForAnotherAsset() throws Exception {
        List<C2paStatus> out = check(c -> ((ObjectNode) c.path("credentialSubject").path("c2paAsset").path("referenced_assertions").get(0))
                .put("hash", Base64.getEncoder().encodeToString(new byte[] {1, 2, 3})), s -> {});

        assertThat(failures(out)).containsExactly(Codes.CAWG_ICA_SIGNER_PAYLOAD_MISMATCH);
    }

    @Test
    void check_validityFailures_futureValidFromPastValidUntil() throws Exception {
        assertThat(failures(check(c -> c.put("validFrom", "2027-01-01T00:00:00Z").put("validUntil", "2026-01-01T00:00:00Z"), s -> {})))
                .containsExactly(Codes.CAWG_ICA_VALID_FROM_INVALID, Codes.CAWG_ICA_VALID_UNTIL_INVALID);
        assertThat(failures(check(c -> c.remove("validFrom"), s -> {}))).containsExactly(Codes.CAWG_ICA_VALID_FROM_MISSING);
    }

    @Test
    void check_didUnavailableOrInvalidIssuer_didWebAndDidKey() throws Exception {
        assertThat(failures(check(c -> c.put("issuer", "did:web:identity.example.com"), s -> {})))
                .containsExactly(Codes.CAWG_ICA_DID_UNAVAILABLE);
        assertThat(failures(check(c -> c.put("issuer", "did:key:z6MkexampleNotSupported"), s -> {})))
                .containsExactly(Codes.CAWG_ICA_INVALID_ISSUER);
    }

    @Test
    void check_invalidCoseSign1_notCbor() {
        List<C2paStatus> out = new ArrayList<>();
        IcaCredential.check(payload(), new byte[] {1, 2, 3}, "url", NOW, out);
        assertThat(failures(out)).containsExactly(Codes.CAWG_ICA_INVALID_COSE_SIGN1);
    }
}
