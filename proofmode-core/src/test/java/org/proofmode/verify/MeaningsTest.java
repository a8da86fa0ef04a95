// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeaningsTest {
    /** Every check code constant (those with a dot; the others are signature outcome suffixes). */
    static List<String> codes() throws IllegalAccessException {
        List<String> out = new ArrayList<>();
        for (Field f : CheckCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && ((String) f.get(null)).contains(".")) {
                out.add((String) f.get(null));
            }
        }
        return out;
    }

    @Test
    void of_hasItsOwnSentence_forEveryCheckCode() throws Exception {
        List<String> codes = codes();
        assertThat(codes).hasSizeGreaterThan(60);
        for (String code : codes) {
            assertThat(Meanings.known(code)).as(code).isPresent();
            assertThat(Meanings.of(code)).as(code).doesNotStartWith("A status of the content credentials").endsWith(".");
        }
        assertThat(Meanings.codes()).as("the codes the reports' translations are held to").containsAll(codes);
    }

    @Test
    void of_explainsEverySignatureOutcome() {
        for (String subject : List.of("media", "proofJson", "proofCsv", "j3m", "frames")) {
            for (String outcome : List.of(CheckCodes.VALID, CheckCodes.INVALID, CheckCodes.MISSING, CheckCodes.MALFORMED,
                    CheckCodes.UNVERIFIABLE, CheckCodes.KEY_EXPIRED, CheckCodes.KEY_REVOKED, CheckCodes.UNCHECKED)) {
                assertThat(Meanings.known(CheckCodes.signature(subject, outcome))).isPresent();
                assertThat(Meanings.known(CheckCodes.redactionSignature(outcome))).isPresent();
            }
        }
        assertThat(Meanings.of("signature.media.invalid")).isEqualTo("The media file does not match its signature: changed, or signed by another key.");
    }

    @Test
    void of_saysSo_forACodeItDoesNotKnow() {
        assertThat(Meanings.known("future.check")).isEmpty();
        assertThat(Meanings.of("future.check")).contains("future.check");
        assertThat(Meanings.known(CheckCodes.c2pa("assertion.action.malformed"))).isPresent();
    }
}
