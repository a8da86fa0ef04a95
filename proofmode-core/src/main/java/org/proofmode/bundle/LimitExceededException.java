// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.IOException;

/** A bundle entry exceeded a {@link BundleLimits} bound while it was read: the bundle is hostile or corrupt. */
public final class LimitExceededException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a one-line message naming the entry. */
    public LimitExceededException(String message) {
        super(message);
    }
}
