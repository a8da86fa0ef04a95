// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofSet;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.TlogProof;
import org.proofmode.util.SafeText;

/**
 * {@code proofmode log keep}: a transparency-log receipt (C2SP tlog-proof carrying the evidence server's
 * entry) kept beside each stored proof whose media its entry names, as {@code <h>.tlog}.
 *
 * <p>Security: a receipt kept already that a trusted log signed is replaced only by one of the same log
 * that a trusted key signed too (a later checkpoint), never by one of no trusted log or of another log.
 */
public final class Receipts {
    private Receipts() {}

    /**
     * What became of a receipt for one proof it names.
     *
     * @param sha256 the proof's media hash
     * @param refused why the receipt kept already stays, if it does
     */
    public record Item(String sha256, Optional<String> refused) {
        /** Validates the fields. */
        public Item {
            Objects.requireNonNull(sha256, "sha256");
            Objects.requireNonNull(refused, "refused");
        }
    }

    /**
     * What {@link #keep} did with a receipt.
     *
     * @param items each stored proof it names, in the entry's order (proofs not stored here are left out)
     * @param check the receipt's check against the trusted log keys (VALID or UNTRUSTED)
     */
    public record Result(List<Item> items, TlogProof.Result check) {
        /** Validates the fields. */
        public Result {
            items = List.copyOf(items);
            Objects.requireNonNull(check, "check");
        }
    }

    /**
     * Keeps a receipt beside the stored proofs its entry names.
     *
     * @param pm the home, able to read its store
     * @param name the receipt's name, for messages
     * @param data the receipt
     * @param trusted the log keys this home trusts
     * @return what was kept and refused
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is not a receipt or does not check
     */
    public static Result keep(ProofMode pm, String name, byte[] data, List<NoteKey> trusted) {
        TlogProof proof;
        LogEntry entry;
        try {
            proof = TlogProof.parse(data);
            entry = LogEntry.parse(proof.extra().orElseThrow(() -> new NoteFormatException("no entry (extra line)")));
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": not a receipt: " + e.getMessage());
        }
        TlogProof.Result r = proof.check(entry.leafHash(), trusted);
        if (r.outcome() == TlogProof.Outcome.INVALID) {
            throw new ProofModeException(Failure.BAD_DATA, name + ": " + SafeText.escape(r.detail()));
        }
        List<Item> items = new ArrayList<>();
        for (String h : entry.media()) {
            Optional<ProofSet> set = pm.store().set(h);
            if (set.isEmpty()) {
                continue;
            }
            Optional<String> why = set.get().read(h + ProofFiles.TLOG).flatMap(before -> keeps(before, data, r, trusted));
            if (why.isEmpty()) {
                set.get().add(h + ProofFiles.TLOG, data, true);
            }
            items.add(new Item(h, why));
        }
        return new Result(items, r);
    }

    /** Why the receipt kept already stays, if it does. */
    private static Optional<String> keeps(byte[] before, byte[] data, TlogProof.Result now, List<NoteKey> trusted) {
        Optional<String> origin;
        try {
            TlogProof kept = TlogProof.parse(before);
            LogEntry entry = LogEntry.parse(kept.extra().orElseThrow(() -> new NoteFormatException("no entry")));
            TlogProof.Result r = kept.check(entry.leafHash(), trusted);
            origin = r.outcome() == TlogProof.Outcome.VALID ? r.checkpoint().map(c -> c.origin()) : Optional.empty();
        } catch (NoteFormatException e) {
            return Optional.empty();
        }
        if (origin.isEmpty() || Arrays.equals(before, data)) {
            return Optional.empty();
        }
        String keptFrom = "the receipt kept already is signed by the trusted log " + SafeText.escape(origin.get());
        if (now.outcome() != TlogProof.Outcome.VALID) {
            return Optional.of(keptFrom + ", and this one by no trusted log");
        }
        String other = now.checkpoint().orElseThrow().origin();
        return other.equals(origin.get()) ? Optional.empty()
                : Optional.of(keptFrom + ", and this one is of another log, " + SafeText.escape(other));
    }
}
