// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The EXIF fields a redacted JPEG may carry, by what they reveal. Nothing outside these groups is ever
 * written back: no orientation (the pixels are turned already), no maker note, no user comment, no
 * image unique ID, no thumbnail.
 */
public enum ExifGroup {
    /** When and how the picture was taken: times, exposure, aperture, ISO, focal length, flash. */
    CAPTURE(Map.of(
            ExifGroup.ROOT, Set.of(0x0132),
            ExifGroup.EXIF, Set.of(0x9003, 0x9004, 0x9010, 0x9011, 0x9012, 0x829A, 0x829D, 0x8822, 0x8827, 0x9204,
                    0x9207, 0x9209, 0x920A, 0xA403, 0xA405))),
    /** What took it and whose it is: make, model, software, lens, serial numbers, owner, artist, copyright. */
    DEVICE(Map.of(
            ExifGroup.ROOT, Set.of(0x010F, 0x0110, 0x0131, 0x013B, 0x013C, 0x8298),
            ExifGroup.EXIF, Set.of(0xA430, 0xA431, 0xA432, 0xA433, 0xA434, 0xA435))),
    /** Where: the whole GPS directory. */
    LOCATION(Map.of(ExifGroup.GPS, IntStream.rangeClosed(0, 0x1F).boxed()
            .collect(Collectors.toUnmodifiableSet())));

    /** commons-imaging's directory types: IFD0, the EXIF sub-directory, the GPS sub-directory. */
    static final int ROOT = 0;
    static final int EXIF = -2;
    static final int GPS = -3;

    private final Map<Integer, Set<Integer>> tags;

    ExifGroup(Map<Integer, Set<Integer>> tags) {
        this.tags = tags;
    }

    /** Whether a tag of a directory belongs to this group. */
    boolean has(int directoryType, int tag) {
        return tags.getOrDefault(directoryType, Set.of()).contains(tag);
    }
}
