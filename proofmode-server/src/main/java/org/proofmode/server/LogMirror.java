// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.proofmode.server.http.LogApi;
import org.proofmode.server.store.LogStore;
import org.proofmode.server.store.S3BlobStore;
import org.proofmode.tlog.Tiles;

/**
 * Copies the transparency log to the bucket for static serving ({@code serve --log-to-bucket}): under
 * {@code <prefix>/log/} the same C2SP {@code tlog-tiles} paths as {@code GET /log/...}, so that the bucket (or
 * a CDN in front of it) serves the log without any server: {@code checkpoint}, {@code tile/<L>/<N>[.p/<W>]}
 * and {@code tile/entries/<N>[.p/<W>]}, with the headers the server gives them.
 *
 * <p>After each round of the sequencer, the tiles the served tree has and the last copied one had not are
 * written first (tiles never change, so any instance may write them, twice is harmless), then the checkpoint,
 * last, so a reader never sees a checkpoint whose tiles are not there. The checkpoint is written while the
 * instance holds the database's {@code log_mirror} row: instances take turns, and the bucket's checkpoint never
 * goes back to an older tree.
 */
final class LogMirror {
    private final LogStore log;
    private final S3BlobStore bucket;
    private final int quorum;

    LogMirror(LogStore log, S3BlobStore bucket, int quorum) {
        this.log = Objects.requireNonNull(log, "log");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.quorum = quorum;
    }

    /**
     * Brings the bucket's copy up to the checkpoint served now.
     *
     * @throws UncheckedIOException if the bucket refuses a write (the next round tries again)
     */
    void copy() {
        LogStore.Served served = log.served(quorum);
        LogStore.Served before = log.mirrored();
        if (served.size() < before.size() || served.note().equals(before.note())) {
            return;
        }
        Set<Tiles.Tile> fresh = new LinkedHashSet<>(Tiles.of(served.size()));
        Tiles.of(before.size()).forEach(fresh::remove);
        try {
            for (Tiles.Tile t : fresh) {
                put(t.path(), new Tiles.Request(t, false));
                if (t.level() == 0) {
                    put(t.entriesPath(), new Tiles.Request(t, true));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        log.advanceMirror(served, s -> {
            try {
                bucket.putPublic("log/checkpoint", s.note().getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8",
                        LogApi.CHECKPOINT_CACHE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private void put(String path, Tiles.Request request) throws IOException {
        byte[] data = log.tile(request).orElseThrow(() -> new IllegalStateException("the log has no " + path));
        bucket.putPublic("log/" + path, data, "application/octet-stream", LogApi.TILE_CACHE);
    }
}
