// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import java.io.PrintWriter;
import java.util.Locale;

/** A one-line progress bar on stderr, redrawn at most ten times a second; silent when not on a terminal. */
public final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean enabled;
    private final long totalBytes;
    private final int totalFiles;
    private final long start = System.nanoTime();
    private long bytes;
    private int files;
    private long lastDraw;

    public ProgressBar(PrintWriter err, boolean enabled, long totalBytes, int totalFiles) {
        this.err = err;
        this.enabled = enabled;
        this.totalBytes = Math.max(totalBytes, 1);
        this.totalFiles = totalFiles;
    }

    public synchronized void bytes(long n) {
        bytes += n;
        draw(false);
    }

    public synchronized void fileDone() {
        files++;
        draw(false);
    }

    /** Prints something on the terminal without the bar in its way: clears its line, prints, draws it again. */
    public synchronized void around(Runnable print) {
        if (!enabled) {
            print.run();
            return;
        }
        err.print("\r" + " ".repeat(WIDTH + 60) + "\r");
        err.flush();
        print.run();
        draw(true);
    }

    public synchronized void finish() {
        if (enabled) {
            err.print("\r" + " ".repeat(WIDTH + 60) + "\r");
            err.flush();
        }
    }

    private void draw(boolean force) {
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        if (!force && now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        double frac = Math.min(1.0, (double) bytes / totalBytes);
        int filled = (int) (frac * WIDTH);
        double secs = Math.max((now - start) / 1e9, 1e-3);
        err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%%  %d/%d files  %.1f MB/s ",
                "#".repeat(filled), ".".repeat(WIDTH - filled), (int) (frac * 100), files, totalFiles,
                bytes / secs / 1e6));
        err.flush();
    }
}
