// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Builds a C2PA manifest (claim v2) and embeds it, signed, in a JPEG, PNG, WAV, AVI or WebP. Single use: configure,
 * then {@link #sign}.
 *
 * <p>The manifest holds {@code c2pa.actions.v2} (first {@code c2pa.created} with its digital source
 * type, or {@code c2pa.opened} of a {@code parentOf} ingredient; then editing actions such as
 * {@code c2pa.edited} with the changed regions, and {@code c2pa.redacted} when asked),
 * a {@code c2pa.hash.data} hard binding that excludes the store's own bytes, and the assertions added.
 */
public final class ManifestBuilder {
    /** IPTC digital source type of a photo taken by a camera. */
    public static final String DIGITAL_CAPTURE = "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture";
    /** The generator name recorded in every claim. */
    public static final String GENERATOR = "ProofMode for the JVM";
    static final String ACTIONS = "c2pa.actions.v2";
    static final String INGREDIENT = "c2pa.ingredient.v3";
    /** The reason of a redaction of personal information (C2PA 2.2 section 18.14.4.4). */
    public static final String PII_PRESENT = "c2pa.PII.present";
    private static final int TSA_RESERVE = 20_000;
    private static final int PAD_SLACK = 512;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, JumbfBox.Super> assertions = new LinkedHashMap<>();
    private Optional<String> sourceType = Optional.empty();
    private Optional<Ingredient> parent = Optional.empty();
    private Optional<String> redactionReason = Optional.empty();
    private Optional<C2paSigner> identity = Optional.empty();
    private Optional<Map.Entry<String, JumbfBox.Super>> identityMade = Optional.empty();
    private Optional<ManifestChain> chain = Optional.empty();
    private final List<Edit> edits = new ArrayList<>();
    private String title = "";
    private boolean used;

    /** Starts a manifest. */
    public ManifestBuilder() {
        // fields above
    }

    /** The asset's title ({@code dc:title}), usually its file name. */
    public ManifestBuilder title(String title) {
        this.title = Objects.requireNonNull(title, "title");
        return this;
    }

    /** The asset was created: first action {@code c2pa.created} with this IPTC digital source type. */
    public ManifestBuilder created(String digitalSourceType) {
        this.sourceType = Optional.of(digitalSourceType);
        return this;
    }

    /** The asset was made from {@code original}: a {@code parentOf} ingredient and first action {@code c2pa.opened}. */
    public ManifestBuilder parent(Ingredient original) {
        this.parent = Optional.of(original);
        return this;
    }

    /**
     * A rectangle of the asset that an action changed (a spatial region of interest, in pixels).
     *
     * @param x left edge
     * @param y top edge
     * @param width width
     * @param height height
     * @param description what was done there, e.g. {@code pixelated}
     */
    public record Change(int x, int y, int width, int height, String description) {
        /** Validates the fields. */
        public Change {
            if (x < 0 || y < 0 || width <= 0 || height <= 0) {
                throw new IllegalArgumentException("a change is a non-empty rectangle inside the asset");
            }
            Objects.requireNonNull(description, "description");
        }
    }

    private record Edit(String action, String description, List<Change> changes) {}

    /**
     * Adds an action after the first, such as {@code c2pa.edited} or {@code c2pa.edited.metadata}.
     *
     * @param action the action's name
     * @param description what was done, in words
     * @param changes the regions the action changed (may be empty)
     */
    public ManifestBuilder edited(String action, String description, List<Change> changes) {
        if (!action.startsWith("c2pa.") || action.equals("c2pa.created") || action.equals("c2pa.opened")) {
            throw new IllegalArgumentException("not an editing action: " + action);
        }
        edits.add(new Edit(action, Objects.requireNonNull(description, "description"), List.copyOf(changes)));
        return this;
    }

    /**
     * Adds a {@code c2pa.redacted} action with a reason such as {@code c2pa.PII.present}. The
     * specification means it for assertions of an ingredient's manifest that were removed.
     */
    public ManifestBuilder redacted(String reason) {
        this.redactionReason = Optional.of(reason);
        return this;
    }

    /**
     * Builds on the content credentials of {@code original}, of which the signed asset is a derived copy
     * without credentials of its own (a redacted copy): its manifests are kept in the new store, its
     * active manifest becomes the {@link #parent}'s manifest, and the assertions the chain redacted are
     * listed in the claim's {@code redacted_assertions}, each with a {@code c2pa.redacted} action. An asset
     * that carries credentials itself is built on without this call.
     */
    public ManifestBuilder onTopOf(ManifestChain original) {
        this.chain = Optional.of(original);
        return this;
    }

    /** Adds a CBOR assertion. */
    public ManifestBuilder cborAssertion(String label, JsonNode data) {
        assertions.put(label, Jumbf.superBox("cbor", label, List.of(new JumbfBox.Content("cbor", Cbor.write(data)))));
        return this;
    }

    /** Adds a JSON assertion (such as {@code c2pa.metadata}, JSON-LD). */
    public ManifestBuilder jsonAssertion(String label, JsonNode data) {
        try {
            byte[] json = JSON.writeValueAsBytes(data);
            assertions.put(label, Jumbf.superBox("json", label, List.of(new JumbfBox.Content("json", json))));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("assertion " + label + " cannot be written as JSON", e);
        }
        return this;
    }

    /**
     * Adds a CAWG identity assertion ({@code cawg.identity}, X.509) signed with this identity's certificate
     * and key, vouching for every other assertion of the manifest: it names who signed, not just the device.
     */
    public ManifestBuilder identity(C2paSigner identitySigner) {
        this.identity = Optional.of(Objects.requireNonNull(identitySigner, "identitySigner"));
        return this;
    }

    /**
     * Signs the manifest and embeds it in the asset.
     *
     * <p>An asset that already carries content credentials is built on (C2PA 2.2 section 10.3): its store
     * is taken out, every manifest of it is kept in the new store before this one, which becomes active,
     * and its active manifest becomes this one's {@code parentOf} ingredient (first action
     * {@code c2pa.opened}, instead of {@code c2pa.created}), whatever its validation found: the results are
     * recorded in the ingredient. The hard binding is computed over the new file.
     *
     * @param asset a JPEG, PNG, WAV, AVI or WebP, with or without content credentials
     * @param signer the key and certificate chain
     * @param tsa a time-stamp authority for {@code sigTst2}, or empty
     * @return the asset with the manifest store embedded
     * @throws C2paFormatException if the asset is not a writable format, is malformed where the store
     *     goes, or has content credentials that cannot be read or taken out
     */
    public byte[] sign(byte[] asset, C2paSigner signer, Optional<TimeStamper> tsa) throws C2paFormatException {
        if (used) {
            throw new IllegalStateException("a ManifestBuilder signs once");
        }
        used = true;
        if (sourceType.isEmpty() && parent.isEmpty()) {
            throw new IllegalStateException("say how the asset came to be: created(...) or parent(...)");
        }
        AssetFormat format = AssetFormat.sniff(Arrays.copyOf(asset, Math.min(16, asset.length)))
                .filter(AssetFormat::writable)
                .orElseThrow(() -> new C2paFormatException("content credentials can be written into " + AssetFormat.writableNames() + " only"));
        Optional<ManifestChain> own = ManifestChain.of(asset);
        if (own.isPresent()) {
            if (chain.isPresent()) {
                throw new C2paFormatException("a copy made from a credentialed original must not carry credentials of its own");
            }
            chain = own;
            if (parent.isEmpty()) {
                parent = Optional.of(new Ingredient(title.isEmpty() ? "original" : title, format.mimeType(), sha256(asset)));
            }
            asset = Embedding.remove(format, asset, own.get().location());
        }
        if (chain.isPresent() && parent.isEmpty()) {
            throw new IllegalStateException("a manifest built on credentials names its parent");
        }
        int at = Embedding.insertionPoint(format, asset);
        String label = "urn:c2pa:" + UUID.randomUUID();
        List<JumbfBox.Super> fixed = fixedAssertions();
        byte[] prot = CoseSign1.protectedHeader(signer.algorithm(), signer.chain());
        int reserve = CoseSign1.write(prot, padded(Cbor.map(), 0), new byte[64]).length + PAD_SLACK
                + (tsa.isPresent() ? TSA_RESERVE : 0);
        long length = 0;
        int evenPad = 0;
        Layout layout = null;
        for (int i = 0; i < 8; i++) {
            byte[] hash = Embedding.contentHash(format, asset, at, length);
            layout = layout(label, fixed, dataHash(at, length, hash, evenPad), new byte[reserve]);
            if (format.riff() && layout.store.length % 2 == 1) {
                // a RIFF chunk of odd length is followed by a pad byte that readers place differently: one
                // byte more or less of the data hash's padding makes the store even
                evenPad = 1 - evenPad;
                layout = layout(label, fixed, dataHash(at, length, hash, evenPad), new byte[reserve]);
            }
            long wrapped = Embedding.wrap(format, layout.store).length;
            if (wrapped == length) {
                break;
            }
            length = wrapped;
            layout = null;
        }
        if (layout == null) {
            throw new IllegalStateException("manifest layout did not settle");
        }
        byte[] sig = signer.sign(CoseSign1.toBeSigned(prot, layout.claim));
        ObjectNode unprotected = Cbor.map();
        if (tsa.isPresent()) {
            byte[] stamped = new CoseSign1(prot, signer.algorithm(), signer.chain(), unprotected, sig)
                    .timeStampData(layout.claim, true);
            byte[] token = tsa.get().stamp(sha256(stamped));
            ObjectNode container = Cbor.map();
            container.putArray("tstTokens").addObject().put("val", token);
            unprotected.set("sigTst2", container);
        }
        int base = CoseSign1.write(prot, padded(unprotected.deepCopy(), 0), sig).length;
        int pad = reserve - base - 2;
        if (pad < 256) {
            throw new C2paFormatException("the time-stamp token is larger than the space reserved for it");
        }
        byte[] cose = CoseSign1.write(prot, padded(unprotected, pad), sig);
        if (cose.length != reserve) {
            throw new IllegalStateException("signature padding missed by " + (cose.length - reserve) + " bytes");
        }
        Layout done = layout(label, fixed, dataHash(at, length, Embedding.contentHash(format, asset, at, length), evenPad), cose);
        return Embedding.insert(format, asset, at, Embedding.wrap(format, done.store));
    }

    /**
     * Signs the manifest as an update manifest (C2PA 2.2 section 10.3.2) of a credentialed JPEG and embeds it:
     * for what does not change the content (a time-stamp, a link to a proof, a receipt). The manifest
     * ({@code c2um}) has the file's active manifest as its one {@code parentOf} ingredient, first action
     * {@code c2pa.opened}, the assertions added, and no hard binding: the content stays bound by the
     * parent's. Every byte of the file stays as it was, except the store, which grows in place (at the
     * same offset, so the parent's data hash exclusion still starts where the store starts).
     *
     * @param asset a JPEG with content credentials
     * @return the asset with the update manifest appended to its store
     * @throws C2paFormatException if the asset is not a JPEG with readable content credentials, or if
     *     editing actions, a redaction or a creation were asked for (an update manifest records none)
     */
    public byte[] signUpdate(byte[] asset, C2paSigner signer, Optional<TimeStamper> tsa) throws C2paFormatException {
        if (used) {
            throw new IllegalStateException("a ManifestBuilder signs once");
        }
        used = true;
        if (!edits.isEmpty() || redactionReason.isPresent() || sourceType.isPresent()) {
            throw new C2paFormatException("an update manifest records no creation, edit or redaction");
        }
        ManifestChain own = ManifestChain.of(asset).filter(c -> c.format() == AssetFormat.JPEG)
                .orElseThrow(() -> new C2paFormatException("an update manifest is added to a JPEG with content credentials only"));
        chain = Optional.of(own);
        if (parent.isEmpty()) {
            parent = Optional.of(new Ingredient(title.isEmpty() ? "original" : title, AssetFormat.JPEG.mimeType(), sha256(asset)));
        }
        String label = "urn:c2pa:" + UUID.randomUUID();
        List<JumbfBox.Super> fixed = fixedAssertions();
        byte[] prot = CoseSign1.protectedHeader(signer.algorithm(), signer.chain());
        Layout layout = layout(label, fixed, Optional.empty(), new byte[0], "c2um");
        byte[] sig = signer.sign(CoseSign1.toBeSigned(prot, layout.claim));
        ObjectNode unprotected = Cbor.map();
        if (tsa.isPresent()) {
            byte[] stamped = new CoseSign1(prot, signer.algorithm(), signer.chain(), unprotected, sig).timeStampData(layout.claim, true);
            ObjectNode container = Cbor.map();
            container.putArray("tstTokens").addObject().put("val", tsa.get().stamp(sha256(stamped)));
            unprotected.set("sigTst2", container);
        }
        Layout done = layout(label, fixed, Optional.empty(), CoseSign1.write(prot, padded(unprotected, 0), sig), "c2um");
        byte[] bare = Embedding.remove(AssetFormat.JPEG, asset, own.location());
        return Embedding.insert(AssetFormat.JPEG, bare, (int) own.location().start(), Embedding.wrap(AssetFormat.JPEG, done.store));
    }

    private static ObjectNode padded(ObjectNode unprotected, int n) {
        unprotected.put("pad", new byte[n]);
        return unprotected;
    }

    private List<JumbfBox.Super> fixedAssertions() {
        List<JumbfBox.Super> out = new ArrayList<>();
        ArrayNode actions = JSON.createArrayNode();
        if (parent.isPresent()) {
            Ingredient p = parent.get();
            ObjectNode ing = chain.map(c -> c.ingredient(p.title(), p.instanceId())).orElseGet(Cbor::map);
            if (chain.isEmpty()) {
                ing.put("dc:title", p.title());
                ing.put("dc:format", p.format());
                ing.put("instanceID", p.instanceId());
                ing.put("relationship", "parentOf");
            }
            JumbfBox.Super box = Jumbf.superBox("cbor", INGREDIENT, List.of(new JumbfBox.Content("cbor", Cbor.write(ing))));
            out.add(box);
            ObjectNode opened = actions.addObject();
            opened.put("action", "c2pa.opened");
            opened.putObject("parameters").putArray("ingredients").add(hashedUri(box));
        } else {
            ObjectNode created = actions.addObject();
            created.put("action", "c2pa.created");
            created.put("digitalSourceType", sourceType.orElseThrow());
        }
        for (Edit e : edits) {
            ObjectNode a = actions.addObject();
            a.put("action", e.action());
            a.put("description", e.description());
            if (!e.changes().isEmpty()) {
                ArrayNode changes = a.putArray("changes");
                for (Change c : e.changes()) {
                    ObjectNode roi = changes.addObject();
                    ObjectNode range = roi.putArray("region").addObject();
                    range.put("type", "spatial");
                    ObjectNode shape = range.putObject("shape");
                    shape.put("type", "rectangle");
                    shape.put("unit", "pixel");
                    shape.putObject("origin").put("x", c.x()).put("y", c.y());
                    shape.put("width", c.width());
                    shape.put("height", c.height());
                    roi.put("description", c.description());
                }
            }
        }
        redactionReason.filter(r -> chain.map(c -> c.redacted().isEmpty()).orElse(true)).ifPresent(r -> {
            ObjectNode red = actions.addObject();
            red.put("action", "c2pa.redacted");
            red.put("reason", r);
        });
        for (String url : chain.map(ManifestChain::redacted).orElse(List.of())) {
            ObjectNode red = actions.addObject();
            red.put("action", "c2pa.redacted");
            red.put("reason", redactionReason.orElse(PII_PRESENT));
            red.putObject("parameters").put("redacted", url);
        }
        for (JsonNode a : actions) {
            ObjectNode agent = ((ObjectNode) a).putObject("softwareAgent");
            agent.put("name", GENERATOR);
        }
        ObjectNode actionsNode = Cbor.map();
        actionsNode.set("actions", actions);
        out.add(Jumbf.superBox("cbor", ACTIONS, List.of(new JumbfBox.Content("cbor", Cbor.write(actionsNode)))));
        out.addAll(assertions.values());
        return out;
    }

    private static JumbfBox.Super dataHash(int at, long length, byte[] hash, int pad) {
        ObjectNode dh = Cbor.map();
        ObjectNode ex = dh.putArray("exclusions").addObject();
        ex.put("start", at);
        ex.put("length", length);
        dh.put("name", "jumbf manifest");
        dh.put("alg", "sha256");
        dh.put("hash", hash);
        dh.put("pad", new byte[pad]);
        return Jumbf.superBox("cbor", DataHash.LABEL, List.of(new JumbfBox.Content("cbor", Cbor.write(dh))));
    }

    private record Layout(byte[] claim, byte[] store) {}

    private Layout layout(String label, List<JumbfBox.Super> fixed, JumbfBox.Super dataHash, byte[] signature) {
        return layout(label, fixed, Optional.of(dataHash), signature, "c2ma");
    }

    private Layout layout(String label, List<JumbfBox.Super> fixed, Optional<JumbfBox.Super> dataHash, byte[] signature, String type) {
        List<JumbfBox.Super> all = new ArrayList<>(fixed);
        dataHash.ifPresent(all::add);
        identity.ifPresent(s -> all.add(identityAssertion(s, all)));
        ObjectNode claim = Cbor.map();
        claim.put("instanceID", "xmp:iid:" + UUID.nameUUIDFromBytes(label.getBytes(StandardCharsets.UTF_8)));
        ObjectNode gen = claim.putObject("claim_generator_info");
        gen.put("name", GENERATOR);
        claim.put("signature", ManifestStore.SELF + "/c2pa/" + label + "/" + Manifest.SIGNATURE);
        ArrayNode created = claim.putArray("created_assertions");
        all.forEach(a -> created.add(hashedUri(a)));
        if (!title.isEmpty()) {
            claim.put("dc:title", title);
        }
        if (chain.isPresent() && !chain.get().redacted().isEmpty()) {
            ArrayNode red = claim.putArray("redacted_assertions");
            chain.get().redacted().forEach(red::add);
        }
        claim.put("alg", "sha256");
        byte[] claimBytes = Cbor.write(claim);
        JumbfBox.Super manifest = Jumbf.superBox(type, label, List.of(
                Jumbf.superBox("c2as", Manifest.ASSERTIONS, all),
                Jumbf.superBox("c2cl", Manifest.CLAIM_V2, List.of(new JumbfBox.Content("cbor", claimBytes))),
                Jumbf.superBox("c2cs", Manifest.SIGNATURE, List.of(new JumbfBox.Content("cbor", signature)))));
        List<JumbfBox.Super> manifests = new ArrayList<>(chain.map(ManifestChain::manifests).orElse(List.of()));
        manifests.add(manifest);
        JumbfBox.Super store = Jumbf.superBox(ManifestStore.LABEL, ManifestStore.LABEL, manifests);
        return new Layout(claimBytes, Jumbf.write(store));
    }

    /** The identity assertion over these assertions; made again only when they change (an ECDSA signature differs each time). */
    private JumbfBox.Super identityAssertion(C2paSigner s, List<JumbfBox.Super> over) {
        List<JsonNode> refs = over.stream().<JsonNode>map(ManifestBuilder::hashedUri).toList();
        String key = refs.toString();
        if (identityMade.isEmpty() || !identityMade.get().getKey().equals(key)) {
            identityMade = Optional.of(Map.entry(key, IdentityAssertion.x509(s, refs)));
        }
        return identityMade.get().getValue();
    }

    private static ObjectNode hashedUri(JumbfBox.Super assertion) {
        ObjectNode u = Cbor.map();
        u.put("url", ManifestStore.SELF + Manifest.ASSERTIONS + "/" + assertion.label());
        u.put("hash", sha256(assertion.payload()));
        return u;
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing", e);
        }
    }
}
