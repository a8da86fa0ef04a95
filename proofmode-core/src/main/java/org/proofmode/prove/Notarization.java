// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.time.Instant;
import java.util.Locale;
import org.proofmode.proof.ProofTimes;
import org.proofmode.util.Hex;

/**
 * The app's "notarize only" share: a text short enough for one SMS (160 characters) that commits to
 * the media's SHA-256, the signing key's fingerprint and the proof time, so a recipient can later match
 * the media and its proof against it.
 */
public final class Notarization {
    /** Most characters of the text. */
    public static final int MAX_LENGTH = 160;

    private Notarization() {}

    /**
     * Builds the text.
     *
     * @param sha256 the media hash
     * @param fingerprint the key fingerprint, 40 hex digits
     * @param proofTime when the proof was made
     * @throws IllegalArgumentException if the hash or fingerprint is malformed
     */
    public static String text(String sha256, String fingerprint, Instant proofTime) {
        if (!Hex.isSha256(sha256)) {
            throw new IllegalArgumentException("not a SHA-256: " + sha256);
        }
        if (!fingerprint.matches("[0-9A-Fa-f]{40}")) {
            throw new IllegalArgumentException("not a v4 fingerprint: " + fingerprint);
        }
        String text = "ProofMode sha256:" + sha256.toLowerCase(Locale.ROOT)
                + " key:" + fingerprint.toUpperCase(Locale.ROOT)
                + " at:" + ProofTimes.format(proofTime);
        if (text.length() > MAX_LENGTH) {
            throw new IllegalStateException("notarization longer than " + MAX_LENGTH);
        }
        return text;
    }
}
