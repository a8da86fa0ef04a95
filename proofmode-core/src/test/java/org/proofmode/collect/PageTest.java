// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageTest {
    @TempDir
    Path tmp;

    @Test
    void read_findsEmbeddedMediaOnceAbsolute_forImgVideoAudioSourceAndOpenGraph() throws Exception {
        Path html = Files.writeString(tmp.resolve("p.html"), "<html><head><title>A post</title>"
                + "<meta property=\"og:image\" content=\"/a.jpg\"><meta property=\"og:video\" content=\"https://cdn.example/v.mp4\">"
                + "<meta property=\"og:title\" content=\"not media\"></head><body>"
                + "<img src=\"a.jpg\"><img src=\"data:image/png;base64,AAAA\"><img src=\"javascript:alert(1)\">"
                + "<video src=\"clip.mp4\"></video><audio><source src=\"../s.mp3\"></audio><a href=\"/not-media.jpg\">x</a>"
                + "</body></html>");

        Page p = Page.read(html, URI.create("https://example.org/posts/1"));

        assertThat(p.title()).contains("A post");
        assertThat(p.media()).containsExactly(URI.create("https://example.org/posts/a.jpg"), URI.create("https://example.org/posts/clip.mp4"),
                URI.create("https://example.org/s.mp3"), URI.create("https://example.org/a.jpg"), URI.create("https://cdn.example/v.mp4"));
    }

    @Test
    void isHtml_acceptsOnlyHtmlTypes_forContentTypes() {
        assertThat(Page.isHtml(Optional.of("text/html; charset=utf-8"))).isTrue();
        assertThat(Page.isHtml(Optional.of("application/xhtml+xml"))).isTrue();
        assertThat(Page.isHtml(Optional.of("image/jpeg"))).isFalse();
        assertThat(Page.isHtml(Optional.empty())).isFalse();
    }

    @Test
    void extension_isMadeHereNeverTakenWhole_forHostileNames() {
        assertThat(MediaNames.extension(URI.create("https://x/a.JPG"), Optional.empty())).isEqualTo(".jpg");
        assertThat(MediaNames.extension(URI.create("https://x/evil.sh%0A"), Optional.of("video/mp4"))).isEqualTo(".mp4");
        assertThat(MediaNames.extension(URI.create("https://x/..%2F..%2Fetc"), Optional.empty())).isEmpty();
        assertThat(MediaNames.extension(URI.create("https://x/a.verylongext"), Optional.empty())).isEmpty();
    }
}
