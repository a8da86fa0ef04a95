// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.proofmode.TestHomes;
import org.proofmode.c2pa.C2paReader;

/** The C2PA checks of a file whose ingredient manifest is broken name that manifest. */
class C2paChecksIngredientTest {
    private static final Path CIE_SIG_CA = TestHomes.samples().resolve("c2pa-conformance/CIE-sig-CA.jpg");

    @Test
    void of_failNamingTheIngredientManifest_ingredientWithBrokenSignature() {
        C2paChecks.Result r = new C2paChecks(new C2paReader(List.of(), List.of())).of(CIE_SIG_CA);

        assertThat(r.verdict()).contains(Verdict.INVALID);
        assertThat(r.checks()).filteredOn(c -> c.code().equals("c2pa.claimSignature.mismatch")).singleElement()
                .satisfies(c -> {
                    assertThat(c.status()).isEqualTo(Status.FAIL);
                    assertThat(c.subject()).isEqualTo("CIE-sig-CA.jpg (ingredient manifest contentauth:urn:uuid:b0e53ec5-b976-4221-9bdd-9c4ff33e106f)");
                });
        assertThat(r.checks()).filteredOn(c -> c.code().equals("c2pa.claimSignature.validated")).singleElement()
                .extracting(Check::subject).isEqualTo("CIE-sig-CA.jpg");
    }
}
