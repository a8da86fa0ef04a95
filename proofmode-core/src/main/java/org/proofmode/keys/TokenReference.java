// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Where a device key held in a PKCS#11 token is: what the home keeps instead of a secret key
 * ({@code keys/token.json}). It holds no secret.
 *
 * @param module the PKCS#11 module (shared library) path
 * @param tokenLabel the token's label
 * @param tokenSerial the token's serial number (found again by it first)
 * @param keyId the key's ID in the token (its label and the provider's alias)
 * @param fingerprint the OpenPGP fingerprint of the key's certificate
 * @param device the token's maker and model, as proofs record it
 */
public record TokenReference(Path module, String tokenLabel, String tokenSerial, String keyId, String fingerprint, String device) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Validates the fields. */
    public TokenReference {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(tokenLabel, "tokenLabel");
        Objects.requireNonNull(tokenSerial, "tokenSerial");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(device, "device");
    }

    /** The value of a proof's {@code Proof.KeyStorage} field for a key in this token. */
    public String storage() {
        return KeyStorage.pkcs11(device);
    }

    byte[] toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.put("module", module.toString());
        n.put("tokenLabel", tokenLabel);
        n.put("tokenSerial", tokenSerial);
        n.put("keyId", keyId);
        n.put("fingerprint", fingerprint);
        n.put("device", device);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    static TokenReference fromJson(byte[] bytes, Path file) {
        try {
            JsonNode n = JSON.readTree(bytes);
            return new TokenReference(Path.of(text(n, "module", file)), text(n, "tokenLabel", file), text(n, "tokenSerial", file),
                    text(n, "keyId", file), text(n, "fingerprint", file), text(n, "device", file));
        } catch (IOException | RuntimeException e) {
            if (e instanceof ProofModeException pme) {
                throw pme;
            }
            throw new ProofModeException(Failure.BAD_DATA, file + ": not a token reference (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
    }

    private static String text(JsonNode n, String field, Path file) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || !v.isTextual()) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": not a token reference (no " + field + ")");
        }
        return v.asText();
    }
}
