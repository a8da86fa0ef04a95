// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The content credentials a file already carries, for a manifest made on top of them (C2PA 2.2 sections
 * 10.3 and 11.1): every manifest of the store is kept, the new one is appended last (active), and the
 * file's active manifest becomes its {@code parentOf} ingredient (v3) with the validation results this
 * reader computed for the file as it was, valid or not.
 *
 * <p>Assertions of those manifests can be redacted (section 11.4, "Redaction of assertions"): their boxes
 * are removed from the store and their URIs listed in the new claim's {@code redacted_assertions}. Actions
 * and hard bindings cannot be. {@link #revealing} finds the assertions that tell where a photo was taken,
 * which device took it, or show the picture before it was redacted (thumbnails).
 */
public final class ManifestChain {
    /** What a thumbnail reveals: the picture as it was. */
    public static final String THUMBNAIL = "thumbnail";
    /** What an assertion with GPS or place fields reveals. */
    public static final String LOCATION = "location";
    /** What an assertion with serial numbers, owner names or unique ids reveals. */
    public static final String DEVICE = "device identifier";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LOCATION_KEY = Pattern.compile("gps|latitude|longitude|location|geo|altitude|address|city|sublocation");
    private static final Pattern DEVICE_KEY = Pattern.compile("serial|owner|uniqueid|imei|deviceid|device_id|cameraid|hostname");

    private final AssetFormat format;
    private final ManifestStore store;
    private final C2paReport report;
    private final DataHash.Range location;
    private final List<String> redacted;

    private ManifestChain(AssetFormat format, ManifestStore store, C2paReport report, DataHash.Range location, List<String> redacted) {
        this.format = format;
        this.store = store;
        this.report = report;
        this.location = location;
        this.redacted = List.copyOf(redacted);
    }

    /**
     * The credentials of an asset, validated without trust anchors.
     *
     * @return empty when the asset carries none
     * @throws C2paFormatException if its store cannot be read: nothing can be built on it
     */
    public static Optional<ManifestChain> of(byte[] asset) throws C2paFormatException {
        Optional<EmbeddedStore> found;
        try {
            found = EmbeddedStore.find(ByteSource.of(asset));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ManifestStore store = ManifestStore.parse(found.get().jumbf());
        C2paReport report = new C2paReader(List.of(), List.of()).read(asset).orElseThrow();
        return Optional.of(new ManifestChain(found.get().format(), store, report, found.get().location(), List.of()));
    }

    /** What validating the file as it was found (without trust anchors). */
    public C2paReport report() {
        return report;
    }

    /** The file's active manifest: the new manifest's parent. */
    public Manifest active() {
        return store.active();
    }

    /** The container the credentials were found in. */
    AssetFormat format() {
        return format;
    }

    /** Where the store sits in the asset it was read from. */
    DataHash.Range location() {
        return location;
    }

    /** The absolute URIs of the assertions redacted. */
    public List<String> redacted() {
        return redacted;
    }

    /**
     * An assertion of an earlier manifest that reveals something.
     *
     * @param url its absolute JUMBF URI
     * @param manifest the label of its manifest
     * @param label its label
     * @param why what it reveals: {@link #THUMBNAIL}, or {@link #LOCATION} and/or {@link #DEVICE} (joined by " and ")
     */
    public record Revealing(String url, String manifest, String label, String why) {}

    /**
     * The assertions of every manifest that record a location, a device identifier (serial number, owner,
     * unique id) or a thumbnail, whose label is not one that may not be redacted (actions, hard bindings).
     *
     * @param thumbnails whether thumbnails count (they show regions that a redaction hid)
     */
    public List<Revealing> revealing(boolean thumbnails) {
        List<Revealing> out = new ArrayList<>();
        for (Manifest m : store.manifests()) {
            Optional<JumbfBox.Super> as = m.box().child(Manifest.ASSERTIONS);
            for (JumbfBox b : as.map(JumbfBox.Super::children).orElse(List.of())) {
                if (!(b instanceof JumbfBox.Super a) || !redactable(a.label())) {
                    continue;
                }
                String url = ManifestCheck.manifestUrl(m.label()) + "/" + Manifest.ASSERTIONS + "/" + a.label();
                if (a.label().startsWith("c2pa.thumbnail")) {
                    if (thumbnails) {
                        out.add(new Revealing(url, m.label(), a.label(), THUMBNAIL));
                    }
                    continue;
                }
                Optional<String> why = content(a).flatMap(ManifestChain::reveals);
                why.ifPresent(w -> out.add(new Revealing(url, m.label(), a.label(), w)));
            }
        }
        return out;
    }

    /** Tells whether the specification allows an assertion with this label to be redacted. */
    static boolean redactable(String label) {
        return !label.startsWith("c2pa.actions") && !label.startsWith("c2pa.hash.") && !label.startsWith("c2pa.ingredient");
    }

    private static Optional<JsonNode> content(JumbfBox.Super a) {
        Optional<JsonNode> cbor = AssertionData.cbor(a);
        if (cbor.isPresent()) {
            return cbor;
        }
        try {
            Optional<JumbfBox.Content> json = a.content("json");
            return json.isPresent() ? Optional.of(JSON.readTree(json.get().data())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> reveals(JsonNode n) {
        Set<String> found = new TreeSet<>(Comparator.comparing(k -> k.equals(LOCATION) ? 0 : 1));
        keys(n, found, 0);
        return found.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", found));
    }

    private static void keys(JsonNode n, Set<String> found, int depth) {
        if (depth > Cbor.MAX_DEPTH) {
            return;
        }
        if (n.isObject()) {
            n.properties().forEach(e -> {
                String k = e.getKey().toLowerCase(Locale.ROOT);
                int colon = k.lastIndexOf(':');
                String local = colon >= 0 ? k.substring(colon + 1) : k;
                if (!local.startsWith("@") && LOCATION_KEY.matcher(local).find()) {
                    found.add(LOCATION);
                } else if (DEVICE_KEY.matcher(local).find()) {
                    found.add(DEVICE);
                }
                keys(e.getValue(), found, depth + 1);
            });
        } else if (n.isArray()) {
            n.forEach(x -> keys(x, found, depth + 1));
        }
    }

    /**
     * This chain with assertions of earlier manifests removed.
     *
     * @param urls absolute URIs ({@code self#jumbf=/c2pa/LABEL/c2pa.assertions/ASSERTION})
     * @throws IllegalArgumentException if a URI names no assertion of the store, or one that may not be redacted
     */
    public ManifestChain redact(List<String> urls) {
        Map<String, Set<String>> byManifest = new LinkedHashMap<>();
        for (String u : urls) {
            Optional<String> label = IngredientCheck.label(u);
            String prefix = label.map(l -> ManifestCheck.manifestUrl(l) + "/" + Manifest.ASSERTIONS + "/").orElse("");
            if (label.isEmpty() || !u.startsWith(prefix) || store.manifest(label.get()).isEmpty()
                    || store.manifest(label.get()).get().assertion(u.substring(prefix.length())).isEmpty()
                    || !redactable(u.substring(prefix.length()))) {
                throw new IllegalArgumentException("not a redactable assertion of this store: " + u);
            }
            byManifest.computeIfAbsent(label.get(), k -> new LinkedHashSet<>()).add(u.substring(prefix.length()));
        }
        List<JumbfBox> manifests = new ArrayList<>();
        for (Manifest m : store.manifests()) {
            Set<String> drop = byManifest.getOrDefault(m.label(), Set.of());
            manifests.add(drop.isEmpty() ? m.box() : without(m.box(), drop));
        }
        JumbfBox.Super root = Jumbf.rebuild(store.box(), manifests);
        Set<String> all = new LinkedHashSet<>(redacted);
        all.addAll(urls);
        try {
            return new ManifestChain(format, ManifestStore.parse(Jumbf.write(root)), report, location, List.copyOf(all));
        } catch (C2paFormatException e) {
            throw new IllegalStateException("a store rebuilt without assertions does not parse", e);
        }
    }

    private static JumbfBox.Super without(JumbfBox.Super manifest, Set<String> drop) {
        List<JumbfBox> children = new ArrayList<>();
        for (JumbfBox b : manifest.children()) {
            if (b instanceof JumbfBox.Super s && s.label().equals(Manifest.ASSERTIONS)) {
                List<JumbfBox> kept = new ArrayList<>();
                s.children().stream().filter(a -> !(a instanceof JumbfBox.Super x && drop.contains(x.label()))).forEach(kept::add);
                children.add(Jumbf.rebuild(s, kept));
            } else {
                children.add(b);
            }
        }
        return Jumbf.rebuild(manifest, children);
    }

    /** The manifests to keep in the new store, oldest first. */
    List<JumbfBox.Super> manifests() {
        return store.manifests().stream().map(Manifest::box).toList();
    }

    /**
     * The ingredient (v3) for the active manifest: its manifest and claim signature as hashed URIs, and the
     * validation results of the file as found: the active manifest's, and each earlier manifest's under
     * {@code ingredientDeltas}, by the ingredient assertion that names it.
     */
    ObjectNode ingredient(String title, String instanceId) {
        Manifest a = store.active();
        ObjectNode ing = Cbor.map();
        ing.put("dc:title", title);
        ing.put("dc:format", format.mimeType());
        ing.put("instanceID", instanceId);
        ing.put("relationship", "parentOf");
        ObjectNode am = ing.putObject("activeManifest");
        am.put("url", ManifestCheck.manifestUrl(a.label()));
        am.put("alg", "sha256");
        am.put("hash", ManifestBuilder.sha256(a.box().payload()));
        ObjectNode sig = ing.putObject("claimSignature");
        sig.put("url", ManifestCheck.signatureUrl(a));
        sig.put("alg", "sha256");
        sig.put("hash", ManifestBuilder.sha256(a.box().child(Manifest.SIGNATURE).map(JumbfBox.Super::payload).orElse(new byte[0])));
        ObjectNode vr = ing.putObject("validationResults");
        Map<String, List<C2paStatus>> byManifest = new LinkedHashMap<>();
        for (C2paStatus s : report.statuses()) {
            byManifest.computeIfAbsent(s.manifest().orElse(a.label()), k -> new ArrayList<>()).add(s);
        }
        codes(vr.putObject("activeManifest"), byManifest.getOrDefault(a.label(), List.of()));
        ArrayNode deltas = vr.putArray("ingredientDeltas");
        byManifest.forEach((label, statuses) -> {
            if (!label.equals(a.label())) {
                ObjectNode d = deltas.addObject();
                d.put("ingredientAssertionURI", ingredientNaming(label).orElse(ManifestCheck.manifestUrl(label)));
                codes(d.putObject("validationDeltas"), statuses);
            }
        });
        if (deltas.isEmpty()) {
            vr.remove("ingredientDeltas");
        }
        return ing;
    }

    /** The absolute URI of an ingredient assertion of the store that names this manifest. */
    private Optional<String> ingredientNaming(String label) {
        return naming(store, label).stream().map(IngredientOf::url).findFirst();
    }

    /** An ingredient assertion of a store: its absolute URI and content. */
    private record IngredientOf(String url, JsonNode data) {}

    /** The ingredient assertions of a store that name this manifest. */
    private static List<IngredientOf> naming(ManifestStore store, String label) {
        List<IngredientOf> out = new ArrayList<>();
        for (Manifest m : store.manifests()) {
            for (JsonNode ref : m.assertionRefs()) {
                String uri = ref.path("url").asText("");
                if (!uri.substring(uri.lastIndexOf('/') + 1).startsWith("c2pa.ingredient")) {
                    continue;
                }
                Optional<JsonNode> ing = store.resolve(m, uri).flatMap(AssertionData::cbor);
                if (ing.flatMap(IngredientCheck::manifestRef).flatMap(r -> IngredientCheck.label(r.path("url").asText(""))).filter(label::equals)
                        .isPresent()) {
                    out.add(new IngredientOf(ManifestCheck.absolute(m, uri), ing.get()));
                }
            }
        }
        return out;
    }

    private static void codes(ObjectNode into, List<C2paStatus> statuses) {
        ArrayNode success = into.putArray("success");
        ArrayNode informational = into.putArray("informational");
        ArrayNode failure = into.putArray("failure");
        for (C2paStatus s : statuses) {
            ArrayNode to = switch (s.outcome()) {
                case SUCCESS -> success;
                case INFORMATIONAL -> informational;
                case FAILURE -> failure;
            };
            ObjectNode o = to.addObject();
            o.put("code", s.code());
            o.put("url", s.url());
            o.put("explanation", s.explanation());
        }
    }

    /** The chain of a store as {@link C2paReport#chain} shows it, from the statuses of its validation. */
    static List<C2paReport.Link> links(ManifestStore store, List<C2paStatus> statuses) {
        List<C2paReport.Link> out = new ArrayList<>();
        for (Manifest m : store.manifests()) {
            List<String> failures = new ArrayList<>();
            boolean validated = false;
            for (C2paStatus s : statuses) {
                if (s.manifest().filter(m.label()::equals).isPresent()) {
                    validated = true;
                    if (s.outcome() == C2paStatus.Outcome.FAILURE && !s.code().equals(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED)
                            && !failures.contains(s.code())) {
                        failures.add(s.code());
                    }
                }
            }
            Optional<String> signer = Optional.empty();
            try {
                signer = m.signature().isPresent()
                        ? Optional.of(CoseSign1.parse(m.signature().get()).chain().get(0).getSubjectX500Principal().getName())
                        : Optional.empty();
            } catch (C2paFormatException e) {
                signer = Optional.empty(); // reported as a claimSignature failure
            }
            out.add(new C2paReport.Link(m.label(), m.generator(), signer, failures, validated, recorded(store, m.label())));
        }
        return out;
    }

    /** The failure codes the store's ingredient assertions record for a manifest (their {@code validationResults}). */
    private static List<String> recorded(ManifestStore store, String label) {
        List<String> out = new ArrayList<>();
        for (IngredientOf ing : naming(store, label)) {
            for (JsonNode st : ing.data().path("validationResults").path("activeManifest").path("failure")) {
                String code = st.path("code").asText("");
                if (!code.isEmpty() && !code.equals(C2paStatus.Codes.SIGNING_CREDENTIAL_UNTRUSTED) && !out.contains(code)) {
                    out.add(code);
                }
            }
        }
        return out;
    }

    /** The manifests as a person reads them: label, claim generator, in store order. */
    public List<String> labels() {
        return store.manifests().stream().map(Manifest::label).toList();
    }

    @Override
    public String toString() {
        return "ManifestChain[" + Objects.toString(store.active().label()) + ", " + store.manifests().size() + " manifests]";
    }
}
