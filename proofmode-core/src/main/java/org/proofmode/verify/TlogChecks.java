// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.List;
import java.util.Optional;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.TlogProof;

/**
 * The check of a transparency-log receipt ({@code <h>.tlog}): a C2SP {@code tlog-proof} whose extra data
 * is the log's entry ({@link LogEntry}), checked offline against the log keys the verifier trusts. The
 * entry must name the proof's media; what it says (event, verdict at intake, time) is reported, not
 * trusted beyond what the log's signature covers.
 */
final class TlogChecks {
    private TlogChecks() {}

    /**
     * Checks one receipt.
     *
     * @param name the file's name in the bundle
     * @param data its bytes
     * @param mediaSha256 the media hash the proof claims, if known
     * @param logKeys the trusted log keys, each named by its log's origin
     */
    static Check receipt(String name, byte[] data, Optional<String> mediaSha256, List<NoteKey> logKeys) {
        TlogProof proof;
        LogEntry entry;
        try {
            proof = TlogProof.parse(data);
            if (proof.extra().isEmpty()) {
                return invalid(name, "the receipt does not carry its log entry (no extra line)");
            }
            entry = LogEntry.parse(proof.extra().get());
        } catch (NoteFormatException e) {
            return invalid(name, "not a receipt: " + e.getMessage());
        }
        TlogProof.Result r = proof.check(entry.leafHash(), logKeys);
        return switch (r.outcome()) {
            case INVALID -> invalid(name, r.detail());
            case UNTRUSTED -> new Check(CheckCodes.TLOG_INCLUSION_UNTRUSTED, Status.WARN, name, r.detail()
                    + ": trust the log's key with --log-key KEY or a file in PROOFMODE_HOME/log-keys/");
            case VALID -> mediaSha256.isPresent() && !entry.media().contains(mediaSha256.get())
                    ? invalid(name, "the log's entry " + proof.index() + " names other media than this proof's " + mediaSha256.get())
                    : new Check(CheckCodes.TLOG_INCLUSION_VALID, Status.PASS, name, r.detail() + ": " + describe(entry));
        };
    }

    private static String describe(LogEntry e) {
        StringBuilder b = new StringBuilder(e.kind());
        e.bundle().ifPresent(v -> b.append(" of bundle ").append(v));
        e.verdict().ifPresent(v -> b.append(", verified ").append(v));
        b.append(", logged at ").append(e.time());
        return b.toString();
    }

    private static Check invalid(String name, String why) {
        return new Check(CheckCodes.TLOG_INCLUSION_INVALID, Status.FAIL, name, why);
    }
}
