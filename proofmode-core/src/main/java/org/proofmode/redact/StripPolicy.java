// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.EnumSet;
import java.util.Set;
import org.proofmode.imaging.ExifGroup;

/**
 * What metadata a redacted copy keeps. The copy is always encoded afresh, so everything that is not
 * written back on purpose is gone: XMP (with its history and document IDs), IPTC, comments, maker
 * notes, ICC profiles, and the EXIF thumbnail and preview images, which would still show the unredacted
 * picture. Only JPEG copies get EXIF fields back, and only from an allow-list.
 */
public enum StripPolicy {
    /** Keep nothing (the default). */
    ALL(EnumSet.noneOf(ExifGroup.class)),
    /** Remove the location; keep capture settings and device fields. */
    LOCATION(EnumSet.of(ExifGroup.CAPTURE, ExifGroup.DEVICE)),
    /** Remove device and owner fields (make, model, serial numbers, software, owner); keep capture settings and location. */
    DEVICE(EnumSet.of(ExifGroup.CAPTURE, ExifGroup.LOCATION)),
    /** Keep capture settings, device fields and location (still no thumbnail, maker note, XMP or IPTC). */
    NONE(EnumSet.allOf(ExifGroup.class));

    private final EnumSet<ExifGroup> kept;

    StripPolicy(EnumSet<ExifGroup> kept) {
        this.kept = kept;
    }

    /** The EXIF groups written back. */
    public Set<ExifGroup> kept() {
        return EnumSet.copyOf(kept);
    }

    /** {@code all}, {@code location}, {@code device} or {@code none}. */
    public String id() {
        return EnumIds.id(this);
    }

    static StripPolicy of(String id) {
        return EnumIds.of(StripPolicy.class, id, "strip policy");
    }
}
