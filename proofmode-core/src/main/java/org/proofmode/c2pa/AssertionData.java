// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** Reads the content of an assertion superbox. */
final class AssertionData {
    private AssertionData() {}

    /** The CBOR content of an assertion, when it has one that parses. */
    static Optional<JsonNode> cbor(JumbfBox.Super box) {
        Optional<JumbfBox.Content> c = box.content("cbor");
        if (c.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Cbor.read(c.get().data()));
        } catch (C2paFormatException e) {
            return Optional.empty();
        }
    }
}
