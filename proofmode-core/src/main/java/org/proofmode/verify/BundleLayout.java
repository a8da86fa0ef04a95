// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.util.Hex;

/**
 * Sorts a bundle's entries into proofs. A proof is named by its id: the media SHA-256 in today's app
 * ({@code <h>.proof.json}, {@code <h>.asc}, ...), or the media file name in 2016-era proofs
 * ({@code IMG.jpg.proof.csv}, {@code IMG.jpg.asc}). Everything else is a media candidate or ignored.
 */
final class BundleLayout {
    /** The files of one proof. */
    static final class Group {
        final String id;
        BundleEntry json;
        BundleEntry csv;
        BundleEntry mediaSig;
        BundleEntry jsonSig;
        BundleEntry csvSig;
        BundleEntry j3m;
        BundleEntry j3mSig;
        BundleEntry redaction;
        BundleEntry redactionSig;
        BundleEntry frames;
        BundleEntry framesSig;
        final List<BundleEntry> extras = new ArrayList<>();

        Group(String id) {
            this.id = id;
        }

        boolean hasRecord() {
            return json != null || csv != null;
        }
    }

    private static final List<String> EXTRA_SUFFIXES = List.of(".ots", ".gst", ".tsr", ProofFiles.TLOG, Verifier.KEY_ATTESTATION);

    /** Suffix of CameraV's J3M record, written by {@code prove --j3m}. */
    private static final String J3M = ".j3m.json";

    final Map<String, Group> groups = new LinkedHashMap<>();
    final List<BundleEntry> pubkeys = new ArrayList<>();
    final List<BundleEntry> candidates = new ArrayList<>();
    final List<BundleEntry> ignored = new ArrayList<>();

    static BundleLayout of(List<BundleEntry> entries) {
        BundleLayout l = new BundleLayout();
        List<BundleEntry> sigs = new ArrayList<>();
        for (BundleEntry e : entries) {
            String n = e.fileName();
            String lower = n.toLowerCase(Locale.ROOT);
            if (lower.equals(ProofFiles.PUBKEY)) {
                l.pubkeys.add(e);
            } else if (lower.equals(ProofFiles.HOW_TO_VERIFY.toLowerCase(Locale.ROOT)) || n.startsWith(".")) {
                l.ignored.add(e);
            } else if (n.endsWith(ProofFiles.REDACTION + ProofFiles.SIG)) {
                l.group(strip(n, ProofFiles.REDACTION + ProofFiles.SIG)).redactionSig = e;
            } else if (n.endsWith(ProofFiles.REDACTION)) {
                l.group(strip(n, ProofFiles.REDACTION)).redaction = e;
            } else if (n.endsWith(ProofFiles.FRAMES + ProofFiles.SIG)) {
                l.group(strip(n, ProofFiles.FRAMES + ProofFiles.SIG)).framesSig = e;
            } else if (n.endsWith(ProofFiles.FRAMES)) {
                l.group(strip(n, ProofFiles.FRAMES)).frames = e;
            } else if (n.endsWith(J3M + ProofFiles.SIG)) {
                l.group(strip(n, J3M + ProofFiles.SIG)).j3mSig = e;
            } else if (n.endsWith(J3M)) {
                l.group(strip(n, J3M)).j3m = e;
            } else if (n.endsWith(ProofFiles.JSON + ProofFiles.SIG)) {
                l.group(strip(n, ProofFiles.JSON + ProofFiles.SIG)).jsonSig = e;
            } else if (n.endsWith(ProofFiles.CSV + ProofFiles.SIG)) {
                l.group(strip(n, ProofFiles.CSV + ProofFiles.SIG)).csvSig = e;
            } else if (n.endsWith(ProofFiles.JSON)) {
                l.group(strip(n, ProofFiles.JSON)).json = e;
            } else if (n.endsWith(ProofFiles.CSV)) {
                l.group(strip(n, ProofFiles.CSV)).csv = e;
            } else if (extraSuffix(n).isPresent()) {
                l.group(strip(n, extraSuffix(n).get())).extras.add(e);
            } else if (n.endsWith(ProofFiles.SIG)) {
                sigs.add(e);
            } else {
                l.candidates.add(e);
            }
        }
        // Media signatures last: "<id>.asc" belongs to a proof only if that proof exists or its media does.
        for (BundleEntry e : sigs) {
            String id = strip(e.fileName(), ProofFiles.SIG);
            boolean mediaPresent = l.candidates.stream().anyMatch(c -> c.fileName().equals(id));
            if (l.groups.containsKey(id) || mediaPresent || Hex.isSha256(id)) {
                l.group(id).mediaSig = e;
            } else {
                l.ignored.add(e);
            }
        }
        return l;
    }

    private Group group(String id) {
        return groups.computeIfAbsent(id, Group::new);
    }

    private static Optional<String> extraSuffix(String name) {
        return EXTRA_SUFFIXES.stream().filter(name::endsWith).findFirst();
    }

    private static String strip(String name, String suffix) {
        return name.substring(0, name.length() - suffix.length());
    }
}
