// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Objects;
import java.util.Optional;

/**
 * What the certification page says about the verification: the software and its own hash, the system, the
 * date, and the key the report is signed with. Who verified is left for the person to write in.
 *
 * @param software the software's name and version
 * @param installationSha256 SHA-256 of the installed program (its jar), when it runs from one
 * @param system the operating system and Java runtime
 * @param date the date of the report, ISO-8601 UTC, when given
 * @param keyFingerprint the fingerprint of the verifying installation's key that signs the report, if it is signed
 */
public record Certification(String software, Optional<String> installationSha256, String system, Optional<String> date,
        Optional<String> keyFingerprint) {
    /** Validates the fields. */
    public Certification {
        Objects.requireNonNull(software, "software");
        Objects.requireNonNull(installationSha256, "installationSha256");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(keyFingerprint, "keyFingerprint");
    }
}
