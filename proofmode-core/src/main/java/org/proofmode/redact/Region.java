// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.Objects;
import org.proofmode.imaging.Box;

/**
 * One redacted region.
 *
 * @param box where, in the image as displayed
 * @param method how it is hidden
 * @param source who chose it: the person, or face detection
 */
public record Region(Box box, Method method, Source source) {
    /** Who chose a region. */
    public enum Source {
        /** Given by the person ({@code --pixelate X,Y,W,H}...). */
        MANUAL,
        /** Found by face detection and kept by the person. */
        FACE;

        /** {@code manual} or {@code face}. */
        public String id() {
            return EnumIds.id(this);
        }

        static Source of(String id) {
            return EnumIds.of(Source.class, id, "region source");
        }
    }

    /** Validates the fields. */
    public Region {
        Objects.requireNonNull(box, "box");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(source, "source");
    }

    /**
     * Parses {@code X,Y,W,H}.
     *
     * @throws IllegalArgumentException if it is not four non-negative integers with W and H at least 1
     */
    public static Box parseBox(String text) {
        String[] p = text.trim().split("\\s*,\\s*");
        if (p.length != 4) {
            throw new IllegalArgumentException("'" + text + "' is not X,Y,W,H");
        }
        try {
            return new Box(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not X,Y,W,H in whole pixels", e);
        }
    }
}
