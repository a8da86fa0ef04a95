// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.i18n.Language;

/**
 * The language the web page is written in for one request: the page's switch ({@code ?lang=TAG}) if it names one
 * of ours, else the first of the reader's languages ({@code Accept-Language}, by q-value) we have, else English.
 *
 * <p>A tag is ours as {@link Language#find} reads it: {@code es-CO} is Spanish; {@code zh}, {@code zh-CN} and
 * {@code zh-Hans} are simplified Chinese, {@code zh-TW} and {@code zh-Hant} are not ours (the next of the reader's
 * languages decides). A {@code ?lang=} that names no language of ours is ignored, as an absent one is: a link with
 * another language in it still opens in one the reader reads.
 *
 * <p>Security: both inputs are bounded before they are read ({@link #MAX_ACCEPT_LANGUAGE},
 * {@link #MAX_PARAMETER}); nothing of either is put into the page.
 */
public final class PageLanguage {
    /** The characters of {@code Accept-Language} read; ranges after them are ignored (a browser sends a few dozen). */
    public static final int MAX_ACCEPT_LANGUAGE = 512;

    /** The longest {@code ?lang=} value read; a longer one is ignored. */
    public static final int MAX_PARAMETER = 35;

    // RFC 9110 12.5.4: language-range [ OWS ";" OWS "q=" qvalue ]
    private static final Pattern RANGE = Pattern.compile(
            "\\s*((?:[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)|\\*)\\s*(?:;\\s*[qQ]\\s*=\\s*(0(?:\\.[0-9]{0,3})?|1(?:\\.0{0,3})?))?\\s*");

    private PageLanguage() {}

    /** The page's language for a request with these (possibly absent) {@code ?lang=} and {@code Accept-Language}. */
    public static Language choose(Optional<String> parameter, Optional<String> acceptLanguage) {
        Optional<Language> asked = parameter.filter(p -> p.length() <= MAX_PARAMETER).flatMap(Language::find);
        if (asked.isPresent()) {
            return asked.get();
        }
        for (String tag : preferred(acceptLanguage.orElse(""))) {
            Optional<Language> l = Language.find(tag);
            if (l.isPresent()) {
                return l.get();
            }
        }
        return Language.EN;
    }

    /**
     * The language of a request's answer by the same rules: its {@code lang} query parameter, else its
     * {@code Accept-Language}, else English. The page and the PDF reports the page links to use it.
     */
    public static Language of(Context ctx) {
        return choose(Optional.ofNullable(ctx.queryParam("lang")), Optional.ofNullable(ctx.header("Accept-Language")));
    }

    /**
     * The language ranges of an {@code Accept-Language} value the reader accepts (q above 0), most wanted first
     * (equal q-values in the header's order); ranges that are not well formed are skipped, and only the first
     * {@link #MAX_ACCEPT_LANGUAGE} characters are read.
     */
    static List<String> preferred(String header) {
        String h = header;
        if (h.length() > MAX_ACCEPT_LANGUAGE) {
            h = h.substring(0, MAX_ACCEPT_LANGUAGE);
            int comma = h.lastIndexOf(',');
            h = comma < 0 ? "" : h.substring(0, comma);
        }
        record Weighted(String tag, int q) {}
        List<Weighted> ranges = new ArrayList<>();
        for (String part : h.split(",")) {
            Matcher m = RANGE.matcher(part);
            if (m.matches()) {
                int q = m.group(2) == null ? 1000 : Math.round(Float.parseFloat(m.group(2)) * 1000);
                if (q > 0 && !m.group(1).equals("*")) {
                    ranges.add(new Weighted(m.group(1), q));
                }
            }
        }
        ranges.sort(Comparator.comparingInt(Weighted::q).reversed());
        return ranges.stream().map(Weighted::tag).toList();
    }
}
