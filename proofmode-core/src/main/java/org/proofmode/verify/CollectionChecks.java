// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcTargetRecord;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.collect.CollectionRecord;
import org.proofmode.collect.Collector;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;

/**
 * The checks of a collection folder ({@code proofmode collect}): the record's signature, the WARC's
 * digest and signature, each WARC record's payload against the record, the extracted media, the kept TLS
 * chain, and the record's time-stamps. Results are data; only an unreadable folder throws.
 */
final class CollectionChecks {
    private static final int MAX_SMALL = 16 << 20;

    private final List<PGPPublicKeyRing> trusted;
    private final TimestampChecks timestamps;

    CollectionChecks(List<PGPPublicKeyRing> trusted, TimestampChecks timestamps) {
        this.trusted = trusted;
        this.timestamps = timestamps;
    }

    /** Whether a folder is a collection. */
    static boolean isCollection(Path folder) {
        return Files.isDirectory(folder) && Files.isRegularFile(folder.resolve(CollectionRecord.FILE));
    }

    VerificationReport verify(Path folder) {
        List<Check> checks = new ArrayList<>();
        String source = folder.toString();
        byte[] json = small(folder.resolve(CollectionRecord.FILE));
        String h = HexFormat.of().formatHex(Digests.newSha256().digest(json));
        CollectionRecord record;
        try {
            record = CollectionRecord.parse(json);
        } catch (ProofModeException e) {
            checks.add(new Check(CheckCodes.COLLECT_RECORD_MALFORMED, Status.FAIL, CollectionRecord.FILE, e.getMessage()));
            return new VerificationReport(source, Verdict.INVALID, checks, List.of());
        }
        checks.add(new Check(CheckCodes.COLLECT_CAPTURE, Status.INFO, CollectionRecord.FILE, record.finalUrl()
                + (record.title() == null ? "" : " (title \"" + record.title() + "\")") + " collected " + record.collected() + " by " + record.collector()
                + (record.tls() == null ? "" : ", TLS subject " + record.tls().subject())));
        List<PGPPublicKeyRing> included = new ArrayList<>();
        Path pub = folder.resolve(Collector.PUBKEY);
        if (Files.isRegularFile(pub)) {
            try {
                included.addAll(OpenPgpKeys.readCertificates(small(pub), Collector.PUBKEY));
            } catch (ProofModeException e) {
                checks.add(new Check(CheckCodes.BUNDLE_PUBKEY_MALFORMED, Status.FAIL, Collector.PUBKEY, e.getMessage()));
            }
        }
        SignatureChecker checker = SignatureChecker.of(SignerKeys.of(included, trusted));
        Set<String> trustedFingerprints = new HashSet<>();
        trusted.forEach(c -> trustedFingerprints.add(OpenPgpKeys.fingerprint(c.getPublicKey())));
        Path sig = folder.resolve(h + ".asc");
        boolean trustedSigner = false;
        if (!Files.isRegularFile(sig)) {
            checks.add(new Check(CheckCodes.COLLECT_RECORD_SIGNATURE_MISSING, Status.FAIL, h + ".asc",
                    "no signature of this collection record (changed since it was signed?)"));
        } else {
            SignatureChecker.Outcome o = check(checker, small(sig), new ByteArrayInputStream(json));
            trustedSigner = o.kind() == SignatureChecker.Kind.VALID
                    && o.signer().map(s -> trustedFingerprints.contains(OpenPgpKeys.fingerprint(s.getPublicKey()))).orElse(false);
            checks.add(new Check(o.kind() == SignatureChecker.Kind.VALID ? CheckCodes.COLLECT_RECORD_SIGNATURE_VALID
                    : o.kind() == SignatureChecker.Kind.UNVERIFIABLE ? CheckCodes.COLLECT_RECORD_SIGNATURE_MISSING
                    : CheckCodes.COLLECT_RECORD_SIGNATURE_INVALID, o.kind() == SignatureChecker.Kind.VALID ? Status.PASS : Status.FAIL,
                    h + ".asc", o.message()));
            byte[] asc = small(sig);
            Path tsr = folder.resolve(h + ".tsr");
            if (Files.isRegularFile(tsr)) {
                checks.add(timestamps.rfc3161(tsr.getFileName().toString(), small(tsr), Optional.of(Map.entry(h + ".asc", asc)), Optional.empty()));
            }
            Path ots = folder.resolve(h + ".ots");
            if (Files.isRegularFile(ots)) {
                checks.addAll(timestamps.ots(ots.getFileName().toString(), small(ots), Optional.of(Map.entry(h + ".asc", asc)), Optional.empty()));
            }
        }
        warc(folder, record, checker, checks);
        media(folder, record, checks);
        tls(folder, record, checks);
        Verdict verdict = checks.stream().anyMatch(c -> c.status() == Status.FAIL) ? Verdict.INVALID
                : trustedSigner ? Verdict.TRUSTED : Verdict.VALID;
        return new VerificationReport(source, verdict, checks, List.of());
    }

    private void warc(Path folder, CollectionRecord record, SignatureChecker checker, List<Check> checks) {
        Path warc = folder.resolve(CollectionRecord.WARC);
        String name = CollectionRecord.WARC;
        if (!Files.isRegularFile(warc)) {
            checks.add(new Check(CheckCodes.COLLECT_WARC_DIGEST_MISMATCH, Status.FAIL, name, "missing"));
            return;
        }
        String sha = sha256(warc);
        checks.add(sha.equals(record.warc().sha256())
                ? new Check(CheckCodes.COLLECT_WARC_DIGEST_MATCH, Status.PASS, name, "SHA-256 " + sha)
                : new Check(CheckCodes.COLLECT_WARC_DIGEST_MISMATCH, Status.FAIL, name, "SHA-256 " + sha + ", the record names " + record.warc().sha256()));
        Path sig = folder.resolve(Collector.WARC_SIGNATURE);
        if (!Files.isRegularFile(sig)) {
            checks.add(new Check(CheckCodes.COLLECT_WARC_SIGNATURE_INVALID, Status.FAIL, Collector.WARC_SIGNATURE, "missing"));
        } else {
            try (InputStream in = Files.newInputStream(warc)) {
                SignatureChecker.Outcome o = check(checker, small(sig), in);
                checks.add(new Check(o.kind() == SignatureChecker.Kind.VALID ? CheckCodes.COLLECT_WARC_SIGNATURE_VALID
                        : CheckCodes.COLLECT_WARC_SIGNATURE_INVALID, o.kind() == SignatureChecker.Kind.VALID ? Status.PASS : Status.FAIL,
                        Collector.WARC_SIGNATURE, o.message()));
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, warc + ": " + e.getMessage(), e);
            }
        }
        Map<String, CollectionRecord.Entry> listed = new HashMap<>();
        record.records().forEach(e -> listed.put(e.id(), e));
        List<String> problems = new ArrayList<>();
        int matched = 0;
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord r : reader) {
                String id = r.id().toString();
                CollectionRecord.Entry e = listed.remove(id);
                if (e == null) {
                    problems.add(r.type() + " record " + id + " is not in the collection record");
                    continue;
                }
                if (e.payloadSha256() == null || !(r instanceof WarcTargetRecord t)) {
                    matched++;
                    continue;
                }
                String got = t.payload().isPresent() ? sha256(t.payload().get().body().stream())
                        : HexFormat.of().formatHex(Digests.newSha256().digest(new byte[0]));
                if (got.equals(e.payloadSha256())) {
                    matched++;
                } else {
                    problems.add(e.type() + " of " + e.uri() + ": payload SHA-256 " + got + ", the record names " + e.payloadSha256());
                }
            }
        } catch (IOException | RuntimeException e) {
            checks.add(new Check(CheckCodes.COLLECT_WARC_MALFORMED, Status.FAIL, name, "cannot be read as a WARC ("
                    + String.valueOf(e.getMessage()) + ")"));
            return;
        }
        listed.values().forEach(e -> problems.add(e.type() + " record " + e.id() + " is missing from the WARC"));
        if (problems.isEmpty()) {
            checks.add(new Check(CheckCodes.COLLECT_WARC_RECORDS_MATCH, Status.PASS, name, matched + " records, each payload as recorded"));
        }
        problems.forEach(p -> checks.add(new Check(CheckCodes.COLLECT_WARC_RECORDS_MISMATCH, Status.FAIL, name, p)));
    }

    private static void media(Path folder, CollectionRecord record, List<Check> checks) {
        for (CollectionRecord.MediaEntry m : record.media()) {
            Path f = folder.resolve(m.file()).normalize();
            if (!f.startsWith(folder.normalize()) || !Files.isRegularFile(f)) {
                checks.add(new Check(CheckCodes.COLLECT_MEDIA_MISMATCH, Status.FAIL, m.file(), "missing"));
                continue;
            }
            String sha = sha256(f);
            checks.add(sha.equals(m.sha256())
                    ? new Check(CheckCodes.COLLECT_MEDIA_MATCH, Status.PASS, m.file(), "SHA-256 " + sha + ", from " + m.uri())
                    : new Check(CheckCodes.COLLECT_MEDIA_MISMATCH, Status.FAIL, m.file(), "SHA-256 " + sha + ", the record names " + m.sha256()));
        }
    }

    private static void tls(Path folder, CollectionRecord record, List<Check> checks) {
        if (record.tls() == null) {
            checks.add(new Check(CheckCodes.COLLECT_TLS_NONE, Status.INFO, CollectionRecord.FILE, "fetched over plain HTTP"));
            return;
        }
        Path pem = folder.resolve(CollectionRecord.CHAIN);
        List<X509Certificate> chain = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pem)) {
            CertificateFactory.getInstance("X.509").generateCertificates(in).forEach(c -> chain.add((X509Certificate) c));
        } catch (IOException | CertificateException e) {
            checks.add(new Check(CheckCodes.COLLECT_TLS_CHAIN_INVALID, Status.FAIL, CollectionRecord.CHAIN, "cannot be read: " + e.getMessage()));
            return;
        }
        if (chain.isEmpty()) {
            checks.add(new Check(CheckCodes.COLLECT_TLS_CHAIN_INVALID, Status.FAIL, CollectionRecord.CHAIN, "no certificate"));
            return;
        }
        try {
            String leaf = HexFormat.of().formatHex(Digests.newSha256().digest(chain.get(0).getEncoded()));
            if (!leaf.equals(record.tls().serverSha256()) || chain.size() != record.tls().certificates()) {
                checks.add(new Check(CheckCodes.COLLECT_TLS_CHAIN_INVALID, Status.FAIL, CollectionRecord.CHAIN,
                        "not the chain the record names (server certificate SHA-256 " + leaf + ")"));
                return;
            }
            for (int i = 0; i + 1 < chain.size(); i++) {
                chain.get(i).verify(chain.get(i + 1).getPublicKey());
            }
        } catch (java.security.GeneralSecurityException e) {
            checks.add(new Check(CheckCodes.COLLECT_TLS_CHAIN_INVALID, Status.FAIL, CollectionRecord.CHAIN,
                    "a certificate is not signed by the next one (" + e.getMessage() + ")"));
            return;
        }
        checks.add(new Check(CheckCodes.COLLECT_TLS_CHAIN_VALID, Status.PASS, CollectionRecord.CHAIN, chain.size()
                + " certificates; server " + chain.get(0).getSubjectX500Principal().getName() + ", issued by "
                + chain.get(0).getIssuerX500Principal().getName()));
    }

    /**
     * The proofs of the media kept beside them in {@code media/} (a published collection), as one bundle
     * with the collection's public key; empty when {@code media/} holds no proof record.
     */
    static Optional<Bundle> mediaProofs(Path folder, BundleLimits limits) {
        Path media = folder.resolve(CollectionRecord.MEDIA);
        Path pub = folder.resolve(Collector.PUBKEY);
        if (!Files.isDirectory(media) || !Files.isRegularFile(pub)) {
            return Optional.empty();
        }
        List<BundleEntry> entries = new ArrayList<>(Bundle.open(media, limits).entries());
        if (entries.stream().noneMatch(e -> e.name().endsWith(ProofFiles.JSON))) {
            return Optional.empty();
        }
        if (entries.stream().noneMatch(e -> e.name().equals(ProofFiles.PUBKEY))) {
            entries.add(new BundleEntry() {
                @Override
                public String name() {
                    return ProofFiles.PUBKEY;
                }

                @Override
                public long size() {
                    try {
                        return Files.size(pub);
                    } catch (IOException e) {
                        return -1;
                    }
                }

                @Override
                public InputStream open() throws IOException {
                    return Files.newInputStream(pub);
                }
            });
        }
        return Optional.of(Bundle.of(media.toString(), entries));
    }

    /** The collection's report with its media's proofs: their checks beside its own, the worst verdict of all. */
    static VerificationReport withMedia(VerificationReport collection, VerificationReport media) {
        List<Check> checks = new ArrayList<>(collection.checks());
        checks.addAll(media.checks());
        return new VerificationReport(collection.source(), collection.verdict().and(media.verdict()), checks, media.proofs());
    }

    private static SignatureChecker.Outcome check(SignatureChecker checker, byte[] sig, InputStream data) {
        try {
            return checker.check(sig, data);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read: " + e.getMessage(), e);
        }
    }

    private static byte[] small(Path file) {
        try {
            if (Files.size(file) > MAX_SMALL) {
                throw new ProofModeException(Failure.BAD_DATA, file + ": larger than " + MAX_SMALL + " bytes");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return sha256(in);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static String sha256(InputStream in) throws IOException {
        MessageDigest md = Digests.newSha256();
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) != -1; ) {
            md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
