// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.proofmode.c2pa.C2paStatus.Codes;
import org.proofmode.c2pa.C2paStatus.Outcome;

/**
 * The checks of one manifest of a store, active or ingredient (C2PA 2.2 section 15.5 to 15.10): its hash
 * algorithm, claim signature, signing credential at the trusted time (section 15.8.2), time-stamp, the
 * hashed URIs of its assertions and its actions. Its statuses carry URIs into this manifest, so a
 * reader of the report can tell which manifest each belongs to. The hard binding and the ingredients are
 * checked elsewhere ({@link C2paReader}, {@link IngredientCheck}).
 */
final class ManifestCheck {
    /**
     * What the checks found besides their statuses.
     *
     * @param trusted the signer chains to a trust anchor and nothing about the credential failed
     * @param signer the signing certificate's subject, when the signature could be read
     * @param signedAt the time-stamp's time, when it is trusted (section 15.8.2)
     * @param labels the labels of the assertions the claim references and the store holds
     * @param proofModeSigner the fingerprint of an intact {@code org.proofmode.proof} assertion
     * @param algorithmKnown false when the claim names no hash algorithm (then nothing else was checked)
     */
    record Result(boolean trusted, Optional<String> signer, Optional<Instant> signedAt, List<String> labels,
            Optional<String> proofModeSigner, boolean algorithmKnown) {}

    private final ManifestStore store;
    private final Manifest m;
    private final TrustSettings trust;
    private final List<C2paStatus> out;
    private Optional<String> signer = Optional.empty();
    private Optional<Instant> signedAt = Optional.empty();
    private Optional<String> proofModeSigner = Optional.empty();

    /**
     * Prepares the checks.
     *
     * @param out the list the statuses are added to
     */
    ManifestCheck(ManifestStore store, Manifest m, TrustSettings trust, List<C2paStatus> out) {
        this.store = store;
        this.m = m;
        this.trust = trust;
        this.out = out;
    }

    /** The URI of a manifest's claim signature. */
    static String signatureUrl(Manifest m) {
        return manifestUrl(m.label()) + "/" + Manifest.SIGNATURE;
    }

    /** The URI of a manifest in the store. */
    static String manifestUrl(String label) {
        return ManifestStore.SELF + "/c2pa/" + label;
    }

    /**
     * Tells whether a 2.x manifest's label has the form C2PA 2.2 section 8.3 gives it:
     * {@code urn:c2pa:<UUID>[:<claim generator identifier>[:<version>[_<reason>]]]}, the identifier at most
     * 32 printable ASCII characters without spaces, the version and reason numbers.
     */
    static boolean isManifestUrn(String label) {
        String[] p = label.split(":", -1);
        if (p.length < 3 || p.length > 5 || !p[0].equals("urn") || !p[1].equals("c2pa") || p[2].isEmpty()) {
            return false;
        }
        if (p.length > 3 && !p[3].isEmpty() && (p[3].length() > 32 || !p[3].chars().allMatch(c -> c > 0x20 && c < 0x7F))) {
            return false;
        }
        return p.length < 5 || p[4].isEmpty() || p[4].matches("[0-9]{1,9}(_[0-9]{1,9})?");
    }

    Result run() {
        if (m.claim().path("alg").asText("").isEmpty()) {
            add(Codes.ALGORITHM_UNSUPPORTED, Outcome.FAILURE, "the claim names no hash algorithm", manifestUrl(m.label()));
            return new Result(false, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), false);
        }
        if (m.claimVersion() >= 2 && !isManifestUrn(m.label())) {
            add(Codes.CLAIM_MALFORMED, Outcome.FAILURE, "the manifest's label is not urn:c2pa:UUID[:generator[:version_reason]]",
                    manifestUrl(m.label()));
        }
        boolean trusted = signature(signatureUrl(m));
        List<String> labels = assertions();
        ActionsCheck.check(store, m, out);
        return new Result(trusted, signer, signedAt, labels, proofModeSigner, true);
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
            CoseSign1.unsupportedAlgorithm(m.signature().get()).ifPresent(alg -> add(Codes.ALGORITHM_UNSUPPORTED, Outcome.FAILURE,
                    "the claim signature's algorithm " + alg + " is not one C2PA allows", url));
            add(Codes.CLAIM_SIGNATURE_MISMATCH, Outcome.FAILURE, "unreadable claim signature: " + e.getMessage(), url);
            return false;
        }
        X509Certificate leaf = cose.chain().get(0);
        signer = Optional.of(leaf.getSubjectX500Principal().getName());
        cose.timeStampToken().ifPresent(t -> timeStamp(cose, t, url));
        if (cose.verifies(m.claimBytes())) {
            add(Codes.CLAIM_SIGNATURE_VALIDATED, Outcome.SUCCESS, "claim signature valid (" + cose.algorithm() + ")", url);
        } else {
            add(Codes.CLAIM_SIGNATURE_MISMATCH, Outcome.FAILURE, "claim signature is not valid", url);
        }
        boolean credentialOk = credential(leaf, url);
        StapledOcsp.response(cose).ifPresent(der -> StapledOcsp.check(der, cose.chain(), signedAt.orElseGet(trust::now), url, out));
        Date at = Date.from(signedAt.orElseGet(trust::now));
        if (credentialOk && Credentials.trusted(cose.chain(), trust.anchors(), at)) {
            add(Codes.SIGNING_CREDENTIAL_TRUSTED, Outcome.SUCCESS, "signing certificate chains to a trust anchor", url);
            return true;
        }
        add(Codes.SIGNING_CREDENTIAL_UNTRUSTED, Outcome.FAILURE, "signing certificate untrusted", url);
        return false;
    }

    /**
     * The certificate's validity at the trusted time (the trusted time-stamp's, else now), then its
     * profile; like the reference, the first failure is the one reported.
     */
    private boolean credential(X509Certificate leaf, String url) {
        Instant at = signedAt.orElseGet(trust::now);
        try {
            leaf.checkValidity(Date.from(at));
        } catch (CertificateException e) {
            add(Codes.SIGNING_CREDENTIAL_EXPIRED, Outcome.FAILURE, "signing certificate not valid at " + at
                    + (signedAt.isPresent() ? " (trusted time-stamp)" : " (now: no trusted time-stamp)"), url);
            return false;
        }
        add(Codes.CLAIM_SIGNATURE_INSIDE_VALIDITY, Outcome.SUCCESS, "signing certificate valid at " + at, url);
        Optional<String> problem = Credentials.profileProblem(leaf);
        problem.ifPresent(p -> add(Codes.SIGNING_CREDENTIAL_INVALID, Outcome.FAILURE, "signing certificate: " + p, url));
        return problem.isEmpty();
    }

    /**
     * Checks the token; its time becomes the signing time only if its authority chains to a configured
     * TSA anchor (C2PA 2.2 section 15.8.2), or for a 1.x claim, whose specification did not ask for TSA
     * trust (the reference does the same).
     */
    private void timeStamp(CoseSign1 cose, CoseSign1.TimeStampRef t, String url) {
        TimeStampCheck.Result r = TimeStampCheck.check(t.token(), cose.timeStampData(m.claimBytes(), t.v2()));
        boolean ok = r.code().equals(Codes.TIMESTAMP_VALIDATED);
        add(r.code(), ok ? Outcome.SUCCESS : Outcome.INFORMATIONAL, r.message(), url);
        if (ok) {
            Instant genTime = r.genTime().orElseThrow();
            boolean anchored = Credentials.trusted(r.chain(), trust.tsaAnchors(), Date.from(genTime));
            add(anchored ? Codes.TIMESTAMP_TRUSTED : Codes.TIMESTAMP_UNTRUSTED, Outcome.INFORMATIONAL,
                    anchored ? "time-stamp authority trusted" : "time-stamp authority not among the trusted TSA anchors", url);
            if (anchored || m.claimVersion() == 1) {
                signedAt = Optional.of(genTime);
            }
        }
    }

    private List<String> assertions() {
        List<String> labels = new ArrayList<>();
        for (JsonNode ref : m.assertionRefs()) {
            String uri = ref.path("url").asText("");
            String alg = ref.path("alg").asText(m.defaultAlg());
            String abs = absolute(m, uri);
            Optional<JumbfBox.Super> box = store.resolve(m, uri);
            if (box.isEmpty() && store.redacted().contains(abs)) {
                continue; // removed by a later claim that lists it in redacted_assertions (section 11.4)
            }
            if (box.isEmpty()) {
                add(Codes.ASSERTION_MISSING, Outcome.FAILURE, "no assertion at " + uri, abs);
                continue;
            }
            labels.add(box.get().label());
            if (hashMatches(ref, alg, box.get().payload())) {
                add(Codes.HASHED_URI_MATCH, Outcome.SUCCESS, "hashed uri matched: " + uri, abs);
                if (box.get().label().equals(ContentCredentials.PROOF_ASSERTION)) {
                    proofModeSigner = AssertionData.cbor(box.get()).map(n -> n.path("signer").asText("")).filter(x -> !x.isEmpty());
                }
            } else {
                add(Codes.HASHED_URI_MISMATCH, Outcome.FAILURE, "hash of " + uri + " does not match the claim", abs);
            }
        }
        return labels;
    }

    /** Tells whether the hashed URI's hash is the hash of these bytes. */
    static boolean hashMatches(JsonNode ref, String alg, byte[] data) {
        try {
            byte[] expected = ref.path("hash").binaryValue();
            return expected != null && MessageDigest.isEqual(expected, DataHash.digest(alg).digest(data));
        } catch (IOException | NoSuchAlgorithmException e) {
            return false;
        }
    }

    /** A URI made absolute: relative URIs are relative to the manifest. */
    static String absolute(Manifest m, String uri) {
        if (uri.startsWith(ManifestStore.SELF + "/")) {
            return uri;
        }
        if (uri.startsWith(ManifestStore.SELF + ManifestStore.LABEL + "/")) {
            return ManifestStore.SELF + "/" + uri.substring(ManifestStore.SELF.length());
        }
        return manifestUrl(m.label()) + "/" + uri.substring(Math.min(uri.length(), ManifestStore.SELF.length()));
    }
}
