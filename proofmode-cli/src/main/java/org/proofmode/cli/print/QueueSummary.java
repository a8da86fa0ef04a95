// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.print;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/** The line a {@code sync} command ends with: what its offline queue still holds, and when it is tried next. */
public final class QueueSummary {
    private QueueSummary() {}

    /**
     * Prints {@code proofmode: the <queue> is empty}, or how many are left and the next try.
     *
     * @param queue the queue's name, such as {@code timestamp queue}
     * @param unit what it holds, such as {@code request(s)}
     * @param nextTries when each item left is due
     */
    public static void print(PrintWriter err, String queue, String unit, Collection<Instant> nextTries) {
        if (nextTries.isEmpty()) {
            err.println("proofmode: the " + queue + " is empty");
            return;
        }
        Optional<Instant> next = nextTries.stream().min(Instant::compareTo);
        err.println("proofmode: " + nextTries.size() + " " + unit + " still queued; next try after "
                + next.map(Instant::toString).orElse("?") + " (or now, with --now)");
    }
}
