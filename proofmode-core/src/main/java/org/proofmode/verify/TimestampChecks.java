// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.proofmode.media.Digests;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.Op;
import org.proofmode.timestamp.ots.OtsFile;
import org.proofmode.timestamp.ots.OtsFormatException;
import org.proofmode.timestamp.rfc3161.TokenVerifier;

/**
 * The checks of a proof's timestamps. An RFC 3161 token must cover the media signature {@code <h>.asc}
 * (ours) or the media's SHA-256; an OpenTimestamps proof must commit to the SHA-256 of {@code <h>.asc}
 * (ours) or of the media (the app's). Bitcoin attestations are reported with the block height and the
 * merkle root to compare with a block explorer: the chain itself is not consulted (offline).
 */
final class TimestampChecks {
    private final TokenVerifier tokens;

    TimestampChecks(List<X509Certificate> tsaRoots) {
        this.tokens = new TokenVerifier(tsaRoots);
    }

    /**
     * Checks one {@code .tsr}.
     *
     * @param name the file's name in the bundle
     * @param tsr its bytes
     * @param signature the media signature file's name and bytes, if the proof has one
     * @param mediaSha256 the media hash the proof claims, if known
     */
    Check rfc3161(String name, byte[] tsr, Optional<Map.Entry<String, byte[]>> signature, Optional<String> mediaSha256) {
        List<TokenVerifier.Candidate> candidates = new ArrayList<>();
        signature.ifPresent(s -> candidates.add(new TokenVerifier.Candidate("the media signature " + s.getKey(),
                Optional.of(s.getValue()), Digests.newSha256().digest(s.getValue()))));
        mediaSha256.ifPresent(h -> candidates.add(new TokenVerifier.Candidate("the media (SHA-256 " + h + ")",
                Optional.empty(), HexFormat.of().parseHex(h))));
        TokenVerifier.Result r = tokens.verify(tsr, candidates);
        return switch (r.kind()) {
            case VALID -> new Check(CheckCodes.TIMESTAMP_RFC3161_VALID, Status.PASS, name, r.message());
            case UNTRUSTED -> new Check(CheckCodes.TIMESTAMP_RFC3161_UNTRUSTED, Status.WARN, name, r.message());
            case INVALID -> new Check(CheckCodes.TIMESTAMP_RFC3161_INVALID, Status.FAIL, name, r.message());
        };
    }

    /**
     * Checks one {@code .ots}.
     *
     * @param name the file's name in the bundle
     * @param bytes its bytes
     * @param signature the media signature file's name and bytes, if the proof has one
     * @param mediaSha256 the media hash the proof claims, if known
     * @return one or more checks: malformed, mismatch, or the attestations found
     */
    List<Check> ots(String name, byte[] bytes, Optional<Map.Entry<String, byte[]>> signature, Optional<String> mediaSha256) {
        OtsFile ots;
        try {
            ots = OtsFile.parse(bytes);
        } catch (OtsFormatException e) {
            return List.of(new Check(CheckCodes.TIMESTAMP_OTS_MALFORMED, Status.FAIL, name, "not an OpenTimestamps proof: " + e.getMessage()));
        }
        byte[] digest = ots.digest();
        String covers = null;
        if (ots.fileHash() == Op.Kind.SHA256) {
            if (signature.isPresent() && MessageDigest.isEqual(digest, Digests.newSha256().digest(signature.get().getValue()))) {
                covers = "the media signature " + signature.get().getKey();
            } else if (mediaSha256.isPresent() && MessageDigest.isEqual(digest, HexFormat.of().parseHex(mediaSha256.get()))) {
                covers = "the media's SHA-256";
            }
        }
        if (covers == null) {
            return List.of(new Check(CheckCodes.TIMESTAMP_OTS_MISMATCH, Status.FAIL, name, "commits to "
                    + ots.fileHash().name() + " " + HexFormat.of().formatHex(digest)
                    + ", which is neither the media's SHA-256 nor that of its signature"));
        }
        Set<String> pending = new LinkedHashSet<>();
        Set<String> blocks = new LinkedHashSet<>();
        int other = 0;
        for (Map.Entry<byte[], Attestation> e : ots.timestamp().allAttestations()) {
            if (e.getValue() instanceof Attestation.Pending p) {
                pending.add(p.uri());
            } else if (e.getValue() instanceof Attestation.Bitcoin b) {
                blocks.add("block " + b.height() + " merkle root " + Timestamps.merkleRoot(e.getKey()));
            } else {
                other++;
            }
        }
        String otherNote = other == 0 ? "" : "; " + other + " attestation(s) of a kind not checked here";
        List<Check> out = new ArrayList<>();
        if (!blocks.isEmpty()) {
            out.add(new Check(CheckCodes.TIMESTAMP_OTS_BITCOIN, Status.INFO, name, "commits to " + covers + " in Bitcoin "
                    + String.join(", ", blocks) + ": compare the merkle root with a block explorer's "
                    + "(the chain is not consulted offline; 'ots verify' with a Bitcoin node checks it)" + otherNote));
        }
        if (!pending.isEmpty()) {
            out.add(new Check(CheckCodes.TIMESTAMP_OTS_PENDING, blocks.isEmpty() ? Status.WARN : Status.INFO, name,
                    "commits to " + covers + "; pending at " + String.join(", ", pending)
                            + (blocks.isEmpty() ? ": not anchored in Bitcoin yet (run: proofmode timestamp upgrade)" : "")
                            + (blocks.isEmpty() ? otherNote : "")));
        }
        if (out.isEmpty()) {
            out.add(new Check(CheckCodes.TIMESTAMP_OTS_PENDING, Status.WARN, name, "commits to " + covers
                    + ", but holds no pending or Bitcoin attestation" + otherNote));
        }
        return out;
    }
}
