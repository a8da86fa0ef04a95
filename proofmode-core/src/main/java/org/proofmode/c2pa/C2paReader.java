// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * Reads and validates the C2PA manifest store embedded in any {@link AssetFormat}: the claim signature, the
 * signing credential (profile, validity, trust), the time-stamp, every hashed URI of the claim, and
 * the hard binding. Every finding is a {@link C2paStatus}; nothing found is thrown.
 *
 * <p>Security: a signer is trusted only if its chain ends in one of the given anchors; without
 * anchors every manifest is at most {@link ValidationState#VALID}.
 */
public final class C2paReader {
    private final TrustSettings trust;

    /**
     * Creates a reader.
     *
     * @param anchors trust anchors for signing credentials
     * @param tsaRoots trusted roots of time-stamp authorities
     */
    public C2paReader(List<X509Certificate> anchors, List<X509Certificate> tsaRoots) {
        this(anchors, tsaRoots, Clock.systemUTC());
    }

    /**
     * Creates a reader that takes "now" from a clock: a signing certificate is judged at the time of a
     * time-stamp whose authority chains to one of {@code tsaRoots}, else at the clock's time (C2PA 2.2
     * section 15.8.2).
     *
     * @param anchors trust anchors for signing credentials
     * @param tsaRoots trusted roots of time-stamp authorities
     * @param clock the current time
     */
    public C2paReader(List<X509Certificate> anchors, List<X509Certificate> tsaRoots, Clock clock) {
        this.trust = new TrustSettings(anchors, tsaRoots, clock);
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
            throw new UncheckedIOException(e);
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
        return Optional.of(new Validation(store, src, format.get(), found.get()).run());
    }

    /** One run over one store. */
    private final class Validation {
        private final ManifestStore store;
        private final Manifest m;
        private final ByteSource src;
        private final AssetFormat format;
        private final EmbeddedStore found;
        private final List<C2paStatus> out = new ArrayList<>();
        private Optional<String> signer = Optional.empty();
        private Optional<Instant> signedAt = Optional.empty();
        private Optional<String> proofModeSigner = Optional.empty();

        Validation(ManifestStore store, ByteSource src, AssetFormat format, EmbeddedStore found) {
            this.store = store;
            this.m = store.active();
            this.src = src;
            this.format = format;
            this.found = found;
        }

        C2paReport run() throws IOException {
            ManifestCheck.Result r = new ManifestCheck(store, m, trust, out).run();
            signer = r.signer();
            signedAt = r.signedAt();
            proofModeSigner = r.proofModeSigner();
            boolean trusted = r.trusted();
            List<String> labels = r.labels();
            if (r.algorithmKnown()) {
                IngredientCheck.run(store, m, trust, out);
                binding();
                CawgIdentity.check(store, m, trust, out);
                IngredientCheck.markRecorded(store, m.label(), out);
            }
            // As in the reference validator, the X.509 identity's failures (cawg.x509.*) leave the claim's state.
            boolean failed = out.stream().anyMatch(s -> s.outcome() == Outcome.FAILURE
                    && !s.code().equals(Codes.SIGNING_CREDENTIAL_UNTRUSTED) && !s.code().startsWith("cawg.x509."));
            boolean unbound = out.stream().anyMatch(s -> s.code().equals(Codes.HARD_BINDING_UNCHECKED));
            ValidationState state = failed ? ValidationState.INVALID : unbound ? ValidationState.INCOMPLETE
                    : trusted ? ValidationState.TRUSTED : ValidationState.VALID;
            return new C2paReport(state, format, m.label(), m.generator(), signer, signedAt, labels, out, proofModeSigner,
                    ManifestChain.links(store, out));
        }

        private void add(String code, Outcome o, String explanation, String url) {
            out.add(new C2paStatus(code, o, explanation, url));
        }

        private void binding() throws IOException {
            Optional<Manifest> bound = IngredientCheck.bindingManifest(store, m);
            if (bound.isEmpty()) {
                add(Codes.HARD_BINDINGS_MISSING, Outcome.FAILURE, "the claim has no hard binding", ManifestCheck.manifestUrl(m.label()));
                return;
            }
            Manifest bm = bound.get();
            String inBound = ManifestCheck.manifestUrl(bm.label()) + "/";
            Optional<String> hard = out.stream().filter(s -> s.url().startsWith(inBound)).filter(s -> s.code().equals(Codes.HASHED_URI_MATCH)
                    || s.code().equals(Codes.HASHED_URI_MISMATCH)).map(C2paStatus::url)
                    .filter(u -> u.contains("/c2pa.hash.")).findFirst();
            if (hard.isEmpty()) {
                add(Codes.HARD_BINDINGS_MISSING, Outcome.FAILURE, "the claim has no hard binding", ManifestCheck.manifestUrl(bm.label()));
                return;
            }
            String url = hard.get();
            out.addAll(HardBindings.check(bm, url.substring(url.lastIndexOf('/') + 1), url, src, found, format, bm != m));
        }
    }
}
