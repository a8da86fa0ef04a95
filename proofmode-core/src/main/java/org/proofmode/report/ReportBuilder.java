// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.media.Digests;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.ProofFields;
import org.proofmode.util.ShellWords;
import org.proofmode.verify.Check;
import org.proofmode.verify.ContextSummary;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.ReportJson;
import org.proofmode.verify.Signer;
import org.proofmode.verify.Status;
import org.proofmode.verify.Verdict;

/**
 * Makes a report's content from verified items: the verdict in plain words first, then for each proof its
 * media, hashes, signer, context, place, time stamps and every check with its meaning, then the commands
 * that redo the checks, and a certification page. It reads only the verification reports, the bundles'
 * file names and the thumbnails; it checks nothing itself.
 */
public final class ReportBuilder {
    private static final List<String> CONTENT_HASHES = List.of(ContextFields.IMAGE_PIXEL_HASH, ContextFields.IMAGE_PERCEPTUAL_HASH,
            ContextFields.VIDEO_FRAME_HASH, ContextFields.VIDEO_FRAME_COUNT, ContextFields.AUDIO_SAMPLE_HASH, ContextFields.MEDIA_DECODER);

    private ReportBuilder() {}

    /**
     * Builds the report.
     *
     * @param items the verified items, in the order to show them
     * @param caseName the case they belong to, if any
     * @param certification what the certification page says
     * @param fileName the name the report will be saved under (its signature is {@code fileName.asc}), if known
     */
    public static ReportDocument build(List<ReportItem> items, Optional<String> caseName, Certification certification, Optional<String> fileName) {
        return build(items, caseName, certification, fileName, Set.of());
    }

    /**
     * Builds the report of an installation that has keys of its own: a proof signed by one of them is said to
     * rest on this installation's own key, not on an independent one.
     *
     * @param ownKeys the fingerprints of the verifying installation's own device keys (current and earlier)
     * @see #build(List, Optional, Certification, Optional)
     */
    public static ReportDocument build(List<ReportItem> items, Optional<String> caseName, Certification certification, Optional<String> fileName,
            Set<String> ownKeys) {
        return build(items, caseName, certification, fileName, ownKeys, Language.EN);
    }

    /**
     * Builds the report with its own sentences (headings, labels, explanations) in a language; hashes,
     * fingerprints, check codes, file names and commands are the same in every language.
     *
     * @param language the reader's language
     * @see #build(List, Optional, Certification, Optional, Set)
     */
    public static ReportDocument build(List<ReportItem> items, Optional<String> caseName, Certification certification, Optional<String> fileName,
            Set<String> ownKeys, Language language) {
        Objects.requireNonNull(certification, "certification");
        Texts x = Texts.of(language);
        ReportMeanings m = ReportMeanings.of(language);
        Set<String> own = ownKeys.stream().map(k -> k.toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        if (items.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one item");
        }
        String title = caseName.or(() -> items.size() == 1 ? Optional.of(items.get(0).name()) : Optional.empty())
                .map(c -> x.get("report.title.of", c)).orElse(x.get("report.title"));
        List<Block> b = new ArrayList<>();
        b.add(new Block.Heading(1, title));
        Verdict overall = items.stream().map(i -> i.report().verdict()).reduce(Verdict.TRUSTED, Verdict::and);
        boolean selfSigned = items.stream().flatMap(i -> i.report().proofs().stream()).anyMatch(p -> ownKey(p, own));
        String verdict = x.get("report.said", x.get("report.verdict"), overall + (overall == Verdict.TRUSTED && selfSigned ? " (" + x.get("report.own") + ")" : ""));
        b.add(new Block.Paragraph(x.get("report.then", verdict, sentence(x, items.size() == 1 ? m.explain(items.get(0).report())
                : m.of(overall) + (overall == Verdict.INVALID || overall == Verdict.INCOMPLETE ? " " + x.get("report.forOne") : " " + x.get("report.forEvery")))),
                tone(overall)));
        failures(items, x, m).ifPresent(b::add);
        if (selfSigned) {
            b.add(new Block.Paragraph(x.get("report.own.paragraph"), Block.Tone.BAD));
        }
        List<Block.Field> head = new ArrayList<>();
        caseName.ifPresent(c -> head.add(new Block.Field(x.get("report.case"), c, false)));
        head.add(new Block.Field(x.get("report.date"), certification.date().map(x::date).orElse(x.get("report.notGiven")), false));
        head.add(new Block.Field(x.get("report.verifiedWith"), certification.software(), false));
        head.add(new Block.Field(x.get("report.items"), Integer.toString(items.size()), false));
        b.add(new Block.Fields(head));
        b.add(new Block.Paragraph(x.get("report.verdicts"), Block.Tone.NOTE));
        if (items.size() > 1) {
            b.add(new Block.Heading(2, x.get("report.items")));
            List<Block.Field> rows = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                rows.add(new Block.Field((i + 1) + ". " + items.get(i).name(), items.get(i).report().verdict().name(), false));
            }
            b.add(new Block.Fields(rows));
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.size() > 1) {
                b.add(new Block.PageBreak());
            }
            item(b, items.get(i), items.size() > 1 ? Optional.of(i + 1) : Optional.empty(), own, x, m);
        }
        certification(b, certification, fileName, x);
        return new ReportDocument(title, certification.date(), id(items, caseName, certification, fileName, language), b, language);
    }

    private static void item(List<Block> b, ReportItem item, Optional<Integer> number, Set<String> own, Texts x, ReportMeanings m) {
        if (number.isPresent()) {
            b.add(new Block.Heading(2, x.get("report.item", number.get().toString(), item.name())));
            b.add(new Block.Paragraph(x.get("report.said", item.report().verdict(), sentence(x, m.explain(item.report()))), tone(item.report().verdict())));
        }
        if (!item.report().checks().isEmpty()) {
            b.add(new Block.Heading(number.isPresent() ? 3 : 2, x.get("report.bundleChecks")));
            b.add(new Block.Checks(item.report().checks()));
        }
        for (ProofReport p : item.report().proofs()) {
            proof(b, item, p, number.isPresent() ? 3 : 2, own, x, m);
        }
        if (!item.custody().isEmpty()) {
            b.add(new Block.Heading(number.isPresent() ? 3 : 2, x.get("report.custody")));
            b.add(new Block.Paragraph(x.get("report.custody.note"), Block.Tone.NOTE));
            List<Block.Field> rows = new ArrayList<>();
            for (CustodyLine c : item.custody()) {
                rows.add(new Block.Field(x.date(c.at()), x.get("report.custody.by", c.action(), c.actor()) + c.verdict().map(v -> " (" + v + ")").orElse("")
                        + ": " + x.dates(c.detail()), false));
                // A row of its own in the fixed-width style, where a SHA-256 always fits on one line: a hash
                // broken over two lines is copied wrong.
                if (!c.hash().isEmpty()) {
                    rows.add(new Block.Field(x.get("report.custody.hash"), c.hash(), true));
                }
            }
            b.add(new Block.Fields(rows));
        }
        b.add(new Block.Heading(2, number.map(n -> x.get("report.checkYourself.item", n.toString())).orElse(x.get("report.checkYourself"))));
        b.addAll(SelfCheck.of(item, x));
    }

    private static void proof(List<Block> b, ReportItem item, ProofReport p, int level, Set<String> own, Texts x, ReportMeanings m) {
        b.add(new Block.Heading(level, x.get("report.proofOf", p.media().orElse(p.id()))));
        b.addAll(item.thumbnails().getOrDefault(p.id(), List.of()));
        List<Block.Field> f = new ArrayList<>();
        f.add(new Block.Field(x.get("report.verdict"), x.get("report.said", p.verdict() + (p.verdict() == Verdict.TRUSTED && ownKey(p, own)
                ? " (" + x.get("report.own") + ")" : ""), m.of(p.verdict())), false));
        f.add(new Block.Field(x.get("report.mediaFile"), p.media().orElse(x.get("report.notInBundle")), false));
        p.sha256().ifPresent(h -> f.add(new Block.Field(x.get("report.mediaSha256"), h, true)));
        if (p.sha256().map(h -> !h.equals(p.id())).orElse(true)) {
            f.add(new Block.Field(x.get("report.proof"), p.id(), false));
        }
        for (String k : CONTENT_HASHES) {
            Optional.ofNullable(p.record().get(k)).filter(v -> !v.isBlank()).ifPresent(v -> f.add(new Block.Field(PlainNames.of(k, x), v, true)));
        }
        if (p.signer().isPresent()) {
            Signer s = p.signer().get();
            f.add(new Block.Field(x.get("report.fingerprint"), fingerprint(s.fingerprint()), true));
            f.add(new Block.Field(x.get("report.algorithm"), s.algorithm(), false));
            if (!s.userId().isEmpty()) {
                f.add(new Block.Field(x.get("report.userId"), s.userId(), false));
            }
            f.add(new Block.Field(x.get("report.trust"), ownKey(p, own) ? x.get("report.own") + ": " + x.get("report.trust.own")
                    : x.get(s.trusted() ? "report.trust.trusted" : "report.trust.untrusted"), false));
        } else {
            f.add(new Block.Field(x.get("report.signer"), x.get("report.signer.none"), false));
        }
        p.times().forEach((k, v) -> f.add(new Block.Field(PlainNames.of(k, x), x.date(v), false)));
        // The sender's words, set apart in quotes: never laid out so that a line of them looks like a command.
        Optional.ofNullable(p.record().get(ProofFields.NOTES)).filter(v -> !v.isBlank())
                .ifPresent(v -> f.add(new Block.Field(x.get("report.notes"), "\u201c" + v + "\u201d", false)));
        ContextSummary.of(p.record(), w -> x.get("context." + w)).forEach((k, v) -> f.add(new Block.Field(PlainNames.label(k, x), x.dates(v), false)));
        b.add(new Block.Fields(f));
        place(p.record(), x).ifPresent(b::add);
        List<Check> times = p.checks().stream().filter(c -> c.code().startsWith("timestamp.") || c.code().startsWith("tlog.")).toList();
        if (!times.isEmpty()) {
            b.add(new Block.Paragraph(x.get("report.times.note"), Block.Tone.NOTE));
            b.add(new Block.Checks(times));
        }
        b.add(new Block.Paragraph(x.get("report.checks.note"), Block.Tone.NOTE));
        b.add(new Block.Checks(p.checks()));
    }

    /** The recorded place, when the record has a latitude and longitude on Earth. */
    static Optional<Block.Place> place(Map<String, String> record, Texts x) {
        try {
            String lat = record.get(ProofFields.LOCATION_LATITUDE);
            String lon = record.get(ProofFields.LOCATION_LONGITUDE);
            if (lat == null || lon == null) {
                return Optional.empty();
            }
            double la = Double.parseDouble(lat.strip());
            double lo = Double.parseDouble(lon.strip());
            if (!(la >= -90 && la <= 90 && lo >= -180 && lo <= 180)) {
                return Optional.empty();
            }
            return Optional.of(new Block.Place(la, lo, x.get("report.place", String.format(Locale.ROOT, "%.5f", la),
                    String.format(Locale.ROOT, "%.5f", lo))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void certification(List<Block> b, Certification c, Optional<String> fileName, Texts x) {
        b.add(new Block.PageBreak());
        b.add(new Block.Heading(2, x.get("report.certification")));
        b.add(new Block.Paragraph(x.get("report.certify"), Block.Tone.NORMAL));
        List<Block.Field> f = new ArrayList<>();
        f.add(new Block.Field(x.get("report.software"), c.software(), false));
        f.add(new Block.Field(x.get("report.programSha256"), c.installationSha256().orElse(x.get("report.noJar")), true));
        f.add(new Block.Field(x.get("report.system"), c.system(), false));
        f.add(new Block.Field(x.get("report.date"), c.date().map(x::date).orElse(x.get("report.notGiven")), false));
        f.add(new Block.Field(x.get("report.signedWith"), c.keyFingerprint().map(ReportBuilder::fingerprint).orElse(x.get("report.notSigned")), true));
        b.add(new Block.Fields(f));
        b.add(new Block.Paragraph(x.get("report.signatureLine"), Block.Tone.NORMAL));
        if (c.keyFingerprint().isPresent()) {
            String name = fileName.filter(ShellWords::typeable).map(SelfCheck::quote).orElse("REPORT.pdf");
            b.add(new Block.Heading(3, x.get("report.checking")));
            b.add(new Block.Paragraph(x.get("report.signedLike", fileName.map(n -> n + ".asc").orElse(x.get("report.signedLike.beside"))),
                    Block.Tone.NOTE));
            if (fileName.isPresent() && !ShellWords.typeable(fileName.get())) {
                b.add(new Block.Paragraph(x.get("report.untypeable", String.join(", ", ShellWords.replaced(fileName.get()))), Block.Tone.NOTE));
            }
            b.add(new Block.Commands(List.of(
                    List.of("export", "GNUPGHOME=\"$(mktemp -d)\""),
                    List.of("gpg", "--batch", "--quiet", "--import", "KEY.asc"),
                    List.of("gpg", "--batch", "--verify", name + ".asc", name))));
        }
        b.add(new Block.Paragraph(x.get("report.fonts"), Block.Tone.NOTE));
    }

    private static boolean ownKey(ProofReport p, Set<String> own) {
        return p.signer().map(s -> own.contains(s.fingerprint().toUpperCase(Locale.ROOT))).orElse(false);
    }

    /** For a report with a failed check: which checks failed, in plain words, on its first page. */
    private static Optional<Block> failures(List<ReportItem> items, Texts x, ReportMeanings m) {
        List<String> failed = items.stream().flatMap(i -> i.report().allChecks().stream()).filter(c -> c.status() == Status.FAIL)
                .map(c -> x.get("report.failedCheck", m.of(c.code()).replaceAll("[.。]$", ""), c.code(), c.subject()) + x.get("report.stop")).distinct().toList();
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Block.Paragraph(x.get("report.failed", String.join(" ", failed)), Block.Tone.BAD));
    }

    /** A fingerprint in groups of four, as gpg prints it. */
    static String fingerprint(String hex) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) {
            if (i > 0) {
                s.append(i == hex.length() / 2 ? "  " : " ");
            }
            s.append(hex, i, Math.min(hex.length(), i + 4));
        }
        return s.toString();
    }

    private static Block.Tone tone(Verdict v) {
        return v == Verdict.VALID || v == Verdict.TRUSTED ? Block.Tone.GOOD : Block.Tone.BAD;
    }

    /** A sentence from a phrase: capitalised, and ended by the language's full stop. */
    private static String sentence(Texts x, String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + x.get("report.stop");
    }

    private static String id(List<ReportItem> items, Optional<String> caseName, Certification c, Optional<String> fileName, Language language) {
        MessageDigest d = Digests.newSha256();
        for (ReportItem i : items) {
            update(d, i.name());
            update(d, ReportJson.write(i.report()));
            i.entries().forEach(e -> update(d, e));
            i.custody().forEach(line -> update(d, line.toString()));
        }
        update(d, caseName.orElse(""));
        update(d, c.toString());
        update(d, fileName.orElse(""));
        if (language != Language.EN) {
            update(d, language.tag()); // an English report keeps the id it always had
        }
        return HexFormat.of().formatHex(d.digest());
    }

    private static void update(MessageDigest d, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        d.update(HexFormat.of().parseHex(String.format(Locale.ROOT, "%08x", bytes.length)));
        d.update(bytes);
    }
}
