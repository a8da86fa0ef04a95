// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

/** Receives the watcher's events, one at a time, from any of its threads. */
@FunctionalInterface
public interface WatchListener {
    /**
     * Called for each event; must not block for long.
     *
     * @param event what happened
     */
    void on(WatchEvent event);
}
