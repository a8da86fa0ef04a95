// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.report.Block;
import org.proofmode.report.Certification;
import org.proofmode.report.PdfReport;
import org.proofmode.report.ReportBuilder;
import org.proofmode.report.ReportDocument;
import org.proofmode.report.ReportItem;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.service.Verification;
import org.proofmode.server.store.RateLimiter;
import org.proofmode.server.store.ReportStore;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.VerificationReport;

/**
 * Permalinks to verification results: {@code POST /api/v1/verify?keep=true} keeps the server's own report
 * (rate-limited per client address, size-capped) and {@code GET /api/v1/reports/{id}} gives it back to
 * whoever has the link. A client can never store a report of its own making: only what
 * {@link Verification} returned is kept.
 */
public final class ReportApi {
    private final ReportStore reports;
    private final RateLimiter keepsPerAddress;
    private final int maxBytes;

    /** Wires the handlers. */
    public ReportApi(ReportStore reports, RateLimiter keepsPerAddress, int maxBytes) {
        this.reports = Objects.requireNonNull(reports, "reports");
        this.keepsPerAddress = Objects.requireNonNull(keepsPerAddress, "keepsPerAddress");
        this.maxBytes = maxBytes;
    }

    /**
     * Whether the request asks to keep its report ({@code keep=true}); if so, counts it against the
     * client address's rate before anything is verified.
     *
     * @throws ApiException {@link ProblemType#BAD_REQUEST} for another value, {@link ProblemType#RATE_LIMITED}
     */
    public boolean wantsKeep(Context ctx) {
        String v = ctx.queryParam("keep");
        if (v == null || v.isEmpty() || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (!v.equalsIgnoreCase("true")) {
            throw new ApiException(ProblemType.BAD_REQUEST, "keep is true or false");
        }
        long wait = keepsPerAddress.hit("keep:" + Access.remote(ctx).toLowerCase(Locale.ROOT));
        if (wait > 0) {
            ctx.header("Retry-After", Long.toString(wait));
            throw new ApiException(ProblemType.RATE_LIMITED, "this address kept too many reports; retry in " + wait
                    + " s, or verify without keeping");
        }
        return true;
    }

    /**
     * Keeps a report the server has just made and adds its permalink to the answer; a report over the size
     * bound is answered but not kept ({@code permalinkRefused} says why).
     */
    public void keep(Verification.Result r, ObjectNode answer) {
        String json = EvidenceJson.write(r.json());
        int size = json.getBytes(StandardCharsets.UTF_8).length;
        if (size > maxBytes) {
            answer.put("permalinkRefused", "the report is " + size + " bytes, over the " + maxBytes
                    + " bytes this server keeps");
            return;
        }
        ReportStore.Kept k = reports.keep(r.report().verdict().name(), json);
        answer.put("reportId", k.id());
        answer.put("permalink", permalink(k.id()));
        answer.put("reportUrl", "/api/v1/reports/" + k.id());
        answer.put("verifiedAt", k.verifiedAt());
        answer.put("expiresAt", k.expiresAt());
    }

    /** {@code GET /api/v1/reports/{id}}: a kept report, no token needed; 404 when unknown, malformed or expired. */
    public void get(Context ctx) {
        String id = ctx.pathParam("id");
        ReportStore.Kept k = reports.find(id).orElseThrow(() -> new ApiException(ProblemType.NOT_FOUND,
                "no kept report with that id (it may have expired)"));
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        out.put("id", k.id());
        out.put("verifiedAt", k.verifiedAt());
        out.put("expiresAt", k.expiresAt());
        out.put("permalink", permalink(k.id()));
        out.set("report", EvidenceJson.parse(k.report()));
        EvidenceApi.json(ctx, 200, out);
    }

    /**
     * {@code GET /api/v1/reports/{id}/pdf?date=&lang=}: the kept result as a verification report (PDF), made from the
     * report as it was kept (nothing is verified again: the files are not kept). Dated when it is made, or by
     * {@code date} (ISO-8601 UTC) for the same bytes again; the verification's own time is shown as such. Written
     * in the language {@link PageLanguage#of} chooses ({@code lang}, else {@code Accept-Language}, else English).
     *
     * @throws ApiException {@link ProblemType#NOT_FOUND} for an unknown or expired id, {@link ProblemType#BAD_REQUEST}
     *     for a date that is not an ISO-8601 UTC time
     */
    public void pdf(Context ctx) {
        String id = ctx.pathParam("id");
        Instant when = reportDate(ctx.queryParam("date"));
        ReportStore.Kept k = reports.find(id).orElseThrow(() -> new ApiException(ProblemType.NOT_FOUND,
                "no kept report with that id (it may have expired)"));
        VerificationReport report = ReportJson.read(EvidenceJson.parse(k.report()));
        ReportItem item = new ReportItem(report.source(), report, List.of(), Map.of(), List.of());
        String file = "result-" + k.id() + ".pdf";
        Certification cert = Certification.of("proofmode serve", ReportApi.class,
                Optional.of(when.truncatedTo(ChronoUnit.SECONDS).toString()), Optional.empty());
        Language language = PageLanguage.of(ctx);
        ReportDocument doc = withVerifiedAt(ReportBuilder.build(List.of(item), Optional.empty(), cert, Optional.of(file),
                Set.of(), language), k.verifiedAt());
        byte[] pdf = PdfReport.render(doc);
        ctx.contentType("application/pdf");
        ctx.header("Content-Language", language.tag());
        ctx.header("Vary", "Accept-Language");
        ctx.header("Content-Disposition", "attachment; filename=\"" + file + "\"");
        ctx.result(pdf);
    }

    /** The {@code date} parameter, or now: a report is dated when it is made, never by the verification it shows. */
    private static Instant reportDate(String date) {
        if (date == null || date.isEmpty()) {
            return Instant.now();
        }
        try {
            return Instant.parse(date);
        } catch (DateTimeParseException e) {
            throw new ApiException(ProblemType.BAD_REQUEST, "date is an ISO-8601 UTC time such as 2026-03-14T09:00:00Z");
        }
    }

    /** The document with the kept verification's time next to the report's own date. */
    private static ReportDocument withVerifiedAt(ReportDocument doc, String verifiedAt) {
        Texts texts = Texts.of(doc.language());
        String dateLabel = texts.get("report.date");
        List<Block> blocks = new ArrayList<>();
        boolean added = false;
        for (Block b : doc.blocks()) {
            if (!added && b instanceof Block.Fields f && f.rows().stream().anyMatch(r -> r.label().equals(dateLabel))) {
                List<Block.Field> rows = new ArrayList<>();
                for (Block.Field r : f.rows()) {
                    rows.add(r);
                    if (r.label().equals(dateLabel)) {
                        rows.add(new Block.Field(texts.get("report.server.verifiedAt"), texts.date(verifiedAt), false));
                    }
                }
                b = new Block.Fields(rows);
                added = true;
            }
            blocks.add(b);
        }
        return new ReportDocument(doc.title(), doc.date(), doc.id(), blocks, doc.language());
    }

    private static String permalink(String id) {
        return "/#/report/" + id;
    }
}
