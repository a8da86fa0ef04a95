// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A C2PA manifest store: its manifests in order, the last one active.
 *
 * @param box the store superbox ({@code c2pa})
 * @param manifests every manifest, oldest first
 */
public record ManifestStore(JumbfBox.Super box, List<Manifest> manifests) {
    /** The store's label. */
    public static final String LABEL = "c2pa";
    /** The URI scheme prefix of references inside the asset. */
    public static final String SELF = "self#jumbf=";

    /** Validates and copies the fields. */
    public ManifestStore {
        Objects.requireNonNull(box, "box");
        manifests = List.copyOf(manifests);
        if (manifests.isEmpty()) {
            throw new IllegalArgumentException("a manifest store holds at least one manifest");
        }
    }

    /**
     * Parses a store from its JUMBF bytes.
     *
     * @throws C2paFormatException if the bytes are not a C2PA manifest store
     */
    public static ManifestStore parse(byte[] jumbf) throws C2paFormatException {
        JumbfBox.Super root = Jumbf.parseSuperBox(jumbf);
        if (!root.label().equals(LABEL) || !root.description().typeCode().equals(LABEL)) {
            throw new C2paFormatException("not a C2PA manifest store (label '" + root.label() + "')");
        }
        List<Manifest> ms = new ArrayList<>();
        for (JumbfBox b : root.children()) {
            if (b instanceof JumbfBox.Super s) {
                ms.add(Manifest.of(s));
            }
        }
        if (ms.isEmpty()) {
            throw new C2paFormatException("manifest store holds no manifest");
        }
        return new ManifestStore(root, ms);
    }

    /**
     * The absolute URIs of the assertions that some claim of the store lists as redacted
     * ({@code redacted_assertions}, C2PA 2.2 section 11.4): validators skip their hashed URIs.
     */
    public Set<String> redacted() {
        Set<String> out = new HashSet<>();
        for (Manifest m : manifests) {
            m.claim().path("redacted_assertions").forEach(u -> out.add(u.asText("")));
        }
        return out;
    }

    /** The active manifest: the last one. */
    public Manifest active() {
        return manifests.get(manifests.size() - 1);
    }

    /** The manifest with this label. */
    public Optional<Manifest> manifest(String label) {
        return manifests.stream().filter(m -> m.label().equals(label)).findFirst();
    }

    /**
     * Resolves a JUMBF URI ({@code self#jumbf=/c2pa/LABEL/…} or, relative to {@code base},
     * {@code self#jumbf=c2pa.assertions/…}) to a superbox.
     */
    public Optional<JumbfBox.Super> resolve(Manifest base, String uri) {
        if (!uri.startsWith(SELF)) {
            return Optional.empty();
        }
        String path = uri.substring(SELF.length());
        JumbfBox.Super at;
        if (path.startsWith("/")) {
            String[] parts = path.substring(1).split("/", -1);
            if (parts.length == 0 || !parts[0].equals(LABEL)) {
                return Optional.empty();
            }
            at = box;
            return walk(at, parts, 1);
        }
        String[] parts = path.split("/", -1);
        if (parts[0].equals(LABEL) && base.box().child(LABEL).isEmpty()) {
            return walk(box, parts, 1); // "c2pa/LABEL/…" written without its leading slash
        }
        return walk(base.box(), parts, 0);
    }

    private static Optional<JumbfBox.Super> walk(JumbfBox.Super at, String[] parts, int from) {
        JumbfBox.Super cur = at;
        for (int i = from; i < parts.length; i++) {
            Optional<JumbfBox.Super> next = cur.child(parts[i]);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            cur = next.get();
        }
        return Optional.of(cur);
    }
}
