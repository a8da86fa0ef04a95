// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

/** Where a watched file stands. */
public enum FileState {
    /** Seen, not proved yet: waiting until it is complete, being proved, or waiting to be retried. */
    PENDING,
    /** Its content, as last seen, has a proof (made now or earlier). */
    DONE,
    /** Not a photo, video or audio file we recognise. */
    SKIPPED,
    /** Could not be read after every retry; tried again when it changes or the watcher restarts. */
    FAILED
}
