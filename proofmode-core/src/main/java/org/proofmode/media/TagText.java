// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

/** Text of a media tag as it goes into a proof. */
public final class TagText {
    private TagText() {}

    /** Control characters and padding that some cameras write are dropped; the rest is kept as written. */
    public static String clean(String v) {
        return v.replaceAll("[\\p{Cntrl}&&[^\\t]]", "").strip();
    }
}
