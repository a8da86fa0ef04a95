// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.LimitExceededException;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.c2pa.AssetFormat;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.proof.ProofFields;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;
import org.proofmode.tlog.NoteKey;

/**
 * Verifies proof bundles: every check it can run, as data. A failed check never throws; an exception
 * means the bundle could not be read at all.
 *
 * <p>Security: signatures are checked against the bundle's {@code pubkey.asc} and the trusted keys; a
 * proof is {@link Verdict#TRUSTED} only when its signer is a trusted key. A bundle's own key proves only
 * that the files belong together, not who made them.
 */
public final class Verifier {
    static final List<String> TIME_FIELDS = List.of(
            ProofFields.PROOF_GENERATED, ProofFields.FILE_CREATED, ProofFields.FILE_MODIFIED, ProofFields.LOCATION_TIME,
            "CurrentDateTime0GMT", "Modified");
    /** Suffix of an Android key attestation beside a proof: the attested key's certificate chain, PEM, leaf first. */
    public static final String KEY_ATTESTATION = ".attest.pem";
    private static final List<String> TIMESTAMP_SUFFIXES = List.of(".tsr", ".ots", ProofFiles.TLOG, ".gst", KEY_ATTESTATION);

    private final List<PGPPublicKeyRing> trusted;
    final BundleLimits limits;
    final TimestampChecks timestamps;
    private final C2paChecks c2pa;
    final List<NoteKey> logKeys;
    /** Valid cosignatures by trusted witnesses a receipt's checkpoint must carry ({@link #withRequiredWitnesses}). */
    final int requiredWitnesses;
    /** The checks of the app's device-integrity files ({@code .gst}, {@code .attest.pem}). */
    final DeviceIntegrityChecks integrity;
    /** The bundles' key files read so far (one device's folder holds the same one in every bundle). */
    private final BundleKeyCache bundleKeys = new BundleKeyCache();

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
     * the media: of every media file with content credentials in the bundle (see {@link AssetFormat}), and of the media file given beside it.
     *
     * @param trusted the keys whose signatures make a proof {@link Verdict#TRUSTED}
     * @param limits bounds on hostile bundles
     * @param tsaRoots root certificates of trusted time-stamp authorities
     * @param c2pa the content-credential checks, with their trust anchors; a signer that chains to none
     *     is reported {@code c2pa.signingCredential.untrusted}
     */
    public Verifier(List<PGPPublicKeyRing> trusted, BundleLimits limits, List<X509Certificate> tsaRoots, C2paChecks c2pa) {
        this(trusted, limits, new TimestampChecks(tsaRoots), c2pa, List.of(), 0, DeviceIntegrityChecks.systemDefault());
    }

    private Verifier(List<PGPPublicKeyRing> trusted, BundleLimits limits, TimestampChecks timestamps, C2paChecks c2pa,
            List<NoteKey> logKeys, int requiredWitnesses, DeviceIntegrityChecks integrity) {
        this.trusted = List.copyOf(trusted);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.timestamps = timestamps;
        this.c2pa = Objects.requireNonNull(c2pa, "c2pa");
        this.logKeys = List.copyOf(logKeys);
        if (requiredWitnesses < 0) {
            throw new IllegalArgumentException("a negative number of witnesses");
        }
        this.requiredWitnesses = requiredWitnesses;
        this.integrity = Objects.requireNonNull(integrity, "integrity");
    }

    /**
     * A copy that also checks transparency-log receipts ({@code <h>.tlog}) against these log keys; a
     * receipt signed by none of them is reported {@code tlog.inclusion.untrusted}.
     */
    public Verifier withLogKeys(List<NoteKey> keys) {
        return new Verifier(trusted, limits, timestamps, c2pa, keys, requiredWitnesses, integrity);
    }

    /**
     * A copy that requires every proof to carry a receipt whose checkpoint is cosigned validly by at least
     * {@code n} witnesses whose cosignature keys are among the log keys ({@link #withLogKeys}); a proof
     * without one is reported {@code tlog.witnesses.insufficient} and is INVALID. Zero requires nothing.
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public Verifier withRequiredWitnesses(int n) {
        return new Verifier(trusted, limits, timestamps, c2pa, logKeys, n, integrity);
    }

    /**
     * A copy that checks the app's device-integrity files ({@code .gst}, {@code .attest.pem}) with these roots and
     * accepted apps; by default the system's trust store, Google's key attestation roots and the ProofMode app
     * ({@link DeviceIntegrityChecks#systemDefault}).
     */
    public Verifier withDeviceIntegrity(DeviceIntegrityChecks checks) {
        return new Verifier(trusted, limits, timestamps, c2pa, logKeys, requiredWitnesses, checks);
    }

    /** The log and witness keys it trusts ({@link #withLogKeys}). */
    public List<NoteKey> logKeys() {
        return logKeys;
    }

    /** The content-credential checks this verifier runs on media, for a media file checked on its own. */
    public C2paChecks c2paChecks() {
        return c2pa;
    }

    /**
     * Verifies a collection folder made by {@code proofmode collect}: its record's signature and
     * time-stamps, the WARC against the record (payload digests), the media and the TLS chain; and, when
     * {@code media/} holds the proofs of the media (as {@code collect.CollectionArchive} lays them out), those
     * proofs, each with its own verdict, the collection's being the worst of all.
     *
     * @param folder the collection folder (holding {@code collection.json})
     * @throws ProofModeException with {@link Failure#IO} if a file cannot be read
     */
    public VerificationReport verifyCollection(Path folder) {
        VerificationReport collection = new CollectionChecks(trusted, timestamps).verify(folder);
        // The proofs of its media, when they were sent beside them (a published collection), checked as any proof.
        Optional<Bundle> media = CollectionChecks.mediaProofs(folder, limits);
        return media.isEmpty() ? collection : CollectionChecks.withMedia(collection, verify(media.get(), Optional.empty()));
    }

    /** Tells whether a folder is a collection made by {@code proofmode collect}. */
    public static boolean isCollection(Path folder) {
        return CollectionChecks.isCollection(folder);
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
     * @param mediaHash the media's SHA-256 state after one read of it ({@link StreamSigner#digest}), asked for
     *     only once the proof's other signatures were checked: a caller that reads the media on a thread of
     *     its own has those checks run meanwhile
     * @param original the original of a redacted copy, with its proof when there is one
     * @throws ProofModeException as {@link #verify(Path, Optional)}
     */
    public VerificationReport verify(Path path, Path media, MediaHash mediaHash, Optional<RedactionOriginal> original) {
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

    private VerificationReport verify(Bundle bundle, Optional<Path> media, Optional<MediaHash> mediaHash,
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
            ProofCheck pc = new ProofCheck(this, g, checker, trustedFingerprints, groups.size() == 1 ? original : Optional.empty());
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
                out.addAll(bundleKeys.read(read(e), e.name()));
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

    byte[] read(BundleEntry e) {
        try {
            return e.readSmall(limits.maxSmallFileBytes());
        } catch (IOException ex) {
            throw unreadable(e, ex);
        }
    }

    /** A bundle entry that could not be read, or inflates beyond its bound: bad data, named. */
    static ProofModeException unreadable(BundleEntry e, IOException ex) {
        return ex instanceof LimitExceededException ? new ProofModeException(Failure.BAD_DATA, ex.getMessage(), ex)
                : new ProofModeException(Failure.BAD_DATA, e.name() + ": cannot be read (" + ex.getMessage() + ")", ex);
    }

    /**
     * Where the media comes from: an entry of the bundle or a file beside it, possibly hashed already by
     * the caller (who looked its proof up by that hash).
     */
    /** The media's SHA-256 state, from a read that may still be under way. */
    @FunctionalInterface
    public interface MediaHash {
        /** Waits for the read to end; throws what it failed with. */
        Prehash get() throws IOException;
    }

    record MediaSource(String name, Optional<BundleEntry> entry, Optional<Path> file, Optional<MediaHash> hashed) {
        static MediaSource of(BundleEntry e) {
            return new MediaSource(e.name(), Optional.of(e), Optional.empty(), Optional.empty());
        }

        static MediaSource of(Path p, Optional<MediaHash> hashed) {
            return new MediaSource(p.toString(), Optional.empty(), Optional.of(p), hashed);
        }

        InputStream open() throws IOException {
            return entry.isPresent() ? entry.get().open() : Files.newInputStream(file.get());
        }

        /** The media's SHA-256 state from one read (none when the caller hashed it already). */
        Prehash hash() throws IOException {
            if (hashed.isPresent()) {
                return hashed.get().get();
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
}
