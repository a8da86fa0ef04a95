// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify --json} on content credentials whose ingredient manifest is broken. */
class VerifyIngredientsTest {
    @TempDir
    Path tmp;

    @Test
    void verify_jsonNamesTheIngredientManifest_ingredientWithBrokenSignature() throws Exception {
        Cli.Result r = new Cli(tmp.resolve("home")).run("verify", "--json", Cli.sample("c2pa-conformance/CIE-sig-CA.jpg").toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.INVALID);
        List<JsonNode> checks = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).findValues("checks").forEach(a -> a.forEach(checks::add));
        assertThat(checks).filteredOn(c -> c.path("code").asText().equals("c2pa.claimSignature.mismatch")).singleElement()
                .satisfies(c -> {
                    assertThat(c.path("status").asText()).isEqualTo("FAIL");
                    assertThat(c.path("subject").asText())
                            .isEqualTo("CIE-sig-CA.jpg (ingredient manifest contentauth:urn:uuid:b0e53ec5-b976-4221-9bdd-9c4ff33e106f)");
                });
    }
}
