// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One manifest of a store, as read: its claim (bytes as signed, and parsed), its signature bytes and its
 * assertion store.
 *
 * @param label the manifest's label ({@code urn:c2pa:…} or {@code urn:uuid:…})
 * @param box the manifest superbox
 * @param claimBytes the claim's CBOR as stored (what the signature covers)
 * @param claim the parsed claim
 * @param claimVersion 1 for {@code c2pa.claim}, 2 for {@code c2pa.claim.v2}
 * @param signature the COSE_Sign1 bytes, when present
 */
public record Manifest(String label, JumbfBox.Super box, byte[] claimBytes, JsonNode claim, int claimVersion,
        Optional<byte[]> signature) {
    /** The claim box label of claim v2. */
    public static final String CLAIM_V2 = "c2pa.claim.v2";
    /** The claim box label of claim v1. */
    public static final String CLAIM_V1 = "c2pa.claim";
    /** The signature box label. */
    public static final String SIGNATURE = "c2pa.signature";
    /** The assertion store label. */
    public static final String ASSERTIONS = "c2pa.assertions";

    /** Validates and copies the fields. */
    public Manifest {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(box, "box");
        claimBytes = claimBytes.clone();
        Objects.requireNonNull(claim, "claim");
        signature = signature.map(byte[]::clone);
    }

    @Override
    public byte[] claimBytes() {
        return claimBytes.clone();
    }

    /**
     * Reads a manifest superbox.
     *
     * @throws C2paFormatException if it has no claim or the claim is not a CBOR map
     */
    static Manifest of(JumbfBox.Super box) throws C2paFormatException {
        Optional<JumbfBox.Super> v2 = box.child(CLAIM_V2);
        JumbfBox.Super claimBox = v2.or(() -> box.child(CLAIM_V1))
                .orElseThrow(() -> new C2paFormatException("manifest " + box.label() + " has no claim"));
        byte[] claimBytes = claimBox.content("cbor")
                .orElseThrow(() -> new C2paFormatException("claim of " + box.label() + " is not CBOR")).data();
        JsonNode claim = Cbor.read(claimBytes);
        if (!claim.isObject()) {
            throw new C2paFormatException("claim of " + box.label() + " is not a map");
        }
        Optional<byte[]> sig = box.child(SIGNATURE).flatMap(s -> s.content("cbor")).map(JumbfBox.Content::data);
        return new Manifest(box.label(), box, claimBytes, claim, v2.isPresent() ? 2 : 1, sig);
    }

    /** The hashed URIs of the claim's assertions: created and gathered (v2), or all (v1). */
    public List<JsonNode> assertionRefs() {
        List<JsonNode> out = new ArrayList<>();
        for (String f : List.of("created_assertions", "gathered_assertions", "assertions")) {
            claim.path(f).forEach(out::add);
        }
        return out;
    }

    /** The assertion superbox with this label. */
    public Optional<JumbfBox.Super> assertion(String label) {
        return box.child(ASSERTIONS).flatMap(a -> a.child(label));
    }

    /** The claim generator, as a name (v2 {@code claim_generator_info.name}, v1 {@code claim_generator}). */
    public String generator() {
        JsonNode info = claim.path("claim_generator_info");
        if (info.isArray()) {
            info = info.path(0);
        }
        String name = info.path("name").asText("");
        if (!name.isEmpty()) {
            String version = info.path("version").asText("");
            return version.isEmpty() ? name : name + " " + version;
        }
        return claim.path("claim_generator").asText("unknown");
    }

    /** The hash algorithm the claim names for its hashed URIs, SHA-256 when it names none. */
    public String defaultAlg() {
        return claim.path("alg").asText("sha256");
    }
}
