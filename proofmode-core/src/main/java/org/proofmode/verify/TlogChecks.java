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
 * entry must name the proof's media and the key that signed the proof; what it says (event, verdict at
 * intake, time) is reported, not trusted beyond what the log's signature covers.
 *
 * <p>Security: the media alone do not tie an entry to a proof. Anyone can re-sign a photo that a log
 * already holds and put the first proof's receipt beside the new proof; its time would then pass for the
 * new proof's. An entry that names other signers (or none) is therefore another proof's receipt
 * ({@code tlog.entry.other-proof}), and its time is not shown. The entry's bundle is the bundle as the
 * server received it, which every later export changes, so it is reported, not matched.
 */
final class TlogChecks {
    private TlogChecks() {}

    /**
     * Checks one receipt.
     *
     * @param name the file's name in the bundle
     * @param data its bytes
     * @param mediaSha256 the media hash the proof claims, if known
     * @param signer the fingerprint of the key whose signature over the proof verified, if one did
     * @param logKeys the trusted log keys, each named by its log's origin, and the trusted witnesses' keys
     * @param requiredWitnesses how many trusted witnesses must have cosigned the receipt's checkpoint
     */
    static Check receipt(String name, byte[] data, Optional<String> mediaSha256, Optional<String> signer, List<NoteKey> logKeys,
            int requiredWitnesses) {
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
            case UNTRUSTED -> requiredWitnesses > 0
                    ? unwitnessed(name, r.detail() + ", so no cosignature of it counts", requiredWitnesses)
                    : new Check(CheckCodes.TLOG_INCLUSION_UNTRUSTED, Status.WARN, name, r.detail()
                    + ": trust the log's key with --log-key KEY or a file in PROOFMODE_HOME/log-keys/");
            case VALID -> mediaSha256.isPresent() && !entry.media().contains(mediaSha256.get())
                    ? invalid(name, "the log's entry " + proof.index() + " names other media than this proof's " + mediaSha256.get())
                    : signer.isEmpty() || entry.signers().stream().noneMatch(s -> s.equalsIgnoreCase(signer.get()))
                    ? otherProof(name, r.detail(), entry, signer)
                    : r.cosigners().stream().distinct().count() < requiredWitnesses
                    ? unwitnessed(name, r.detail() + ": its checkpoint is cosigned by " + r.cosigners().stream().distinct().count()
                            + " trusted witnesses", requiredWitnesses)
                    : new Check(CheckCodes.TLOG_INCLUSION_VALID, Status.PASS, name, r.detail() + ": " + describe(entry));
        };
    }

    /**
     * The check of a proof without any receipt when witnesses are required.
     *
     * @param name the proof's name
     * @param requiredWitnesses how many witnesses were required (at least one)
     */
    static Check noReceipt(String name, int requiredWitnesses) {
        return unwitnessed(name, "no transparency-log receipt beside the proof", requiredWitnesses);
    }

    private static Check unwitnessed(String name, String why, int required) {
        return new Check(CheckCodes.TLOG_WITNESSES_INSUFFICIENT, Status.FAIL, name, why + ", and --require-witnesses asks for "
                + required + " valid cosignatures by trusted witnesses (--log-key WITNESS-KEY, PROOFMODE_HOME/log-keys/)");
    }

    /** A receipt whose entry names this media but not this proof's signer: no time of it is shown as the proof's. */
    private static Check otherProof(String name, String where, LogEntry entry, Optional<String> signer) {
        String named = entry.signers().isEmpty() ? "names no signer" : "names signer " + String.join(", ", entry.signers());
        String ours = signer.map(s -> "this proof is signed by " + s).orElse("this proof has no valid signature to match it with");
        return new Check(CheckCodes.TLOG_ENTRY_OTHER_PROOF, Status.FAIL, name, where + ": the entry " + named + ", but "
                + ours + ": the log holds another proof of this media, and its time is not this proof's");
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
