// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * The rules for actions assertions of a 2.x claim (C2PA 2.2 section 15.10, "Validate the Assertions"):
 * every actions assertion has actions; the first actions assertion (created, else gathered) starts with
 * {@code c2pa.created} or {@code c2pa.opened} unless the manifest is an update manifest; those two appear
 * only as its first action; {@code c2pa.opened}, {@code c2pa.placed} and {@code c2pa.removed} name their
 * ingredients; {@code c2pa.created} names its digital source type. A broken rule is
 * {@code assertion.action.malformed}. {@code c2pa.opened} names exactly one {@code parentOf} ingredient,
 * {@code c2pa.placed} and {@code c2pa.removed} a {@code componentOf} one, else
 * {@code assertion.action.ingredientMismatch}, as is a {@code c2pa.opened} that names none. 1.x claims are held only to "one actions assertion".
 */
final class ActionsCheck {
    private static final String CREATED = "c2pa.created";
    private static final String OPENED = "c2pa.opened";
    private static final Set<String> NEED_INGREDIENTS = Set.of(OPENED, "c2pa.placed", "c2pa.removed");

    private ActionsCheck() {}

    /** One actions assertion of the claim. */
    private record Actions(String url, List<JsonNode> actions, boolean created) {}

    static void check(ManifestStore store, Manifest m, List<C2paStatus> out) {
        List<Actions> all = actionsAssertions(store, m);
        String manifestUrl = ManifestCheck.manifestUrl(m.label());
        if (m.claimVersion() < 2) {
            if (all.size() > 1) {
                malformed(out, manifestUrl, "a 1.x claim has more than one actions assertion");
            }
            return;
        }
        if (all.isEmpty()) {
            return;
        }
        for (Actions a : all) {
            if (a.actions().isEmpty()) {
                malformed(out, a.url(), "an actions assertion without actions");
            }
        }
        Optional<Actions> first = all.stream().filter(Actions::created).findFirst().or(() -> all.stream().filter(a -> !a.created()).findFirst())
                .filter(a -> !a.actions().isEmpty() && isStart(a.actions().get(0)));
        if (first.isEmpty() && !isUpdateManifest(m)) {
            malformed(out, manifestUrl, "the first action is neither c2pa.created nor c2pa.opened");
        }
        for (Actions a : all) {
            for (int i = 0; i < a.actions().size(); i++) {
                JsonNode action = a.actions().get(i);
                String name = action.path("action").asText("");
                if (name.isEmpty()) {
                    malformed(out, a.url(), "an action without its name");
                }
                if (isStart(action) && (first.isEmpty() || first.get() != a || i != 0)) {
                    malformed(out, a.url(), name + " is not the first action");
                }
                if (name.equals(CREATED) && action.path("digitalSourceType").asText("").isEmpty()) {
                    malformed(out, a.url(), "c2pa.created without a digitalSourceType");
                }
                if (NEED_INGREDIENTS.contains(name)) {
                    ingredients(store, m, a.url(), name, action.path("parameters"), out);
                }
            }
        }
    }

    private static void ingredients(ManifestStore store, Manifest m, String url, String name, JsonNode params, List<C2paStatus> out) {
        List<String> refs = new ArrayList<>();
        if (params.path("ingredient").isObject()) {
            refs.add(params.path("ingredient").path("url").asText(""));
        }
        if (params.path("ingredients").isArray()) {
            if (params.path("ingredients").isEmpty()) {
                malformed(out, url, name + " has an empty ingredients list");
                return;
            }
            params.path("ingredients").forEach(r -> refs.add(r.path("url").asText("")));
        }
        if (refs.isEmpty() && name.equals(OPENED)) {
            out.add(new C2paStatus(Codes.ACTION_INGREDIENT_MISMATCH, Outcome.FAILURE, name + " names no ingredient", url));
            return;
        }
        if (refs.isEmpty()) {
            malformed(out, url, name + " names no ingredient");
            return;
        }
        String wanted = name.equals(OPENED) ? "parentOf" : "componentOf";
        long matching = refs.stream().map(r -> store.resolve(m, r)).flatMap(Optional::stream)
                .map(AssertionData::cbor).flatMap(Optional::stream)
                .filter(i -> i.path("relationship").asText("").equals(wanted)).count();
        if (name.equals(OPENED) ? matching != 1 : matching == 0) {
            out.add(new C2paStatus(Codes.ACTION_INGREDIENT_MISMATCH, Outcome.FAILURE,
                    name + " names " + matching + " " + wanted + " ingredients", url));
        }
    }

    private static boolean isStart(JsonNode action) {
        String n = action.path("action").asText("");
        return n.equals(CREATED) || n.equals(OPENED);
    }

    /** Tells whether the manifest is an update manifest (its JUMBF type is {@code c2um}). */
    static boolean isUpdateManifest(Manifest m) {
        return m.box().description().typeCode().equals("c2um");
    }

    private static List<Actions> actionsAssertions(ManifestStore store, Manifest m) {
        List<Actions> out = new ArrayList<>();
        for (String field : List.of("created_assertions", "gathered_assertions", "assertions")) {
            for (JsonNode ref : m.claim().path(field)) {
                String uri = ref.path("url").asText("");
                String label = uri.substring(uri.lastIndexOf('/') + 1);
                if (!label.equals("c2pa.actions") && !label.startsWith("c2pa.actions.") && !label.startsWith("c2pa.actions__")) {
                    continue;
                }
                Optional<JsonNode> data = store.resolve(m, uri).flatMap(AssertionData::cbor);
                if (data.isEmpty()) {
                    continue;
                }
                List<JsonNode> actions = new ArrayList<>();
                data.get().path("actions").forEach(actions::add);
                out.add(new Actions(ManifestCheck.absolute(m, uri), actions, !field.equals("gathered_assertions")));
            }
        }
        return out;
    }

    private static void malformed(List<C2paStatus> out, String url, String why) {
        out.add(new C2paStatus(Codes.ACTION_MALFORMED, Outcome.FAILURE, why, url));
    }
}
