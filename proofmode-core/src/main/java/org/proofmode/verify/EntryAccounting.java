// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.media.MediaSniffer;

/**
 * Accounts for the entries of a bundle that no proof covers, so that none is passed over in silence: media
 * that no proof names ({@code bundle.entry.unproved}), and files that belong to no proof
 * ({@code bundle.entry.unknown}: a signature for nothing here, a hidden file, anything else).
 *
 * <p>Security: a sender can add a file beside an intact proof; the verdict speaks only of what the proofs
 * cover, and these warnings say what it does not cover.
 */
final class EntryAccounting {
    private EntryAccounting() {}

    /**
     * The checks for entries outside every proof.
     *
     * @param layout the bundle sorted into proofs
     * @param claimed the media entries a proof was checked against
     */
    static List<Check> of(BundleLayout layout, Set<BundleEntry> claimed) {
        List<Check> out = new ArrayList<>();
        for (BundleEntry e : layout.candidates) {
            if (claimed.contains(e)) {
                continue;
            }
            if (looksLikeMedia(e)) {
                out.add(new Check(CheckCodes.BUNDLE_ENTRY_UNPROVED, Status.WARN, e.name(),
                        "media that no proof in the bundle names: it was not checked, and nothing here vouches for it"));
            } else {
                out.add(new Check(CheckCodes.BUNDLE_ENTRY_UNKNOWN, Status.WARN, e.name(),
                        "not part of any proof: not checked"));
            }
        }
        for (BundleEntry e : layout.ignored) {
            if (e.name().equals(ProofFiles.HOW_TO_VERIFY)) {
                // Ours (and the app's) by name in the bundle's root: not evidence, so not "unchecked media" either.
                out.add(new Check(CheckCodes.BUNDLE_FILE_INSTRUCTIONS, Status.INFO, e.name(), "instructions for the recipient, not evidence"));
            } else if (e.fileName().toLowerCase(Locale.ROOT).equals(ProofFiles.HOW_TO_VERIFY.toLowerCase(Locale.ROOT))) {
                out.add(new Check(CheckCodes.BUNDLE_FILE_UNCHECKED, Status.INFO, e.name(), "instructions for people: not checked"));
            } else if (e.fileName().endsWith(ProofFiles.SIG)) {
                out.add(new Check(CheckCodes.BUNDLE_ENTRY_UNKNOWN, Status.WARN, e.name(),
                        "a signature over a file that is not in the bundle, and not part of any proof: not checked"));
            } else {
                out.add(new Check(CheckCodes.BUNDLE_ENTRY_UNKNOWN, Status.WARN, e.name(), "a hidden file, not part of any proof: not checked"));
            }
        }
        return out;
    }

    /** Sniffs the first bytes; a file that cannot be read is not media as far as this goes. */
    private static boolean looksLikeMedia(BundleEntry e) {
        try (InputStream in = e.open()) {
            byte[] head = in.readNBytes(MediaSniffer.HEAD_LENGTH);
            return MediaSniffer.sniff(head, head.length).isPresent();
        } catch (IOException | RuntimeException ex) {
            return false;
        }
    }
}
