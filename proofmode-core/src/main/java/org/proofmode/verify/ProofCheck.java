// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.LimitExceededException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofCsv;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.sign.Prehash;
import org.proofmode.util.Hex;
import org.proofmode.util.IoErrors;

/** The checks of one proof of a bundle, for {@link Verifier}. */
final class ProofCheck {
    private final Verifier verifier;
    private final BundleLayout.Group g;
    private final SignatureChecker checker;
    private final Set<String> trustedFingerprints;
    private final List<Check> checks = new ArrayList<>();
    private final Set<String> signers = new HashSet<>();
    private final List<ProofRecord> jsonRecords;
    private final List<ProofRecord> csvRecords;
    private PGPPublicKeyRing signerCert;
    /** The video's frame list, once read. */
    private FrameList.Read frames;
    private final Optional<RedactionOriginal> original;
    /** Each entry's bytes, read once: a proof's files are signed, parsed and compared from the same read. */
    private final Map<BundleEntry, byte[]> contents = new IdentityHashMap<>();

    ProofCheck(Verifier verifier, BundleLayout.Group g, SignatureChecker checker, Set<String> trustedFingerprints, Optional<RedactionOriginal> original) {
        this.verifier = verifier;
        this.g = g;
        this.original = original;
        this.checker = checker;
        this.trustedFingerprints = trustedFingerprints;
        this.jsonRecords = parse(g.json, true);
        this.csvRecords = parse(g.csv, false);
    }

    Optional<BundleEntry> findMedia(List<BundleEntry> candidates, Set<BundleEntry> claimed, boolean onlyProof) {
        List<BundleEntry> free = candidates.stream().filter(c -> !claimed.contains(c)).toList();
        for (BundleEntry c : free) {
            if (c.fileName().equals(g.id)) {
                return Optional.of(c);
            }
        }
        Optional<String> hint = Stream.concat(jsonRecords.stream(), csvRecords.stream()).map(r -> r.first(ProofFields.PATH_ALIASES)).flatMap(Optional::stream)
                .map(p -> p.substring(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1)).findFirst();
        if (hint.isPresent()) {
            for (BundleEntry c : free) {
                if (c.fileName().equals(hint.get())) {
                    return Optional.of(c);
                }
            }
        }
        return onlyProof && free.size() == 1 ? Optional.of(free.get(0)) : Optional.empty();
    }

    private List<ProofRecord> parse(BundleEntry e, boolean json) {
        if (e == null) {
            return List.of();
        }
        byte[] bytes = read(e);
        try {
            return json ? ProofJson.read(bytes, e.name()) : ProofCsv.read(bytes, e.name());
        } catch (ProofModeException ex) {
            checks.add(new Check(json ? CheckCodes.PROOF_JSON_MALFORMED : CheckCodes.PROOF_CSV_MALFORMED,
                    Status.FAIL, e.name(), ex.getMessage()));
            return List.of();
        }
    }

    ProofReport run(Optional<Verifier.MediaSource> media) {
        if (!g.hasRecord()) {
            checks.add(new Check(CheckCodes.PROOF_RECORD_MISSING, Status.FAIL, g.id,
                    "signatures or media without a .proof.json or .proof.csv record"));
        }
        Optional<String> claimed = Hex.isSha256(g.id)
                ? Optional.of(g.id.toLowerCase(Locale.ROOT))
                : firstHash(jsonRecords).or(() -> firstHash(csvRecords));
        hashChecks(g.json, jsonRecords, claimed, CheckCodes.PROOF_JSON_HASH_MATCH, CheckCodes.PROOF_JSON_HASH_MISMATCH);
        hashChecks(g.csv, csvRecords, claimed, CheckCodes.PROOF_CSV_HASH_MATCH, CheckCodes.PROOF_CSV_HASH_MISMATCH);
        signature("proofJson", g.json, g.jsonSig);
        signature("proofCsv", g.csv, g.csvSig);
        if (g.j3m != null || g.j3mSig != null) {
            signature("j3m", g.j3m, g.j3mSig);
        }
        mediaChecks(media, claimed);
        if (g.frames != null || g.framesSig != null) {
            framesChecks();
        }
        if (g.redaction != null || g.redactionSig != null) {
            signature("redaction", g.redaction, g.redactionSig, CheckCodes::redactionSignature);
            checks.addAll(new RedactionChecks(verifier, verifier.limits).run(g.id, claimed,
                    g.redaction == null ? Optional.empty() : Optional.of(read(g.redaction)),
                    media.map(m -> (RedactionChecks.Opener) m::open), original));
        } else if (original.isPresent()) {
            // Not a redacted copy: how its media relate to the original, from this proof's record.
            checks.addAll(compareWithOriginal(original.get(), claimed));
        }
        signerChecks();
        recordedSignerCheck(jsonRecords, csvRecords);
        timestampChecks(claimed);

        ProofRecord latest = latest(jsonRecords, csvRecords);
        Map<String, String> times = new LinkedHashMap<>();
        for (String f : Verifier.TIME_FIELDS) {
            latest.get(f).flatMap(ProofTimes::parse).ifPresent(t -> times.put(f, ProofTimes.format(t)));
        }
        checks.addAll(ContextChecks.of(latest.fields()));
        boolean failed = checks.stream().anyMatch(c -> c.status() == Status.FAIL);
        Optional<Signer> signer = Optional.ofNullable(signerCert).map(c -> {
            var info = CertificateFacts.describe(c);
            return new Signer(info.fingerprint(), info.algorithm(), info.userId(), trustedFingerprints.contains(info.fingerprint()));
        });
        Verdict v = failed ? Verdict.INVALID : signer.map(s -> s.trusted() ? Verdict.TRUSTED : Verdict.VALID).orElse(Verdict.INVALID);
        return new ProofReport(g.id, claimed, media.map(Verifier.MediaSource::name), v, checks, signer, latest.fields(), times);
    }

    /**
     * A video's frame list and its signature: the list is read once, line by line into compact arrays while
     * its SHA-256 is taken, and the signature finished from that (a two-hour video's list is 17 MB, more
     * than a proof file may be in memory). A signature that cannot be finished that way is checked as the
     * others, from the list read whole.
     */
    private void framesChecks() {
        // The list is bounded by the media's size the record gives: never smaller than the prover writes.
        OptionalLong mediaBytes = FrameList.mediaBytes(latest(jsonRecords, csvRecords));
        Optional<SignatureChecker.Prehashed> prehashed = g.frames == null || g.framesSig == null ? Optional.empty()
                : checker.prehashed(read(g.framesSig));
        if (prehashed.isEmpty()) {
            // No list or no signature (each reported), or a signature that is not finished from a SHA-256.
            signature("frames", g.frames, g.framesSig);
            if (g.frames == null) {
                return;
            }
            frames = FrameList.read(read(g.frames), mediaBytes);
        } else {
            MessageDigest sha = Digests.newSha256();
            try (InputStream in = new DigestInputStream(g.frames.open(), sha)) {
                frames = FrameList.read(in, mediaBytes);
                if (!frames.tooLarge()) {
                    SignatureChecker.drain(in); // a list malformed part way is still signed whole
                }
            } catch (IOException e) {
                throw Verifier.unreadable(g.frames, e);
            }
            if (frames.tooLarge()) {
                checks.add(new Check(CheckCodes.signature("frames", CheckCodes.UNCHECKED), Status.WARN, g.framesSig.name(),
                        "the signed frame list is larger than " + FrameList.maxBytes(mediaBytes) + " bytes; not read to its end"));
            } else {
                record(g.framesSig, prehashed.get().check(sha), o -> CheckCodes.signature("frames", o));
            }
        }
        checks.add(FrameList.check(g.frames.name(), frames, latest(jsonRecords, csvRecords)));
    }

    /** The checks of {@code verify --original} for a proof that is not of a redacted copy: {@link MediaComparison}. */
    private List<Check> compareWithOriginal(RedactionOriginal orig, Optional<String> claimed) {
        MediaComparison.Side copy = MediaComparison.ofRecord(g.id, latest(jsonRecords, csvRecords).fields(), claimed,
                frames == null ? Optional.empty() : frames.frames(), Optional.empty());
        try {
            MediaComparison.Side original = MediaComparison.of(verifier, orig.path(), orig.path().toString(), new ArrayList<>());
            MediaComparison.Result r = MediaComparison.compare(original, copy);
            // Here a copy that is not the original's content fails the proof: close or uncomparable is not enough.
            // The frames of a proved excerpt are checked; its sound, which its record hashes whole, is noted only.
            return r.checks().stream().map(c -> c.code().equals(CheckCodes.COMPARE_AUDIO_UNCHECKED)
                    ? new Check(c.code(), Status.INFO, c.subject(), c.message())
                    : c.status() == Status.WARN && r.relation().status() != Status.PASS
                            ? new Check(c.code(), Status.FAIL, c.subject(), c.message()) : c).toList();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, orig.path() + ": cannot read: " + IoErrors.describe(e), e);
        }
    }

    private byte[] read(BundleEntry e) {
        return contents.computeIfAbsent(e, verifier::read);
    }

    /** The record the report shows: the last JSON record, else the last CSV one, else an empty one. */
    private static ProofRecord latest(List<ProofRecord> json, List<ProofRecord> csv) {
        return !json.isEmpty() ? json.get(json.size() - 1) : !csv.isEmpty() ? csv.get(csv.size() - 1) : ProofRecord.builder().build();
    }

    private Optional<String> firstHash(List<ProofRecord> records) {
        return records.stream().map(ProofRecord::mediaHash).flatMap(Optional::stream)
                .map(h -> h.toLowerCase(Locale.ROOT)).findFirst();
    }

    private void hashChecks(BundleEntry file, List<ProofRecord> records, Optional<String> claimed, String ok, String bad) {
        if (file == null || records.isEmpty()) {
            return;
        }
        for (int i = 0; i < records.size(); i++) {
            Optional<String> h = records.get(i).mediaHash().map(s -> s.toLowerCase(Locale.ROOT));
            if (h.isEmpty() || claimed.isEmpty() || !h.equals(claimed)) {
                checks.add(new Check(bad, Status.FAIL, file.name(), "record " + (i + 1) + " names media hash "
                        + h.orElse("(none)") + ", but the proof is for " + claimed.orElse("(unknown)")));
                return;
            }
        }
        checks.add(new Check(ok, Status.PASS, file.name(), records.size() == 1
                ? "names media hash " + claimed.get() : "all " + records.size() + " records name media hash " + claimed.get()));
    }

    private void signature(String subject, BundleEntry file, BundleEntry sig) {
        signature(subject, file, sig, outcome -> CheckCodes.signature(subject, outcome));
    }

    private void signature(String subject, BundleEntry file, BundleEntry sig, UnaryOperator<String> code) {
        if (file == null) {
            if (sig != null) {
                checks.add(new Check(code.apply(CheckCodes.UNCHECKED), Status.WARN, sig.name(),
                        "the signed file is missing"));
            }
            return;
        }
        if (sig == null) {
            checks.add(new Check(code.apply(CheckCodes.MISSING), Status.FAIL, file.name() + ".asc",
                    "no signature over " + file.name()));
            return;
        }
        try {
            byte[] sigBytes = read(sig);
            Optional<SignatureChecker.Prehashed> prehashed = checker.prehashed(sigBytes);
            if (prehashed.isPresent()) {
                // As for the media: the document's SHA-256, then the signature finished from it.
                MessageDigest sha = Digests.newSha256();
                sha.update(read(file));
                record(sig, prehashed.get().check(sha), code);
            } else {
                record(sig, checker.check(sigBytes, new ByteArrayInputStream(read(file))), code);
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file.name() + ": " + e.getMessage(), e);
        }
    }

    private void mediaChecks(Optional<Verifier.MediaSource> media, Optional<String> claimed) {
        if (media.isEmpty()) {
            checks.add(new Check(CheckCodes.MEDIA_MISSING, Status.WARN, g.id,
                    "the media file is not in the bundle; its hash and signature were not checked"));
            if (g.mediaSig != null) {
                checks.add(new Check(CheckCodes.signature("media", CheckCodes.UNCHECKED), Status.WARN, g.mediaSig.name(),
                        "the media file is not in the bundle"));
            }
            return;
        }
        Verifier.MediaSource m = media.get();
        String actual;
        try {
            Optional<byte[]> sigBytes = g.mediaSig == null ? Optional.empty() : Optional.of(read(g.mediaSig));
            Optional<SignatureChecker.Prehashed> prehashed = sigBytes.flatMap(checker::prehashed);
            if (g.mediaSig == null || prehashed.isPresent()) {
                // One read of the media, by the platform's SHA-256: its hash, and the signature finished from the same state.
                Prehash hashed = m.hash();
                actual = hashed.sha256();
                if (prehashed.isEmpty()) {
                    checks.add(new Check(CheckCodes.signature("media", CheckCodes.MISSING), Status.FAIL, g.id + ".asc",
                            "no signature over the media"));
                } else {
                    record(g.mediaSig, prehashed.get().check(hashed.copy()), o -> CheckCodes.signature("media", o));
                }
            } else {
                MessageDigest sha = Digests.newSha256();
                try (InputStream raw = m.open(); InputStream in = new DigestInputStream(raw, sha)) {
                    record(g.mediaSig, checker.check(sigBytes.get(), in), o -> CheckCodes.signature("media", o));
                }
                actual = Hex.encode(sha.digest());
            }
        } catch (LimitExceededException e) {
            throw new ProofModeException(Failure.BAD_DATA, e.getMessage(), e);
        } catch (IOException e) {
            throw new ProofModeException(m.file().isPresent() ? Failure.IO : Failure.BAD_DATA,
                    m.name() + ": cannot be read (" + e.getMessage() + ")", e);
        }
        if (claimed.isPresent() && claimed.get().equals(actual)) {
            checks.add(new Check(CheckCodes.MEDIA_HASH_MATCH, Status.PASS, m.name(), "SHA-256 " + actual + " matches the proof"));
        } else {
            checks.add(new Check(CheckCodes.MEDIA_HASH_MISMATCH, Status.FAIL, m.name(), "SHA-256 is " + actual
                    + ", but the proof is for " + claimed.orElse("(no hash recorded)") + ": the media was changed"));
        }
    }

    private void record(BundleEntry sig, SignatureChecker.Outcome o, UnaryOperator<String> code) {
        String outcome = switch (o.kind()) {
            case VALID -> CheckCodes.VALID;
            case INVALID -> CheckCodes.INVALID;
            case MALFORMED -> CheckCodes.MALFORMED;
            case UNVERIFIABLE -> CheckCodes.UNVERIFIABLE;
            case KEY_EXPIRED -> CheckCodes.KEY_EXPIRED;
            case KEY_REVOKED -> CheckCodes.KEY_REVOKED;
        };
        checks.add(new Check(code.apply(outcome),
                o.kind() == SignatureChecker.Kind.VALID ? Status.PASS : Status.FAIL, sig.name(), o.message()));
        if (o.kind() == SignatureChecker.Kind.VALID) {
            PGPPublicKeyRing c = o.signer().orElseThrow();
            signers.add(OpenPgpKeys.fingerprint(c.getPublicKey()));
            if (signerCert == null) {
                signerCert = c;
            }
        }
    }

    /** Our records name their signer; a proof re-signed by another key no longer matches. */
    private void recordedSignerCheck(List<ProofRecord> json, List<ProofRecord> csv) {
        if (signerCert == null) {
            return;
        }
        String actual = OpenPgpKeys.fingerprint(signerCert.getPublicKey());
        for (ProofRecord r : Stream.concat(json.stream(), csv.stream()).toList()) {
            Optional<String> named = r.get(ProofFields.PROOF_SIGNER).filter(v -> !v.isBlank());
            if (named.isPresent() && !named.get().equalsIgnoreCase(actual)) {
                checks.add(new Check(CheckCodes.PROOF_SIGNER_MISMATCH, Status.FAIL, g.id, "the record names signer "
                        + named.get() + ", but the proof was signed by " + actual));
                return;
            }
        }
        if (Stream.concat(json.stream(), csv.stream()).anyMatch(r -> r.get(ProofFields.PROOF_SIGNER).isPresent())) {
            checks.add(new Check(CheckCodes.PROOF_SIGNER_MATCH, Status.PASS, g.id, "the record names the key that signed it"));
        }
    }

    private void timestampChecks(Optional<String> claimed) {
        Optional<Map.Entry<String, byte[]>> sig = g.mediaSig == null ? Optional.empty()
                : Optional.of(Map.entry(g.mediaSig.name(), read(g.mediaSig)));
        for (BundleEntry e : g.extras) {
            if (e.fileName().endsWith(".tsr")) {
                checks.add(verifier.timestamps.rfc3161(e.name(), read(e), sig, claimed));
            } else if (e.fileName().endsWith(".ots")) {
                checks.addAll(verifier.timestamps.ots(e.name(), read(e), sig, claimed));
            } else if (e.fileName().endsWith(ProofFiles.TLOG)) {
                checks.add(TlogChecks.receipt(e.name(), read(e), claimed, signers.size() == 1 && signerCert != null
                        ? Optional.of(OpenPgpKeys.fingerprint(signerCert.getPublicKey())) : Optional.empty(), verifier.logKeys,
                        verifier.requiredWitnesses));
            } else if (e.fileName().endsWith(".gst")) {
                checks.addAll(verifier.integrity.safetyNet(e.name(), read(e), claimed));
            } else if (e.fileName().endsWith(Verifier.KEY_ATTESTATION)) {
                checks.addAll(verifier.integrity.keyAttestation(e.name(), read(e), claimed));
            }
        }
        if (verifier.requiredWitnesses > 0 && g.extras.stream().noneMatch(e -> e.fileName().endsWith(ProofFiles.TLOG))) {
            checks.add(TlogChecks.noReceipt(g.id, verifier.requiredWitnesses));
        }
    }

    private void signerChecks() {
        if (signers.size() > 1) {
            checks.add(new Check(CheckCodes.SIGNER_INCONSISTENT, Status.FAIL, g.id,
                    "files of this proof were signed by different keys: " + String.join(", ", signers)));
            return;
        }
        if (signerCert == null) {
            return;
        }
        String fp = OpenPgpKeys.fingerprint(signerCert.getPublicKey());
        if (trustedFingerprints.contains(fp)) {
            checks.add(new Check(CheckCodes.SIGNER_TRUSTED, Status.PASS, fp, "signed by a trusted key"));
        } else {
            checks.add(new Check(CheckCodes.SIGNER_UNTRUSTED, Status.WARN, fp,
                    "signed by " + fp + ", which is not a trusted key: compare it with the fingerprint the sender gave you"));
        }
    }
}
