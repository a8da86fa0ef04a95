// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.util.StringUtil;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import org.proofmode.report.PlainNames;
import org.proofmode.report.ReportMeanings;

/**
 * The verification page ({@code GET /}) in the reader's language ({@link PageLanguage}): its template
 * ({@code page/index.html}) with every sentence taken from the {@link Texts} keys {@code page.*}, escaped, the
 * {@code page.js.*} sentences and what each check code means ({@link ReportMeanings#known}) handed to its scripts
 * as JSON, {@code <html lang dir>} set, and a switch to every other language that keeps the rest of the address.
 *
 * <p>In the template, {@code {{KEY}}} is a sentence; {@code {{KEY|HTML|HTML}}} a sentence whose placeholders
 * {@code {0}}, {@code {1}} are the template's own HTML, in which {@code [[KEY]]} is a sentence again.
 *
 * <p>Security: every sentence is escaped before it goes into the page, and only the template's own markup is put
 * in for its placeholders, so a translation cannot add markup; the JSON escapes {@code <}, {@code >} and {@code &}
 * so it cannot end its script element. The answer varies by {@code Accept-Language} and says so ({@code Vary}).
 */
public final class WebPage {
    private static final Pattern MARK = Pattern.compile("\\{\\{([a-z][A-Za-z0-9._]*)((?:\\|[^|}]*)*)}}");
    private static final Pattern NESTED = Pattern.compile("\\[\\[(page\\.[A-Za-z0-9._]+)]]");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)");
    private static final String JS_PREFIX = "page.js.";
    /** The scripts' texts also name a record's fields plainly ({@link PlainNames}), each under this prefix and the field's own name. */
    static final String FIELD_PREFIX = "field:";
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        JSON.getFactory().setCharacterEscapes(new ScriptSafe());
    }

    private final String template;
    private final Map<Language, String> scriptTexts = new EnumMap<>(Language.class);
    private final Map<Language, String> meanings = new EnumMap<>(Language.class);

    /** Reads the page's template, and makes each language's JSON for the scripts once. */
    public WebPage() {
        for (Language l : Language.values()) {
            scriptTexts.put(l, scriptTexts(Texts.of(l)));
            meanings.put(l, scriptMeanings(l));
        }
        try (InputStream in = WebPage.class.getResourceAsStream("/org/proofmode/server/page/index.html")) {
            if (in == null) {
                throw new IllegalStateException("missing page/index.html");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers {@code GET /}: the page in the language the request chooses. */
    public void serve(Context ctx) {
        Language language = PageLanguage.of(ctx);
        ctx.header("Content-Language", language.tag());
        ctx.header("Vary", "Accept-Language");
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/html; charset=utf-8").result(render(language, Optional.ofNullable(ctx.queryString())));
    }

    /** The page in a language; {@code query} is the request's query, whose other parameters the switch keeps. */
    String render(Language language, Optional<String> query) {
        Texts texts = Texts.of(language);
        Matcher m = MARK.matcher(template);
        StringBuilder out = new StringBuilder(template.length() + 16_384);
        while (m.find()) {
            String key = m.group(1);
            String html = switch (key) {
                case "lang" -> language.tag();
                case "dir" -> language.rightToLeft() ? "rtl" : "ltr";
                case "texts" -> scriptTexts.get(language);
                case "meanings" -> meanings.get(language);
                case "languages" -> switcher(language, query.orElse(""));
                default -> sentence(texts, key, fragments(texts, m.group(2)));
            };
            m.appendReplacement(out, Matcher.quoteReplacement(html));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * A sentence as HTML: the text escaped, then each placeholder replaced by its fragment (markup the page
     * itself wrote). A sentence without placeholders is as written; one with them is a MessageFormat pattern.
     */
    static String sentence(Texts texts, String key, List<String> fragments) {
        if (fragments.isEmpty()) {
            return escape(texts.get(key));
        }
        Object[] marks = new Object[fragments.size()];
        for (int i = 0; i < marks.length; i++) {
            marks[i] = "\uE000" + i + "\uE001"; // private-use characters, which escaping keeps and no sentence has
        }
        String html = escape(texts.get(key, marks));
        for (int i = 0; i < marks.length; i++) {
            html = html.replace((String) marks[i], fragments.get(i));
        }
        return html;
    }

    private static List<String> fragments(Texts texts, String spec) {
        List<String> out = new ArrayList<>();
        if (spec.isEmpty()) {
            return out;
        }
        for (String f : spec.substring(1).split("\\|", -1)) {
            Matcher n = NESTED.matcher(f);
            out.add(n.replaceAll(r -> Matcher.quoteReplacement(escape(texts.get(r.group(1))))));
        }
        return out;
    }

    /** The scripts' sentences as a JSON object, their placeholders left as {0}, {1} for the script to fill. */
    static String scriptTexts(Texts texts) {
        Map<String, String> js = new LinkedHashMap<>();
        for (String key : Texts.of(Language.EN).keys()) {
            if (key.startsWith(JS_PREFIX)) {
                String pattern = texts.pattern(key).orElseGet(() -> Texts.of(Language.EN).pattern(key).orElseThrow());
                Matcher p = PLACEHOLDER.matcher(pattern);
                int count = 0;
                while (p.find()) {
                    count = Math.max(count, Integer.parseInt(p.group(1)) + 1);
                }
                Object[] args = new Object[count];
                for (int i = 0; i < count; i++) {
                    args[i] = "{" + i + "}";
                }
                js.put(key, count == 0 ? texts.get(key) : texts.get(key, args));
            }
        }
        PlainNames.all(texts).forEach((field, name) -> js.put(FIELD_PREFIX + field, name));
        return json(js);
    }

    /** What each check code means in a language, as a JSON object keyed by the code (the English is {@code Meanings}). */
    static String scriptMeanings(Language language) {
        return json(ReportMeanings.known(language));
    }

    private static String json(Map<String, String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Links to every language, each with the request's other query parameters kept; the current one marked. */
    private static String switcher(Language current, String query) {
        StringBuilder kept = new StringBuilder();
        for (String part : query.split("&")) {
            if (!part.isEmpty() && !parameterName(part).equals("lang")) {
                kept.append(part).append('&');
            }
        }
        StringBuilder out = new StringBuilder();
        for (Language l : Language.values()) {
            out.append("<a href=\"").append(escape("?" + kept + "lang=" + l.tag())).append("\" hreflang=\"").append(l.tag())
                    .append("\" lang=\"").append(l.tag()).append("\" dir=\"").append(l.rightToLeft() ? "rtl" : "ltr").append('"')
                    .append(l == current ? " aria-current=\"true\"" : "").append('>')
                    .append(escape(Texts.of(l).get("page.lang.name"))).append("</a> ");
        }
        return out.toString().strip();
    }

    /** A query parameter's name, decoded; as written when it is not well encoded. */
    private static String parameterName(String part) {
        String raw = part.split("=", 2)[0];
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }

    private static String escape(String text) {
        return StringUtil.sanitizeXmlString(text);
    }

    /** Escapes what could end a script element or start markup inside it. */
    private static final class ScriptSafe extends CharacterEscapes {
        private final int[] escapes;

        ScriptSafe() {
            escapes = standardAsciiEscapesForJSON();
            escapes['<'] = ESCAPE_STANDARD;
            escapes['>'] = ESCAPE_STANDARD;
            escapes['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
