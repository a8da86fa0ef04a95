// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.InputFiles;

/**
 * Google's list of revoked and suspended key attestation certificates, given offline: the JSON that
 * {@code https://android.googleapis.com/attestation/status} serves ({@code {"entries": {"<serial in hex>":
 * {"status": "REVOKED", "reason": "KEY_COMPROMISE"}}}}), saved by the verifier's operator.
 *
 * <p>Security: the list is as current as the day it was saved; the verifier fetches nothing.
 */
public final class AttestationStatus {
    /** Largest list read (Google's is a few hundred KiB). */
    static final long MAX_BYTES = 16L * 1024 * 1024;

    private final Map<String, String> entries;

    private AttestationStatus(Map<String, String> entries) {
        this.entries = Map.copyOf(entries);
    }

    /** A list that names no certificate. */
    public static AttestationStatus empty() {
        return new AttestationStatus(Map.of());
    }

    /**
     * Reads a saved status list.
     *
     * @throws ProofModeException as {@link InputFiles#read} (missing, unreadable, larger than {@value #MAX_BYTES}
     *     bytes), and with {@link Failure#BAD_DATA} when it is not such a list
     */
    public static AttestationStatus read(Path file) {
        Objects.requireNonNull(file, "file");
        byte[] bytes = InputFiles.read(file, MAX_BYTES, "attestation status list");
        JsonNode list;
        try {
            list = new ObjectMapper().readTree(bytes).path("entries");
        } catch (IOException e) {
            list = null;
        }
        if (list == null || !list.isObject()) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": not an attestation status list (JSON with \"entries\", "
                    + "as https://android.googleapis.com/attestation/status serves it)");
        }
        Map<String, String> entries = new HashMap<>();
        list.properties().forEach(e -> entries.put(normal(e.getKey()),
                SafetyNetToken.clip(e.getValue().path("status").asText("listed") + " (" + e.getValue().path("reason").asText("no reason given") + ")")));
        return new AttestationStatus(entries);
    }

    /** The status the list gives a certificate's serial number, e.g. {@code REVOKED (KEY_COMPROMISE)}. */
    Optional<String> of(BigInteger serial) {
        return Optional.ofNullable(entries.get(serial.toString(16)));
    }

    /** How many certificates the list names. */
    public int size() {
        return entries.size();
    }

    private static String normal(String hex) {
        String s = hex.strip().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() - 1 && s.charAt(i) == '0') {
            i++;
        }
        return s.substring(i);
    }
}
