// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.Failure;
import org.proofmode.ProofModeException;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.LimitExceededException;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.internal.Hex;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofCsv;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;

/**
 * Verifies proof bundles: every check it can run, as data. A failed check never throws; an exception
 * means the bundle could not be read at all.
 *
 * <p>Security: signatures are checked against the bundle's {@code pubkey.asc} and the trusted keys; a
 * proof is {@link Verdict#TRUSTED} only when its signer is a trusted key. A bundle's own key proves only
 * that the files belong together, not who made them.
 */
public final class Verifier {
    private static final List<String> TIME_FIELDS = List.of(
            ProofFields.PROOF_GENERATED, ProofFields.FILE_CREATED, ProofFields.FILE_MODIFIED, ProofFields.LOCATION_TIME,
            "CurrentDateTime0GMT", "Modified");
    private static final List<String> TIMESTAMP_SUFFIXES = List.of(".tsr", ".ots");

    private final List<PGPPublicKeyRing> trusted;
    private final BundleLimits limits;
    private final TimestampChecks timestamps;
    private final C2paChecks c2pa;

    /**
     * Creates a verifier.
     *
     * @param trusted the keys whose signatures make a proof {@link Verdict#TRUSTED}
     * @param limits bounds on hostile bundles
     */
    public Verifier(List<PGPPublicKeyRing> trusted, BundleLimits limits) {
        this(trusted, limits, List.of());
    }

    /**
     * Creates a verifier that also anchors RFC 3161 tokens.
     *
     * @param trusted the keys whose signatures make a proof {@link Verdict#TRUSTED}
     * @param limits bounds on hostile bundles
     * @param tsaRoots root certificates of trusted time-stamp authorities; a token whose chain ends
     *     elsewhere is reported {@code timestamp.rfc3161.untrusted}
     */
    public Verifier(List<PGPPublicKeyRing> trusted, BundleLimits limits, List<X509Certificate> tsaRoots) {
        this(trusted, limits, tsaRoots, new C2paChecks(new C2paReader(List.of(), tsaRoots)));
    }

    /**
     * Creates a verifier that also anchors RFC 3161 tokens and checks the content credentials (C2PA) of
     * the media: of every media file with content credentials in the bundle (see {@link org.proofmode.c2pa.AssetFormat}), and of the media file given beside it.
     *
     * @param trusted the keys whose signatures make a proof {@link Verdict#TRUSTED}
     * @param limits bounds on hostile bundles
     * @param tsaRoots root certificates of trusted time-stamp authorities
     * @param c2pa the content-credential checks, with their trust anchors; a signer that chains to none
     *     is reported {@code c2pa.signingCredential.untrusted}
     */
    public Verifier(List<PGPPublicKeyRing> trusted, BundleLimits limits, List<X509Certificate> tsaRoots, C2paChecks c2pa) {
        this.trusted = List.copyOf(trusted);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.timestamps = new TimestampChecks(tsaRoots);
        this.c2pa = Objects.requireNonNull(c2pa, "c2pa");
    }

    /**
     * Verifies a share zip or a proof folder.
     *
     * @param path the bundle
     * @param media the media file, when it is not inside the bundle (a proof folder from the store)
     * @throws ProofModeException with {@link Failure#INPUT_MISSING}, {@link Failure#BAD_DATA} (corrupt or
     *     hostile archive) or {@link Failure#IO}
     */
    public VerificationReport verify(Path path, Optional<Path> media) {
        return verify(path, media, Optional.empty());
    }

    /**
     * Verifies a share zip or a proof folder, and when its proof is of a redacted copy and the original is
     * given, compares the copy with the original and verifies the original's proof too.
     *
     * @param path the bundle
     * @param media the media file, when it is not inside the bundle
     * @param original the original of a redacted copy, with its proof when there is one
     * @throws ProofModeException as {@link #verify(Path, Optional)}
     */
    public VerificationReport verify(Path path, Optional<Path> media, Optional<RedactionOriginal> original) {
        try (Bundle bundle = Bundle.open(path, limits)) {
            return verify(bundle, media, original);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, path + ": " + e.getMessage(), e);
        }
    }

    /** Verifies an opened bundle; see {@link #verify(Path, Optional)}. */
    public VerificationReport verify(Bundle bundle, Optional<Path> media) {
        return verify(bundle, media, Optional.empty());
    }

    /**
     * Verifies a proof folder or bundle against a media file the caller has hashed already (to find its
     * proof by that hash): the media is not read again for its hash or, when its signature allows (v4,
     * SHA-256, a supported key), for its signature.
     *
     * @param path the bundle or proof folder
     * @param media the media file
     * @param mediaHash the media's SHA-256 state after one read of it ({@link StreamSigner#digest})
     * @param original the original of a redacted copy, with its proof when there is one
     * @throws ProofModeException as {@link #verify(Path, Optional)}
     */
    public VerificationReport verify(Path path, Path media, Prehash mediaHash, Optional<RedactionOriginal> original) {
        Objects.requireNonNull(mediaHash, "mediaHash");
        try (Bundle bundle = Bundle.open(path, limits)) {
            return verify(bundle, Optional.of(media), Optional.of(mediaHash), original);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, path + ": " + e.getMessage(), e);
        }
    }

    /** Verifies an opened bundle; see {@link #verify(Path, Optional, Optional)}. */
    public VerificationReport verify(Bundle bundle, Optional<Path> media, Optional<RedactionOriginal> original) {
        return verify(bundle, media, Optional.empty(), original);
    }

    private VerificationReport verify(Bundle bundle, Optional<Path> media, Optional<Prehash> mediaHash,
            Optional<RedactionOriginal> original) {
        BundleLayout layout = BundleLayout.of(bundle.entries());
        List<Check> checks = new ArrayList<>();
        List<PGPPublicKeyRing> bundleKeys = readBundleKeys(layout, checks);
        // A trusted key is judged by the verifier's copy merged with the bundle's: a revocation the
        // sender stripped from pubkey.asc still counts.
        // SignerKeys gives each verification its own copy of the trusted keys (threads share this verifier).
        SignatureChecker checker = SignatureChecker.of(SignerKeys.of(bundleKeys, trusted));
        Set<String> trustedFingerprints = new HashSet<>();
        trusted.forEach(c -> trustedFingerprints.add(OpenPgpKeys.fingerprint(c.getPublicKey())));

        List<ProofReport> proofs = new ArrayList<>();
        Set<BundleEntry> claimed = new HashSet<>();
        List<BundleLayout.Group> groups = new ArrayList<>(layout.groups.values());
        for (BundleLayout.Group g : groups) {
            ProofCheck pc = new ProofCheck(g, checker, trustedFingerprints, groups.size() == 1 ? original : Optional.empty());
            Optional<MediaSource> m = media.isPresent() && groups.size() == 1
                    ? Optional.of(MediaSource.of(media.get(), mediaHash))
                    : pc.findMedia(layout.candidates, claimed, groups.size() == 1).map(MediaSource::of);
            m.flatMap(MediaSource::entry).ifPresent(claimed::add);
            proofs.add(pc.run(m));
        }
        if (original.isPresent() && groups.size() > 1) {
            checks.add(new Check(CheckCodes.REDACTION_ORIGINAL_UNCHECKED, Status.FAIL, bundle.source(),
                    "an original was given, but the bundle holds " + groups.size() + " proofs: verify the redacted copy alone"));
        }
        if (groups.isEmpty()) {
            checks.add(new Check(CheckCodes.BUNDLE_PROOF_MISSING, Status.FAIL, bundle.source(),
                    "no proof record (.proof.json or .proof.csv) was found"));
        }
        for (BundleLayout.Group g : groups) {
            for (BundleEntry e : g.extras) {
                if (TIMESTAMP_SUFFIXES.stream().anyMatch(e.fileName()::endsWith)) {
                    continue;
                }
                checks.add(new Check(CheckCodes.BUNDLE_FILE_UNCHECKED, Status.INFO, e.name(),
                        "present; this version does not check this kind of file"));
            }
        }
        checks.addAll(EntryAccounting.of(layout, claimed));
        Verdict verdict = checks.stream().anyMatch(c -> c.status() == Status.FAIL) ? Verdict.INVALID : Verdict.TRUSTED;
        for (ProofReport p : proofs) {
            verdict = verdict.and(p.verdict());
        }
        VerificationReport report = new VerificationReport(bundle.source(), verdict, checks, proofs);
        for (BundleEntry e : layout.candidates) {
            report = c2pa.addTo(report, e);
        }
        return media.isPresent() ? c2pa.addTo(report, media.get()) : report;
    }

    private List<PGPPublicKeyRing> readBundleKeys(BundleLayout layout, List<Check> checks) {
        List<PGPPublicKeyRing> out = new ArrayList<>();
        if (layout.pubkeys.isEmpty()) {
            checks.add(new Check(CheckCodes.BUNDLE_PUBKEY_MISSING, trusted.isEmpty() ? Status.WARN : Status.INFO,
                    "pubkey.asc", trusted.isEmpty()
                            ? "no public key in the bundle and no trusted key given (--trust KEY.asc)"
                            : "no public key in the bundle; checking against the trusted keys"));
            return out;
        }
        for (BundleEntry e : layout.pubkeys) {
            try {
                out.addAll(OpenPgpKeys.readCertificates(read(e), e.name()));
                checks.add(new Check(CheckCodes.BUNDLE_PUBKEY_PRESENT, Status.PASS, e.name(),
                        "public key " + OpenPgpKeys.fingerprint(out.get(out.size() - 1).getPublicKey())));
            } catch (ProofModeException ex) {
                if (ex.failure() != Failure.BAD_DATA) {
                    throw ex;
                }
                checks.add(new Check(CheckCodes.BUNDLE_PUBKEY_MALFORMED, Status.FAIL, e.name(), ex.getMessage()));
            }
        }
        return out;
    }

    private byte[] read(BundleEntry e) {
        try {
            return e.readSmall(limits.maxSmallFileBytes());
        } catch (LimitExceededException ex) {
            throw new ProofModeException(Failure.BAD_DATA, ex.getMessage(), ex);
        } catch (IOException ex) {
            throw new ProofModeException(Failure.BAD_DATA, e.name() + ": cannot be read (" + ex.getMessage() + ")", ex);
        }
    }

    /**
     * Where the media comes from: an entry of the bundle or a file beside it, possibly hashed already by
     * the caller (who looked its proof up by that hash).
     */
    private record MediaSource(String name, Optional<BundleEntry> entry, Optional<Path> file, Optional<Prehash> hashed) {
        static MediaSource of(BundleEntry e) {
            return new MediaSource(e.name(), Optional.of(e), Optional.empty(), Optional.empty());
        }

        static MediaSource of(Path p, Optional<Prehash> hashed) {
            return new MediaSource(p.toString(), Optional.empty(), Optional.of(p), hashed);
        }

        InputStream open() throws IOException {
            return entry.isPresent() ? entry.get().open() : Files.newInputStream(file.get());
        }

        /** The media's SHA-256 state from one read (none when the caller hashed it already). */
        Prehash hash() throws IOException {
            if (hashed.isPresent()) {
                return hashed.get();
            }
            if (file.isPresent()) {
                try (FileChannel ch = FileChannel.open(file.get(), StandardOpenOption.READ)) {
                    return StreamSigner.digest(ch, StreamSigner.Progress.NONE);
                }
            }
            try (InputStream in = open()) {
                return StreamSigner.digest(in, StreamSigner.Progress.NONE);
            }
        }
    }

    /** The checks of one proof. */
    private final class ProofCheck {
        private final BundleLayout.Group g;
        private final SignatureChecker checker;
        private final Set<String> trustedFingerprints;
        private final List<Check> checks = new ArrayList<>();
        private final Set<String> signers = new HashSet<>();
        private final List<ProofRecord> jsonRecords;
        private final List<ProofRecord> csvRecords;
        private PGPPublicKeyRing signerCert;
        private final Optional<RedactionOriginal> original;

        ProofCheck(BundleLayout.Group g, SignatureChecker checker, Set<String> trustedFingerprints, Optional<RedactionOriginal> original) {
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
            Optional<String> hint = java.util.stream.Stream.concat(jsonRecords.stream(), csvRecords.stream()).map(r -> r.first(ProofFields.PATH_ALIASES)).flatMap(Optional::stream)
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

        ProofReport run(Optional<MediaSource> media) {
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
            if (g.redaction != null || g.redactionSig != null || original.isPresent()) {
                signature("redaction", g.redaction, g.redactionSig, CheckCodes::redactionSignature);
                checks.addAll(new RedactionChecks(Verifier.this, limits).run(g.id, claimed,
                        g.redaction == null ? Optional.empty() : Optional.of(read(g.redaction)),
                        media.map(m -> (RedactionChecks.Opener) m::open), original));
            }
            signerChecks();
            recordedSignerCheck(jsonRecords, csvRecords);
            timestampChecks(claimed);

            ProofRecord latest = !jsonRecords.isEmpty() ? jsonRecords.get(jsonRecords.size() - 1)
                    : !csvRecords.isEmpty() ? csvRecords.get(csvRecords.size() - 1) : ProofRecord.builder().build();
            Map<String, String> times = new LinkedHashMap<>();
            for (String f : TIME_FIELDS) {
                latest.get(f).flatMap(ProofTimes::parse).ifPresent(t -> times.put(f, ProofTimes.format(t)));
            }
            checks.addAll(ContextChecks.of(latest.fields()));
            boolean failed = checks.stream().anyMatch(c -> c.status() == Status.FAIL);
            Optional<Signer> signer = Optional.ofNullable(signerCert).map(c -> {
                var info = OpenPgpKeys.describe(c);
                return new Signer(info.fingerprint(), info.algorithm(), info.userId(), trustedFingerprints.contains(info.fingerprint()));
            });
            Verdict v = failed ? Verdict.INVALID : signer.map(s -> s.trusted() ? Verdict.TRUSTED : Verdict.VALID).orElse(Verdict.INVALID);
            return new ProofReport(g.id, claimed, media.map(MediaSource::name), v, checks, signer, latest.fields(), times);
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

        private void signature(String subject, BundleEntry file, BundleEntry sig, java.util.function.UnaryOperator<String> code) {
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
                record(sig, checker.check(read(sig), new ByteArrayInputStream(read(file))), code);
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, file.name() + ": " + e.getMessage(), e);
            }
        }

        private void mediaChecks(Optional<MediaSource> media, Optional<String> claimed) {
            if (media.isEmpty()) {
                checks.add(new Check(CheckCodes.MEDIA_MISSING, Status.WARN, g.id,
                        "the media file is not in the bundle; its hash and signature were not checked"));
                if (g.mediaSig != null) {
                    checks.add(new Check(CheckCodes.signature("media", CheckCodes.UNCHECKED), Status.WARN, g.mediaSig.name(),
                            "the media file is not in the bundle"));
                }
                return;
            }
            MediaSource m = media.get();
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

        private void record(BundleEntry sig, SignatureChecker.Outcome o, java.util.function.UnaryOperator<String> code) {
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
            for (ProofRecord r : java.util.stream.Stream.concat(json.stream(), csv.stream()).toList()) {
                Optional<String> named = r.get(ProofFields.PROOF_SIGNER).filter(v -> !v.isBlank());
                if (named.isPresent() && !named.get().equalsIgnoreCase(actual)) {
                    checks.add(new Check(CheckCodes.PROOF_SIGNER_MISMATCH, Status.FAIL, g.id, "the record names signer "
                            + named.get() + ", but the proof was signed by " + actual));
                    return;
                }
            }
            if (java.util.stream.Stream.concat(json.stream(), csv.stream()).anyMatch(r -> r.get(ProofFields.PROOF_SIGNER).isPresent())) {
                checks.add(new Check(CheckCodes.PROOF_SIGNER_MATCH, Status.PASS, g.id, "the record names the key that signed it"));
            }
        }

        private void timestampChecks(Optional<String> claimed) {
            Optional<Map.Entry<String, byte[]>> sig = g.mediaSig == null ? Optional.empty()
                    : Optional.of(Map.entry(g.mediaSig.name(), read(g.mediaSig)));
            for (BundleEntry e : g.extras) {
                if (e.fileName().endsWith(".tsr")) {
                    checks.add(timestamps.rfc3161(e.name(), read(e), sig, claimed));
                } else if (e.fileName().endsWith(".ots")) {
                    checks.addAll(timestamps.ots(e.name(), read(e), sig, claimed));
                }
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

}
