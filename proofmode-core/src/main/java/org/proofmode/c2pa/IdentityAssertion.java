// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Writes a CAWG identity assertion ({@code cawg.identity}, CAWG identity assertion 1.x) of signature type
 * {@code cawg.x509.cose}: the {@code signer_payload} names the manifest's assertions by hashed URI (the
 * hard binding among them) and is signed, as a detached COSE_Sign1 payload, with an X.509 identity
 * certificate and its key. So the manifest says who vouches for the content (the certificate's subject),
 * besides the device that signs the claim. {@link CawgIdentity} reads it back.
 */
final class IdentityAssertion {
    private IdentityAssertion() {}

    /**
     * The assertion box.
     *
     * @param signer the identity's key and certificate chain (leaf first)
     * @param referenced hashed URIs ({@code url}, {@code hash}) of the assertions it vouches for, in the
     *     claim's form; one must be the hard binding
     */
    static JumbfBox.Super x509(C2paSigner signer, List<JsonNode> referenced) {
        ObjectNode payload = Cbor.map();
        ArrayNode refs = payload.putArray("referenced_assertions");
        referenced.forEach(refs::add);
        payload.put("sig_type", CawgIdentity.X509);
        byte[] prot = CoseSign1.protectedHeader(signer.algorithm(), signer.chain());
        byte[] sig = signer.sign(CoseSign1.toBeSigned(prot, Cbor.write(payload)));
        ObjectNode assertion = Cbor.map();
        assertion.set("signer_payload", payload);
        assertion.put("signature", CoseSign1.write(prot, Cbor.map(), sig));
        assertion.put("pad1", new byte[0]);
        return Jumbf.superBox("cbor", CawgIdentity.LABEL, List.of(new JumbfBox.Content("cbor", Cbor.write(assertion))));
    }
}
