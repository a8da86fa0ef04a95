// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * What a collected HTML page embeds, read with jsoup: the {@code src} of {@code img}, {@code video},
 * {@code audio} and {@code source}, and the {@code og:image} and {@code og:video} meta properties, made
 * absolute against the page's address; and its title. Everything here came from the page: untrusted.
 *
 * @param title the page's title, as written (escape it before showing it)
 * @param media the media addresses, http(s) only, each once, in document order
 */
record Page(Optional<String> title, List<URI> media) {
    /** Pages larger than this are not parsed for media (the page itself is still kept). */
    static final long MAX_PARSED_BYTES = 8L << 20;

    private static final List<String> OG = List.of("og:image", "og:image:url", "og:image:secure_url", "og:video",
            "og:video:url", "og:video:secure_url");

    Page {
        media = List.copyOf(media);
    }

    /** Whether a response's content type is HTML. */
    static boolean isHtml(Optional<String> contentType) {
        return contentType.map(t -> t.toLowerCase(Locale.ROOT).trim()).filter(t -> t.startsWith("text/html")
                || t.startsWith("application/xhtml+xml")).isPresent();
    }

    /**
     * Reads a page's title and media.
     *
     * @param html the body as kept
     * @param base the page's final address
     * @throws IOException if the file cannot be read
     */
    static Page read(Path html, URI base) throws IOException {
        Document doc = Jsoup.parse(html.toFile(), null, base.toString());
        Set<URI> out = new LinkedHashSet<>();
        for (Element e : doc.select("img[src], video[src], audio[src], source[src]")) {
            absolute(e.absUrl("src")).ifPresent(out::add);
        }
        for (Element e : doc.select("meta[property], meta[name]")) {
            String p = (e.hasAttr("property") ? e.attr("property") : e.attr("name")).toLowerCase(Locale.ROOT).trim();
            if (OG.contains(p)) {
                absolute(e.absUrl("content")).ifPresent(out::add);
            }
        }
        String title = doc.title();
        return new Page(title.isEmpty() ? Optional.empty() : Optional.of(title), new ArrayList<>(out));
    }

    private static Optional<URI> absolute(String url) {
        if (url.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null
                    ? Optional.of(u.normalize()) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
