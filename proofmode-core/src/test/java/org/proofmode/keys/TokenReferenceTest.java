// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class TokenReferenceTest {
    private static final TokenReference REF = new TokenReference(Path.of("/usr/lib/softhsm/libsofthsm2.so"), "proofmode",
            "1fbb21423ab07645", "proofmode-0f134339", "1795F3DE4BE3FA7BE678F57F2E0B798DC4147299", "SoftHSM project SoftHSM v2");

    @Test
    void fromJson_readsWhatToJsonWrote_everyField() {
        assertThat(TokenReference.fromJson(REF.toJson(), Path.of("token.json"))).isEqualTo(REF);
    }

    @Test
    void toJson_holdsNoSecret_onlyWhereTheKeyIs() {
        String json = new String(REF.toJson(), StandardCharsets.UTF_8);
        assertThat(json).contains("\"module\"", "\"tokenLabel\"", "\"tokenSerial\"", "\"keyId\"", "\"fingerprint\"", "\"device\"")
                .doesNotContainIgnoringCase("pin").doesNotContainIgnoringCase("private");
    }

    @Test
    void fromJson_isBadData_missingFieldOrNotJson() {
        String missing = new String(REF.toJson(), StandardCharsets.UTF_8).replace("\"keyId\"", "\"other\"");
        assertThatThrownBy(() -> TokenReference.fromJson(missing.getBytes(StandardCharsets.UTF_8), Path.of("token.json")))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining("token.json: not a token reference (no keyId)");
        assertThatThrownBy(() -> TokenReference.fromJson("{".getBytes(StandardCharsets.UTF_8), Path.of("token.json")))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
    }

    @Test
    void storage_namesTheTokensMakerAndModel() {
        assertThat(REF.storage()).isEqualTo("pkcs11: SoftHSM project SoftHSM v2");
    }

    @Test
    void failure_mapsTheTokensAnswer_toTheDocumentedFailure() {
        assertThat(mapped("CKR_PIN_INCORRECT")).isEqualTo(Failure.KEY_LOCKED);
        assertThat(mapped("CKR_PIN_LOCKED")).isEqualTo(Failure.KEY_LOCKED);
        assertThat(mapped("CKR_TOKEN_NOT_PRESENT")).isEqualTo(Failure.INPUT_MISSING);
        assertThat(mapped("CKR_DEVICE_REMOVED")).isEqualTo(Failure.INPUT_MISSING);
        assertThat(mapped("CKR_DEVICE_MEMORY")).isEqualTo(Failure.IO);
        assertThat(mapped("CKR_FUNCTION_FAILED")).isEqualTo(Failure.IO);
        assertThat(mapped("CKR_MECHANISM_INVALID")).isEqualTo(Failure.UNSUPPORTED);
        assertThat(Pkcs11Token.failure(new java.io.IOException("load failed", new IllegalStateException("CKR_PIN_INCORRECT")), "login")
                .getMessage()).isEqualTo("login: wrong PIN");
    }

    private static Failure mapped(String code) {
        return Pkcs11Token.failure(new RuntimeException("outer", new RuntimeException(code)), "x").failure();
    }
}
