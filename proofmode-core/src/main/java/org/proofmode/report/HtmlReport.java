// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.util.SafeText;
import org.proofmode.verify.Check;

/**
 * Renders a report as one self-contained HTML page: styles inline, the thumbnail as a data URI, the map as
 * inline SVG, no script, nothing loaded from the network (its Content-Security-Policy forbids it).
 *
 * <p>Security: every string of the report may come from a stranger (file names, record fields, key user
 * IDs, messages quoting them). Each goes through {@link SafeText} (control, format and bidirectional
 * characters become visible escapes) and is then escaped for HTML text and attributes, so markup in it
 * stays text.
 */
public final class HtmlReport {
    private static final String STYLE = String.join("\n",
            "body{font-family:'Liberation Sans',Arial,Helvetica,'Noto Sans','Droid Sans Fallback',Symbola,sans-serif;max-width:52em;margin:2em auto;padding:0 1em;color:#111;line-height:1.45}",
            "h1{font-size:1.7em;margin-bottom:.3em}h2{font-size:1.35em;border-bottom:1px solid #999;margin-top:2em}h3{font-size:1.1em;margin-top:1.5em}",
            ".good{background:#e6f4e6;border-inline-start:6px solid #2e7d32;padding:.6em .9em;font-size:1.1em}",
            ".bad{background:#fbe9e7;border-inline-start:6px solid #c62828;padding:.6em .9em;font-size:1.1em}",
            ".note{color:#444;font-size:.92em}",
            "table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{text-align:start;vertical-align:top;padding:.25em .5em;border-bottom:1px solid #ddd;overflow-wrap:anywhere}",
            ".checks{table-layout:fixed}",
            "th{background:#f2f2f2}.fields th{width:14em;background:none;font-weight:normal;color:#444}",
            ".mono,code{font-family:'Liberation Mono','DejaVu Sans Mono',monospace;overflow-wrap:anywhere;direction:ltr;unicode-bidi:isolate}",
            ".PASS{color:#2e7d32;font-weight:bold}.FAIL{color:#c62828;font-weight:bold}.WARN{color:#a15c00;font-weight:bold}.INFO{color:#555}",
            ".meaning{color:#444;font-size:.92em}",
            "pre{background:#f6f6f6;border:1px solid #ddd;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere;direction:ltr;text-align:left}",
            "figure{margin-block:1em;margin-inline:0 1em;display:inline-block;vertical-align:top}img{max-width:100%;height:auto;border:1px solid #ccc}svg{width:100%;max-width:36em;border:1px solid #ccc}",
            "@media print{h2{break-before:page}}");

    private HtmlReport() {}

    /** The page. */
    public static String render(ReportDocument doc) {
        Texts x = Texts.of(doc.language());
        ReportMeanings meanings = ReportMeanings.of(doc.language());
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"").append(doc.language().tag()).append("\" dir=\"").append(doc.language().rightToLeft() ? "rtl" : "ltr")
                .append("\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"ProofMode\">\n")
                .append("<meta name=\"proofmode-report-id\" content=\"").append(doc.id()).append("\">\n")
                .append("<title>").append(esc(doc.title())).append("</title>\n<style>\n").append(STYLE).append("\n</style>\n</head>\n<body>\n<main>\n");
        for (Block b : doc.blocks()) {
            block(h, b, x, meanings);
        }
        h.append("</main>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void block(StringBuilder h, Block b, Texts t, ReportMeanings meanings) {
        if (b instanceof Block.Heading x) {
            h.append("<h").append(x.level()).append('>').append(esc(x.text())).append("</h").append(x.level()).append(">\n");
        } else if (b instanceof Block.Paragraph x) {
            h.append("<p class=\"").append(x.tone().name().toLowerCase(Locale.ROOT)).append("\">").append(esc(x.text())).append("</p>\n");
        } else if (b instanceof Block.Fields x) {
            h.append("<table class=\"fields\">\n");
            for (Block.Field f : x.rows()) {
                h.append("<tr><th scope=\"row\">").append(esc(f.label())).append("</th><td").append(f.mono() ? " class=\"mono\"" : "")
                        .append('>').append(value(f.value(), t)).append("</td></tr>\n");
            }
            h.append("</table>\n");
        } else if (b instanceof Block.Checks x) {
            h.append("<table class=\"checks\">\n<colgroup><col style=\"width:5.5em\"><col style=\"width:14em\"><col></colgroup>\n"
                    + "<thead><tr><th scope=\"col\">" + esc(t.get("report.col.result")) + "</th><th scope=\"col\">" + esc(t.get("report.col.code"))
                    + "</th><th scope=\"col\">" + esc(t.get("report.col.found")) + "</th></tr></thead>\n<tbody>\n");
            // a check's message is an English sentence: marked so in another language's report, and read left to right
            // even when it starts with a name in another script
            String message = t.language() == Language.EN ? "<bdi>" : "<bdi dir=\"ltr\" lang=\"en\">";
            for (Check c : x.checks()) {
                h.append("<tr><td class=\"").append(c.status().name()).append("\">").append(c.status().name()).append("</td><td><code>")
                        .append(esc(c.code())).append("</code></td><td><span class=\"meaning\">").append(esc(t.get("report.file", c.subject())))
                        .append("</span><br>").append(message).append(esc(t.dates(c.message()))).append("</bdi><br><span class=\"meaning\">").append(esc(meanings.of(c.code())))
                        .append("</span></td></tr>\n");
            }
            h.append("</tbody>\n</table>\n");
        } else if (b instanceof Block.Commands x) {
            h.append("<pre class=\"commands\" dir=\"ltr\">");
            for (List<String> c : x.commands()) {
                h.append("$ ").append(esc(String.join(" ", c))).append('\n');
            }
            h.append("</pre>\n");
        } else if (b instanceof Block.Place x) {
            place(h, x);
        } else if (b instanceof Block.Picture x) {
            h.append("<figure><img src=\"data:image/jpeg;base64,").append(Base64.getEncoder().encodeToString(x.jpeg()))
                    .append("\" width=\"").append(x.width()).append("\" height=\"").append(x.height()).append("\" alt=\"").append(esc(x.alt()))
                    .append("\"></figure>\n");
        } else if (b instanceof Block.PageBreak) {
            h.append("<hr>\n");
        }
    }

    /**
     * A field's value: in a right-to-left report, a value without right-to-left letters (a name, a key's user ID,
     * the sender's notes) is isolated and read left to right, so that its brackets and quotes stay where they are.
     */
    private static String value(String value, Texts t) {
        char[] chars = value.toCharArray();
        return t.language().rightToLeft() && !java.text.Bidi.requiresBidi(chars, 0, chars.length) ? "<bdi>" + esc(value) + "</bdi>" : esc(value);
    }

    private static void place(StringBuilder h, Block.Place p) {
        MapWindow w = MapWindow.around(p.latitude(), p.longitude());
        h.append(String.format(Locale.ROOT, "<figure><svg role=\"img\" aria-label=\"%s\" viewBox=\"%d %d %d %d\" xmlns=\"http://www.w3.org/2000/svg\">",
                esc(p.alt()), w.x(), w.y(), w.width(), w.height()));
        h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#dceefa\"/>", w.x(), w.y(), w.width(), w.height()));
        h.append("<path fill=\"#e8e3d4\" stroke=\"#8a8470\" stroke-width=\"").append(w.width() / 600).append("\" d=\"")
                .append(LandMap.get().svgPath()).append("\"/>");
        h.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"#c62828\" stroke=\"#fff\" stroke-width=\"%d\"/>",
                LandMap.x(p.longitude()), LandMap.y(p.latitude()), w.width() / 90, w.width() / 400));
        h.append("</svg><figcaption class=\"note\">").append(esc(p.alt())).append("</figcaption></figure>\n");
    }

    /** Escapes for HTML text and attribute values, after {@link SafeText#escape}. */
    static String esc(String s) {
        String t = SafeText.escape(s);
        StringBuilder out = new StringBuilder(t.length() + 16);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
