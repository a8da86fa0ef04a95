// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.proofmode.watch.WatchEvent;
import org.proofmode.watch.WatchEvent.Kind;

/** The watcher's log lines, and what they keep back in a home whose proof store is encrypted. */
class WatchLogTest {
    private static final String PATH = "/home/anna/Pictures/Import/protest-2026.jpg";
    private static final String HASH = "ab".repeat(32);

    private static WatchEvent event(Kind kind, String... pairs) {
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            f.put(pairs[i], pairs[i + 1]);
        }
        return new WatchEvent(Instant.parse("2026-12-06T01:00:00Z"), kind, f);
    }

    private static final List<WatchEvent> EVENTS = List.of(
            event(Kind.STARTED, "folders", "/home/anna/Pictures/Import,/media/anna/card", "known", "12"),
            event(Kind.WATCHING, "folder", "/home/anna/Pictures/Import"),
            event(Kind.DETECTED, "path", PATH, "by", "event", "size", "123456"),
            event(Kind.PROVED, "path", PATH, "sha256", HASH, "detectedAt", "2026-12-06T00:59:59Z"),
            event(Kind.RETRY, "path", PATH, "attempt", "2", "retryInMs", "2000", "error", PATH + ": Permission denied"),
            event(Kind.ERROR, "folder", "/media/anna/card", "error", "cannot watch: /media/anna/card: gone"),
            event(Kind.TIMESTAMP, "sha256", HASH, "kind", "rfc3161"));

    private static String lines(WatchLog.Format format, boolean sealed) {
        StringWriter out = new StringWriter();
        WatchLog log = new WatchLog(new PrintWriter(out), format, sealed);
        EVENTS.forEach(log::on);
        return out.toString();
    }

    @Test
    void on_linesNameNoPathFolderOrHash_encryptedHome() {
        for (WatchLog.Format f : WatchLog.Format.values()) {
            String sealed = lines(f, true);
            assertThat(sealed).doesNotContain("/home/anna", "/media/anna", "protest", HASH, "Permission denied", "123456")
                    .contains("proved", "started", "retry", "timestamp");
            assertThat(sealed.lines()).hasSize(EVENTS.size());
        }
        String text = lines(WatchLog.Format.TEXT, true);
        assertThat(text).contains("started folders=2 known=12", "retry attempt=2 retryInMs=2000 error=withheld",
                "error error=\"cannot watch\"", "timestamp kind=rfc3161");
    }

    @Test
    void on_linesNamePathsAndHashes_plainHome() {
        String plain = lines(WatchLog.Format.JSON, false);
        assertThat(plain).contains(PATH, HASH, "/media/anna/card");
    }
}
