// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.proofmode.bundle.Bundle;
import org.proofmode.i18n.Language;
import org.proofmode.report.Certification;
import org.proofmode.report.CustodyLine;
import org.proofmode.report.PdfReport;
import org.proofmode.report.ReportBuilder;
import org.proofmode.report.ReportItem;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.Metrics;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.service.Verification;
import org.proofmode.server.store.BlobStore;
import org.proofmode.server.store.CollectionIndex;
import org.proofmode.server.store.CustodyAction;
import org.proofmode.server.store.DbTime;
import org.proofmode.server.store.EvidenceSearch;
import org.proofmode.server.store.EvidenceStore;
import org.proofmode.server.store.NotarizationStore;
import org.proofmode.server.store.ProofRow;
import org.proofmode.server.store.TokenScope;
import org.proofmode.util.Hex;

/**
 * The handlers of {@code /api/v1/verify}, {@code /api/v1/compare}, {@code /api/v1/evidence} and
 * {@code /api/v1/notarizations}.
 */
public final class EvidenceApi {
    /** The request attribute naming the item an intake stored, for the server's event log. */
    public static final String ITEM = "proofmode.item";
    /** The request attribute holding an intake's verdict, for the server's event log. */
    public static final String VERDICT = "proofmode.verdict";

    private static final String JSON = "application/json";

    private final Verification verification;
    private final EvidenceStore evidence;
    private final EvidenceSearch search;
    private final NotarizationStore notarizations;
    private final Access access;
    private final ReportApi reports;
    private final Path incoming;
    private final long maxUpload;
    private final LogApi log;
    private final Metrics metrics;
    private final EncryptedUploads encrypted;

    /** Wires the handlers. */
    public EvidenceApi(Verification verification, EvidenceStore evidence, EvidenceSearch search,
            NotarizationStore notarizations, Access access, ReportApi reports, Path incoming, long maxUpload, LogApi log,
            Metrics metrics, EncryptedUploads encrypted) {
        this.verification = Objects.requireNonNull(verification, "verification");
        this.evidence = Objects.requireNonNull(evidence, "evidence");
        this.search = Objects.requireNonNull(search, "search");
        this.notarizations = Objects.requireNonNull(notarizations, "notarizations");
        this.access = Objects.requireNonNull(access, "access");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.incoming = Objects.requireNonNull(incoming, "incoming");
        this.maxUpload = maxUpload;
        this.log = Objects.requireNonNull(log, "log");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.encrypted = Objects.requireNonNull(encrypted, "encrypted");
    }

    private Verification.Result verifyTimed(Path file, String name) {
        long t0 = System.nanoTime();
        Verification.Result r = verification.verify(file, name);
        metrics.verified(r.report().verdict().name(), System.nanoTime() - t0);
        return r;
    }

    /**
     * {@code POST /api/v1/verify[?keep=true]}: the report of {@code proofmode verify --json}; nothing is kept
     * unless {@code keep=true} asks for a permalink to the report (never to the bundle).
     */
    public void verify(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        boolean keep = reports.wantsKeep(ctx);
        try (Upload received = Upload.receive(ctx, incoming, maxUpload); Upload up = encrypted.decrypted(received)) {
            Verification.Result r = verifyTimed(up.file(), up.name());
            r.json().put("bundleSha256", up.sha256());
            ObjectNode answer = r.json().deepCopy();
            if (keep) {
                reports.keep(r, answer);
            }
            json(ctx, 200, answer);
        }
    }

    /**
     * {@code POST /api/v1/compare}: how two items relate ({@code proofmode compare}): a multipart form with a
     * share bundle or media file in each of the parts {@code a} and {@code b}. It needs a token, since it
     * may decode media (images here, video and audio by FFmpeg); nothing is kept.
     */
    public void compare(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        access.require(ctx);
        List<Upload> both = Upload.receivePair(ctx, incoming, maxUpload);
        try (Upload a = both.get(0); Upload b = both.get(1)) {
            json(ctx, 200, verification.compare(a.file(), a.name(), b.file(), b.name()));
        }
    }

    /** {@code POST /api/v1/evidence}: verify and keep; 201 when new, 200 when the same bytes were kept before. */
    public void store(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        EvidenceStore.Actor actor = access.requireSend(ctx);
        try (Upload up = Upload.receive(ctx, incoming, maxUpload)) {
            intake(ctx, up, actor);
        }
    }

    /**
     * Verifies and keeps a received bundle, and answers as {@code POST /api/v1/evidence} does. A bundle
     * encrypted to this server is decrypted first, and the decrypted bundle is what is verified and kept.
     */
    void intake(Context ctx, Upload received, EvidenceStore.Actor actor) throws IOException {
        try (Upload up = encrypted.decrypted(received)) {
            intakePlain(ctx, up, actor);
        }
    }

    private void intakePlain(Context ctx, Upload up, EvidenceStore.Actor actor) {
        Verification.Result r = verifyTimed(up.file(), up.name());
        EvidenceStore.Item item = new EvidenceStore.Item(up.sha256(), up.name(), up.size(),
                r.report().verdict().name(), EvidenceJson.write(r.json()), DbTime.now());
        EvidenceStore.Intake in = evidence.store(up.file(), item, r.report(), actor, r.collection().map(c -> new CollectionIndex.Capture(
                c.url(), c.finalUrl(), Optional.ofNullable(c.title()), c.collected(), Optional.ofNullable(c.tls()).map(t -> t.subject()))));
        metrics.intake(in.created());
        ctx.attribute(ITEM, item.sha256());
        ctx.attribute(VERDICT, item.verdict());
        ObjectNode out = EvidenceJson.summary(in.item());
        out.put("created", in.created());
        // A new item's entry was queued in its own transaction: no checkpoint covers it yet.
        out.set("log", in.created() ? LogApi.queued() : log.describe(item.sha256()));
        ctx.header("Location", "/api/v1/evidence/" + item.sha256());
        json(ctx, in.created() ? 201 : 200, out);
    }

    /** {@code GET /api/v1/evidence/{sha256}}: the item, its intake report, proofs, custody and notarizations. */
    public void get(Context ctx) {
        EvidenceStore.Item item = item(ctx, access.require(ctx));
        List<ProofRow> proofs = search.ofEvidence(item.sha256());
        Set<String> media = new LinkedHashSet<>();
        proofs.forEach(p -> p.mediaSha256().ifPresent(media::add));
        List<NotarizationStore.Notarization> notes = media.stream().flatMap(m -> notarizations.lookup(m).stream()).toList();
        ObjectNode out = EvidenceJson.item(item, evidence.custody(item.sha256()), proofs, notes);
        out.set("log", log.describe(item.sha256()));
        json(ctx, 200, out);
    }

    /** {@code GET /api/v1/evidence/{sha256}/receipt}: the receipt of the item's intake in the transparency log. */
    public void receipt(Context ctx) {
        log.receipt(ctx, item(ctx, access.require(ctx)).sha256());
    }

    /** {@code GET /api/v1/evidence/{sha256}/bundle}: the bundle as received; logged as a download. */
    public void download(Context ctx) throws IOException {
        EvidenceStore.Actor actor = access.require(ctx);
        EvidenceStore.Item item = item(ctx, actor);
        BlobStore blobs = evidence.blobs();
        evidence.log(item.sha256(), CustodyAction.DOWNLOAD, actor, Optional.empty(), "bundle downloaded");
        ctx.contentType("application/zip");
        ctx.header("Content-Disposition", "attachment; filename=\"" + item.sha256() + ".zip\"");
        ctx.header("Link", "</api/v1/evidence/" + item.sha256() + "/receipt>; rel=\"receipt\"");
        ctx.result(blobs.open(item.sha256()));
    }

    /**
     * {@code GET /api/v1/evidence/{sha256}/report}: a verification report (PDF) of the stored bytes, verified
     * again as {@code reverify} does, with the item's chain of custody. The report is made first, then logged
     * as {@code REPORT}: a report that cannot be made records nothing. The report handed out is then made
     * again with that line, so that it shows its own line and is dated by it. Written in the language
     * {@link PageLanguage#of} chooses ({@code lang}, else {@code Accept-Language}, else English).
     */
    public void report(Context ctx) throws IOException {
        EvidenceStore.Actor actor = access.require(ctx);
        EvidenceStore.Item item = item(ctx, actor);
        try (BlobStore.LocalCopy copy = evidence.blobs().local(item.sha256())) {
            Verification.Result r = verifyTimed(copy.path(), item.name());
            ReportItem reportItem;
            try (Bundle bundle = Bundle.open(copy.path(), verification.limits())) {
                reportItem = ReportItem.of(item.name(), r.report(), bundle);
            }
            String file = item.sha256() + ".report.pdf";
            Language language = PageLanguage.of(ctx);
            pdfReport(reportItem, file, item.sha256(), language);
            evidence.log(item.sha256(), CustodyAction.REPORT, actor, Optional.of(r.report().verdict().name()),
                    "verification report (PDF) made and downloaded");
            byte[] pdf = pdfReport(reportItem, file, item.sha256(), language);
            ctx.contentType("application/pdf");
            ctx.header("Content-Language", language.tag());
            ctx.header("Vary", "Accept-Language");
            ctx.header("Content-Disposition", "attachment; filename=\"" + file + "\"");
            ctx.result(pdf);
        }
    }

    /** The PDF report of an item with its chain of custody as it is now, dated by the chain's last line. */
    private byte[] pdfReport(ReportItem item, String file, String sha256, Language language) {
        List<CustodyLine> custody = evidence.custody(sha256).lines().stream()
                .map(c -> new CustodyLine(c.at(), c.action().name(), c.actor(), c.verdict(), c.detail(), c.hash())).toList();
        Certification cert = Certification.of("proofmode serve", EvidenceApi.class,
                Optional.of(custody.get(custody.size() - 1).at()), Optional.empty());
        return PdfReport.render(ReportBuilder.build(List.of(item.withCustody(custody)), Optional.empty(), cert, Optional.of(file),
                Set.of(), language));
    }

    /** {@code POST /api/v1/evidence/{sha256}/reverify}: verify the stored bytes again; logged. */
    public void reverify(Context ctx) throws IOException {
        Access.sameOrigin(ctx);
        EvidenceStore.Actor actor = access.require(ctx);
        EvidenceStore.Item item = item(ctx, actor);
        try (BlobStore.LocalCopy copy = evidence.blobs().local(item.sha256())) {
            Verification.Result r = verifyTimed(copy.path(), item.name());
            evidence.log(item.sha256(), CustodyAction.REVERIFY, actor, Optional.of(r.report().verdict().name()),
                    "verified again: " + r.report().verdict().name());
            json(ctx, 200, r.json());
        }
    }

    /** {@code GET /api/v1/evidence?signer=&from=&to=&bbox=&media=&limit=}: stored proofs, newest first. */
    public void find(Context ctx) {
        access.requireReadAll(ctx);
        EvidenceSearch.Query q = SearchParams.query(ctx);
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        ArrayNode arr = out.putArray("results");
        EvidenceSearch.Page page = search.page(q);
        page.rows().forEach(p -> arr.add(EvidenceJson.proof(p)));
        page.next().ifPresent(n -> out.put("next", n.encoded()));
        json(ctx, 200, out);
    }

    /**
     * {@code GET /api/v1/token}: the token's name and scope, so that a client can check a token it was
     * given (and say what it may do) without reading anything stored.
     */
    public void token(Context ctx) {
        EvidenceStore.Actor actor = access.require(ctx);
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        out.put("id", actor.tokenId());
        out.put("name", actor.name());
        out.put("scope", Access.token(ctx).scope().map(TokenScope::spelled).orElse("unscoped"));
        json(ctx, 200, out);
    }

    /** {@code POST /api/v1/notarizations}: keep a notarization text (the body, plain text). */
    public void notarize(Context ctx) {
        Access.sameOrigin(ctx);
        EvidenceStore.Actor actor = access.requireSend(ctx);
        String body = ctx.body();
        NotarizationStore.Notarization n = notarizations.add(body, actor);
        // an upload token is shown the stored items of that media that it sent itself, none of others'
        json(ctx, 201, lookupDocument(n.mediaSha256(), Access.scope(ctx).mayReadAll() ? Optional.empty() : Optional.of(actor)));
    }

    /** {@code GET /api/v1/notarizations?q=TEXT-OR-SHA256}: the notarizations of a media and the evidence that matches. */
    public void lookup(Context ctx) {
        access.requireReadAll(ctx);
        json(ctx, 200, lookupDocument(NotarizationStore.mediaHash(ctx.queryParam("q")), Optional.empty()));
    }

    private ObjectNode lookupDocument(String media, Optional<EvidenceStore.Actor> onlySentBy) {
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        out.put("mediaSha256", media);
        out.set("notarizations", EvidenceJson.notarizations(notarizations.lookup(media)));
        ArrayNode matches = out.putArray("evidence");
        search.find(new EvidenceSearch.Query(Optional.empty(), Optional.of(media), Optional.empty(), Optional.empty(),
                Optional.empty(), EvidenceSearch.MAX_LIMIT)).stream()
                .filter(p -> onlySentBy.isEmpty() || evidence.sentBy(p.evidenceSha256(), onlySentBy.get().tokenId()))
                .forEach(p -> matches.add(EvidenceJson.proof(p)));
        return out;
    }

    /** The item the path names, if this token may read it (an upload token: only one it sent; else 404). */
    private EvidenceStore.Item item(Context ctx, EvidenceStore.Actor actor) {
        String sha = ctx.pathParam("sha256");
        if (!Hex.isSha256(sha)) {
            throw new ApiException(ProblemType.BAD_REQUEST, "an item is named by the SHA-256 of its bundle (64 hex digits)");
        }
        String id = sha.toLowerCase(Locale.ROOT);
        access.requireItem(ctx, actor, id, evidence);
        return evidence.find(id).orElseThrow(() -> new ApiException(ProblemType.NOT_FOUND, "no evidence " + id));
    }

    static void json(Context ctx, int status, JsonNode body) {
        ctx.status(status);
        ctx.contentType(JSON);
        ctx.result(EvidenceJson.write(body));
    }
}
