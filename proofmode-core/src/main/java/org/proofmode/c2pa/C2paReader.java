// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Reads and validates the C2PA manifest store embedded in a JPEG, PNG or MP4: the claim signature, the
 * signing credential (profile, validity, trust), the time-stamp, every hashed URI of the claim, and
 * the hard binding. Every finding is a {@link C2paStatus}; nothing found is thrown.
 *
 * <p>Security: a signer is trusted only if its chain ends in one of the given anchors; without
 * anchors every manifest is at most {@link ValidationState#VALID}.
 */
public final class C2paReader {
    private final List<X509Certificate> anchors;
    private final List<X509Certificate> tsaRoots;

    /**
     * Creates a reader.
     *
     * @param anchors trust anchors for signing credentials
     * @param tsaRoots trusted roots of time-stamp authorities
     */
    public C2paReader(List<X509Certificate> anchors, List<X509Certificate> tsaRoots) {
        this.anchors = List.copyOf(anchors);
        this.tsaRoots = List.copyOf(tsaRoots);
    }

    /**
     * Reads a file.
     *
     * @return empty if the file is not a supported container or holds no manifest store
     * @throws IOException if the file cannot be read
     */
    public Optional<C2paReport> read(Path file) throws IOException {
        try (ByteSource src = ByteSource.of(Objects.requireNonNull(file, "file"))) {
            return read(src);
        }
    }

    /** Reads an asset held in memory; see {@link #read(Path)}. */
    public Optional<C2paReport> read(byte[] asset) {
        try (ByteSource src = ByteSource.of(asset)) {
            return read(src);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Opens a stream over an asset anew; for assets that cannot be read at an offset, such as the
     * entries of a zip.
     */
    @FunctionalInterface
    public interface Opener {
        /** Opens the asset's content from its first byte. */
        InputStream open() throws IOException;
    }

    /**
     * Reads an asset that can only be streamed: reads forward skip, a read behind the last one opens
     * the stream again. The stream should enforce its own bounds; this reader reads no more than
     * {@code size} bytes of it.
     *
     * @param size the asset's length in bytes
     * @param opener opens the asset from its start
     * @return see {@link #read(Path)}
     * @throws IOException if the stream fails or ends before {@code size} bytes
     */
    public Optional<C2paReport> read(long size, Opener opener) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("size < 0");
        }
        try (ByteSource src = ByteSource.of(Objects.requireNonNull(opener, "opener"), size)) {
            return read(src);
        }
    }

    private Optional<C2paReport> read(ByteSource src) throws IOException {
        long size = src.size();
        Optional<AssetFormat> format = AssetFormat.sniff(src.read(0, (int) Math.min(16, size)));
        if (format.isEmpty()) {
            return Optional.empty();
        }
        Optional<EmbeddedStore> found;
        ManifestStore store;
        try {
            found = EmbeddedStore.find(src);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            store = ManifestStore.parse(found.get().jumbf());
        } catch (C2paFormatException e) {
            C2paStatus s = new C2paStatus(Codes.CLAIM_MALFORMED, Outcome.FAILURE, e.getMessage(), "self#jumbf=/c2pa");
            return Optional.of(new C2paReport(ValidationState.INVALID, format.get(), "", "unknown", Optional.empty(),
                    Optional.empty(), List.of(), List.of(s), Optional.empty()));
        }
        return Optional.of(new Validation(store, src, format.get()).run());
    }

    /** One run over one store. */
    private final class Validation {
        private final ManifestStore store;
        private final Manifest m;
        private final ByteSource src;
        private final AssetFormat format;
        private final List<C2paStatus> out = new ArrayList<>();
        private Optional<String> signer = Optional.empty();
        private Optional<Instant> signedAt = Optional.empty();
        private Optional<String> proofModeSigner = Optional.empty();

        Validation(ManifestStore store, ByteSource src, AssetFormat format) {
            this.store = store;
            this.m = store.active();
            this.src = src;
            this.format = format;
        }

        C2paReport run() throws IOException {
            String sigUrl = ManifestStore.SELF + "/c2pa/" + m.label() + "/" + Manifest.SIGNATURE;
            boolean trusted = signature(sigUrl);
            List<String> labels = assertions();
            binding();
            boolean failed = out.stream().anyMatch(s -> s.outcome() == Outcome.FAILURE
                    && !s.code().equals(Codes.SIGNING_CREDENTIAL_UNTRUSTED));
            ValidationState state = failed ? ValidationState.INVALID : trusted ? ValidationState.TRUSTED : ValidationState.VALID;
            return new C2paReport(state, format, m.label(), m.generator(), signer, signedAt, labels, out, proofModeSigner);
        }

        private void add(String code, Outcome o, String explanation, String url) {
            out.add(new C2paStatus(code, o, explanation, url));
        }

        private boolean signature(String url) {
            if (m.signature().isEmpty()) {
                add(Codes.CLAIM_SIGNATURE_MISSING, Outcome.FAILURE, "the manifest has no claim signature", url);
                return false;
            }
            CoseSign1 cose;
            try {
                cose = CoseSign1.parse(m.signature().get());
            } catch (C2paFormatException e) {
                add(Codes.CLAIM_SIGNATURE_MISMATCH, Outcome.FAILURE, "unreadable claim signature: " + e.getMessage(), url);
                return false;
            }
            X509Certificate leaf = cose.chain().get(0);
            signer = Optional.of(leaf.getSubjectX500Principal().getName());
            Optional<String> problem = Credentials.profileProblem(leaf);
            problem.ifPresent(p -> add(Codes.SIGNING_CREDENTIAL_INVALID, Outcome.FAILURE, "signing certificate: " + p, url));
            cose.timeStampToken().ifPresent(t -> timeStamp(cose, t, url));
            if (cose.verifies(m.claimBytes())) {
                add(Codes.CLAIM_SIGNATURE_VALIDATED, Outcome.SUCCESS, "claim signature valid (" + cose.algorithm() + ")", url);
            } else {
                add(Codes.CLAIM_SIGNATURE_MISMATCH, Outcome.FAILURE, "claim signature is not valid", url);
            }
            Date at = Date.from(signedAt.orElseGet(Instant::now));
            try {
                leaf.checkValidity(at);
                add(Codes.CLAIM_SIGNATURE_INSIDE_VALIDITY, Outcome.SUCCESS, "signing certificate valid at " + at.toInstant(), url);
            } catch (java.security.cert.CertificateException e) {
                add(Codes.SIGNING_CREDENTIAL_EXPIRED, Outcome.FAILURE, "signing certificate not valid at " + at.toInstant(), url);
            }
            if (problem.isEmpty() && Credentials.trusted(cose.chain(), anchors, at)) {
                add(Codes.SIGNING_CREDENTIAL_TRUSTED, Outcome.SUCCESS, "signing certificate chains to a trust anchor", url);
                return true;
            }
            add(Codes.SIGNING_CREDENTIAL_UNTRUSTED, Outcome.FAILURE, "signing certificate untrusted", url);
            return false;
        }

        private void timeStamp(CoseSign1 cose, CoseSign1.TimeStampRef t, String url) {
            TimeStampCheck.Result r = TimeStampCheck.check(t.token(), cose.timeStampData(m.claimBytes(), t.v2()));
            boolean ok = r.code().equals(Codes.TIMESTAMP_VALIDATED);
            add(r.code(), ok ? Outcome.SUCCESS : Outcome.INFORMATIONAL, r.message(), url);
            if (ok) {
                signedAt = r.genTime();
                boolean anchored = Credentials.trusted(r.chain(), tsaRoots, Date.from(r.genTime().orElseThrow()));
                add(anchored ? Codes.TIMESTAMP_TRUSTED : Codes.TIMESTAMP_UNTRUSTED, Outcome.INFORMATIONAL,
                        anchored ? "time-stamp authority trusted" : "time-stamp authority not among the trusted roots", url);
            }
        }

        private List<String> assertions() {
            List<String> labels = new ArrayList<>();
            for (JsonNode ref : m.assertionRefs()) {
                String uri = ref.path("url").asText("");
                String alg = ref.path("alg").asText(m.defaultAlg());
                String abs = absolute(uri);
                Optional<JumbfBox.Super> box = store.resolve(m, uri);
                if (box.isEmpty()) {
                    add(Codes.ASSERTION_MISSING, Outcome.FAILURE, "no assertion at " + uri, abs);
                    continue;
                }
                labels.add(box.get().label());
                if (hashMatches(ref, alg, box.get())) {
                    add(Codes.HASHED_URI_MATCH, Outcome.SUCCESS, "hashed uri matched: " + uri, abs);
                    if (box.get().label().equals(ContentCredentials.PROOF_ASSERTION)) {
                        proofModeSigner = AssertionData.cbor(box.get()).map(n -> n.path("signer").asText(""))
                                .filter(x -> !x.isEmpty());
                    }
                } else {
                    add(Codes.HASHED_URI_MISMATCH, Outcome.FAILURE, "hash of " + uri + " does not match the claim", abs);
                }
                if (box.get().label().startsWith("c2pa.ingredient")) {
                    ingredient(box.get(), abs);
                }
            }
            return labels;
        }

        private void ingredient(JumbfBox.Super box, String url) {
            Optional<JsonNode> data = AssertionData.cbor(box);
            if (data.isEmpty()) {
                return;
            }
            JsonNode ref = data.get().has("activeManifest") ? data.get().get("activeManifest") : data.get().path("c2pa_manifest");
            if (!ref.isObject()) {
                return;
            }
            String uri = ref.path("url").asText("");
            Optional<JumbfBox.Super> target = store.resolve(m, uri);
            boolean ok = target.isPresent() && hashMatches(ref, ref.path("alg").asText(m.defaultAlg()), target.get());
            add(ok ? Codes.INGREDIENT_MANIFEST_VALIDATED : Codes.INGREDIENT_MANIFEST_MISMATCH,
                    ok ? Outcome.SUCCESS : Outcome.FAILURE, (ok ? "ingredient manifest matched: " : "ingredient manifest differs: ") + uri, url);
        }

        private boolean hashMatches(JsonNode ref, String alg, JumbfBox.Super box) {
            try {
                byte[] expected = ref.path("hash").binaryValue();
                return expected != null && MessageDigest.isEqual(expected, DataHash.digest(alg).digest(box.payload()));
            } catch (IOException | NoSuchAlgorithmException e) {
                return false;
            }
        }

        private String absolute(String uri) {
            if (uri.startsWith(ManifestStore.SELF + "/")) {
                return uri;
            }
            return ManifestStore.SELF + "/c2pa/" + m.label() + "/" + uri.substring(Math.min(uri.length(), ManifestStore.SELF.length()));
        }

        private void binding() throws IOException {
            Optional<String> hard = out.stream().filter(s -> s.code().equals(Codes.HASHED_URI_MATCH)
                    || s.code().equals(Codes.HASHED_URI_MISMATCH)).map(C2paStatus::url)
                    .filter(u -> u.contains("/c2pa.hash.")).findFirst();
            if (hard.isEmpty()) {
                add(Codes.HARD_BINDINGS_MISSING, Outcome.FAILURE, "the claim has no hard binding", absolute(""));
                return;
            }
            String url = hard.get();
            String label = url.substring(url.lastIndexOf('/') + 1);
            if (!label.equals(DataHash.LABEL) && !label.startsWith(DataHash.LABEL + "__")) {
                add(Codes.HARD_BINDING_UNCHECKED, Outcome.INFORMATIONAL, label + " is not checked by this reader", url);
                return;
            }
            Optional<JsonNode> a = m.assertion(label).flatMap(AssertionData::cbor);
            try {
                JsonNode dh = a.orElseThrow(() -> new C2paFormatException("data hash assertion unreadable"));
                List<DataHash.Range> ex = DataHash.exclusions(dh, src.size());
                byte[] expected = dh.path("hash").binaryValue();
                if (expected == null) {
                    throw new C2paFormatException("data hash assertion has no hash");
                }
                byte[] actual = DataHash.hash(src, ex, DataHash.digest(dh.path("alg").asText(m.defaultAlg())));
                if (MessageDigest.isEqual(expected, actual)) {
                    add(Codes.DATA_HASH_MATCH, Outcome.SUCCESS, "data hash valid", url);
                } else {
                    add(Codes.DATA_HASH_MISMATCH, Outcome.FAILURE, "asset hash does not match the data hash assertion", url);
                }
            } catch (C2paFormatException | NoSuchAlgorithmException e) {
                add(Codes.DATA_HASH_MALFORMED, Outcome.FAILURE, e.getMessage(), url);
            }
        }
    }
}
