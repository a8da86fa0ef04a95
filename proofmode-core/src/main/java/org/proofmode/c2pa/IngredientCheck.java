// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * The ingredients of a manifest (C2PA 2.2 section 15.11, "Validate the ingredients"): an ingredient that
 * names a manifest must find it in the store ({@code ingredient.manifest.missing}) with the hash the
 * ingredient records ({@code ingredient.manifest.mismatch}), and that manifest is then validated as any
 * other ({@link ManifestCheck}), its own ingredients in turn. The hash is the hash of the manifest box
 * (1.3 and later) or, for manifests written under C2PA 1.0 to 1.2, the hash of the claim; both are
 * accepted, as readers must for older manifests. Each manifest is validated once, however often it is an
 * ingredient.
 */
final class IngredientCheck {
    /** How deep a chain of ingredients is followed. */
    static final int MAX_DEPTH = 32;
    private static final String PREFIX = ManifestStore.SELF + "/" + ManifestStore.LABEL + "/";

    private final ManifestStore store;
    private final TrustSettings trust;
    private final List<C2paStatus> out;
    private final Set<String> visited = new HashSet<>();

    private IngredientCheck(ManifestStore store, TrustSettings trust, List<C2paStatus> out) {
        this.store = store;
        this.trust = trust;
        this.out = out;
    }

    /** Checks the ingredients of {@code active}, adding their statuses to {@code out}. */
    static void run(ManifestStore store, Manifest active, TrustSettings trust, List<C2paStatus> out) {
        IngredientCheck c = new IngredientCheck(store, trust, out);
        c.visited.add(active.label());
        c.ingredients(active, 0);
    }

    private void ingredients(Manifest m, int depth) {
        if (depth >= MAX_DEPTH) {
            out.add(new C2paStatus(Codes.CLAIM_MALFORMED, Outcome.FAILURE, "ingredient chain deeper than " + MAX_DEPTH,
                    ManifestCheck.manifestUrl(m.label())));
            return;
        }
        for (JsonNode ref : m.assertionRefs()) {
            String uri = ref.path("url").asText("");
            if (!uri.substring(uri.lastIndexOf('/') + 1).startsWith("c2pa.ingredient")) {
                continue;
            }
            Optional<JsonNode> data = store.resolve(m, uri).flatMap(AssertionData::cbor);
            Optional<JsonNode> manifestRef = data.flatMap(IngredientCheck::manifestRef);
            if (manifestRef.isPresent()) {
                ingredient(m, manifestRef.get(), data.get().path("claimSignature"), depth);
            }
        }
    }

    private void ingredient(Manifest m, JsonNode ref, JsonNode claimSignature, int depth) {
        String url = ref.path("url").asText("");
        Optional<Manifest> target = label(url).flatMap(store::manifest);
        if (target.isEmpty()) {
            out.add(new C2paStatus(Codes.INGREDIENT_MANIFEST_MISSING, Outcome.FAILURE, "the ingredient's manifest is not in the store: "
                    + url, url.startsWith(PREFIX) ? url : ManifestCheck.absolute(m, url)));
            return;
        }
        Manifest t = target.get();
        String alg = ref.path("alg").asText(t.defaultAlg());
        if (ManifestCheck.hashMatches(ref, alg, t.box().payload())) {
            out.add(new C2paStatus(Codes.INGREDIENT_MANIFEST_VALIDATED, Outcome.SUCCESS, "ingredient manifest matched: " + url, url));
        } else if (ManifestCheck.hashMatches(ref, alg, t.claimBytes())) {
            out.add(new C2paStatus(Codes.INGREDIENT_MANIFEST_VALIDATED, Outcome.SUCCESS,
                    "ingredient manifest matched by its claim's hash (C2PA 1.x): " + url, url));
        } else if (redactedFrom(t)) {
            redacted(t, url, claimSignature);
        } else {
            out.add(new C2paStatus(Codes.INGREDIENT_MANIFEST_MISMATCH, Outcome.FAILURE, "ingredient manifest differs: " + url, url));
        }
        if (visited.add(t.label())) {
            new ManifestCheck(store, t, trust, out).run();
            ingredients(t, depth + 1);
        }
    }

    private boolean redactedFrom(Manifest t) {
        String prefix = ManifestCheck.manifestUrl(t.label()) + "/";
        return store.redacted().stream().anyMatch(u -> u.startsWith(prefix));
    }

    /**
     * An ingredient manifest that a later claim redacted assertions from no longer has the hash the
     * ingredient recorded (C2PA 2.2 section 15.11): for a 2.x claim the ingredient's {@code claimSignature}
     * must match its signature box instead; a 1.x claim has nothing else to compare (the reference does the same).
     */
    private void redacted(Manifest t, String url, JsonNode claimSignature) {
        if (t.claimVersion() < 2) {
            out.add(new C2paStatus(Codes.INGREDIENT_MANIFEST_VALIDATED, Outcome.INFORMATIONAL,
                    "ingredient manifest (1.x claim) changed by a redaction its user listed: " + url, url));
            return;
        }
        byte[] sig = t.box().child(Manifest.SIGNATURE).map(JumbfBox.Super::payload).orElse(new byte[0]);
        if (claimSignature.isObject() && ManifestCheck.hashMatches(claimSignature, claimSignature.path("alg").asText(t.defaultAlg()), sig)) {
            out.add(new C2paStatus(Codes.INGREDIENT_CLAIM_SIGNATURE_VALIDATED, Outcome.INFORMATIONAL,
                    "ingredient manifest redacted; its claim signature matched: " + url, url));
        } else {
            out.add(new C2paStatus(claimSignature.isObject() ? Codes.INGREDIENT_CLAIM_SIGNATURE_MISMATCH : Codes.INGREDIENT_CLAIM_SIGNATURE_MISSING,
                    Outcome.FAILURE, "ingredient manifest redacted and its claim signature not matched: " + url, url));
        }
    }

    /**
     * Marks the failures of ingredient manifests that an ingredient assertion of the store already
     * records (its {@code validationResults}, or the older {@code validationStatus}): the signer who
     * used the ingredient saw and recorded them, so they are reported as information, not as new
     * failures (C2PA 2.2 section 15.11, and the ingredient deltas of section 15.2; the reference does
     * the same). A status matches a recorded one by code and URI. Likewise an ingredient manifest's
     * {@code signingCredential.expired}, found because its certificate has expired since, when an ingredient
     * assertion records {@code claimSignature.insideValidity} for the same signature: the user's signature
     * attests that the certificate was valid when the ingredient was used, and nothing about the ingredient
     * changed since (the reference does the same from c2pa-rs 0.91). The active manifest's own failures
     * always stand.
     */
    static void markRecorded(ManifestStore store, String activeLabel, List<C2paStatus> out) {
        Set<String> recorded = new HashSet<>();
        for (Manifest m : store.manifests()) {
            for (JsonNode ref : m.assertionRefs()) {
                String uri = ref.path("url").asText("");
                if (!uri.substring(uri.lastIndexOf('/') + 1).startsWith("c2pa.ingredient")) {
                    continue;
                }
                store.resolve(m, uri).flatMap(AssertionData::cbor).ifPresent(i -> recorded(i, recorded));
            }
        }
        if (recorded.isEmpty()) {
            return;
        }
        String active = ManifestCheck.manifestUrl(activeLabel);
        for (int k = 0; k < out.size(); k++) {
            C2paStatus s = out.get(k);
            boolean ofActive = s.url().equals(active) || s.url().startsWith(active + "/");
            if (s.outcome() != Outcome.FAILURE || ofActive) {
                continue;
            }
            if (recorded.contains(key(s.code(), s.url()))) {
                out.set(k, new C2paStatus(s.code(), Outcome.INFORMATIONAL, "already recorded by the ingredient's user: " + s.explanation(),
                        s.url()));
            } else if (s.code().equals(Codes.SIGNING_CREDENTIAL_EXPIRED)
                    && recorded.contains(key(Codes.CLAIM_SIGNATURE_INSIDE_VALIDITY, s.url()))) {
                out.set(k, new C2paStatus(s.code(), Outcome.INFORMATIONAL,
                        "the ingredient's user recorded the signature inside its certificate's validity: " + s.explanation(), s.url()));
            }
        }
    }

    private static void recorded(JsonNode ingredient, Set<String> into) {
        Optional<String> label = manifestRef(ingredient).flatMap(r -> label(r.path("url").asText("")));
        List<JsonNode> lists = new ArrayList<>();
        JsonNode vr = ingredient.path("validationResults");
        lists.add(vr.path("activeManifest"));
        vr.path("ingredientDeltas").forEach(d -> lists.add(d.path("validationDeltas")));
        for (JsonNode l : lists) {
            for (String kind : List.of("success", "informational", "failure")) {
                l.path(kind).forEach(st -> into.add(key(st, label)));
            }
        }
        ingredient.path("validationStatus").forEach(st -> into.add(key(st, label)));
    }

    private static String key(JsonNode status, Optional<String> label) {
        String url = status.path("url").asText("");
        if (url.startsWith(ManifestStore.SELF) && !url.startsWith(PREFIX) && label.isPresent()) {
            url = ManifestCheck.manifestUrl(label.get()) + "/" + url.substring(ManifestStore.SELF.length());
        }
        return key(status.path("code").asText(""), url);
    }

    /** How a status is matched with a recorded one: its code and its absolute URI. */
    private static String key(String code, String url) {
        return code + "\u0000" + url;
    }

    /** The hashed URI to the ingredient's manifest: {@code activeManifest} (v3) or {@code c2pa_manifest}. */
    static Optional<JsonNode> manifestRef(JsonNode ingredient) {
        JsonNode ref = ingredient.has("activeManifest") ? ingredient.get("activeManifest") : ingredient.path("c2pa_manifest");
        return ref.isObject() ? Optional.of(ref) : Optional.empty();
    }

    /** The manifest label a {@code self#jumbf=/c2pa/LABEL…} URI names. */
    static Optional<String> label(String url) {
        if (!url.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = url.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        return Optional.of(slash < 0 ? rest : rest.substring(0, slash));
    }

    /**
     * The manifest whose hard binding binds the asset (C2PA 2.2 sections 11.2 and 15.11): the manifest itself,
     * or for an update manifest (or one without a hard binding), the nearest {@code parentOf} ingredient
     * manifest along the chain that has one.
     */
    static Optional<Manifest> bindingManifest(ManifestStore store, Manifest m) {
        Set<String> seen = new HashSet<>();
        Manifest cur = m;
        while (seen.add(cur.label())) {
            if (!ActionsCheck.isUpdateManifest(cur) && hasHardBinding(cur)) {
                return Optional.of(cur);
            }
            Optional<Manifest> parent = parent(store, cur);
            if (parent.isEmpty()) {
                return Optional.empty();
            }
            cur = parent.get();
        }
        return Optional.empty();
    }

    private static boolean hasHardBinding(Manifest m) {
        return m.assertionRefs().stream().map(r -> r.path("url").asText("")).anyMatch(u -> u.contains("/c2pa.hash."));
    }

    private static Optional<Manifest> parent(ManifestStore store, Manifest m) {
        for (JsonNode ref : m.assertionRefs()) {
            String uri = ref.path("url").asText("");
            if (!uri.substring(uri.lastIndexOf('/') + 1).startsWith("c2pa.ingredient")) {
                continue;
            }
            Optional<JsonNode> data = store.resolve(m, uri).flatMap(AssertionData::cbor);
            if (data.isPresent() && data.get().path("relationship").asText("").equals("parentOf")) {
                return manifestRef(data.get()).flatMap(r -> label(r.path("url").asText(""))).flatMap(store::manifest);
            }
        }
        return Optional.empty();
    }
}
