// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.List;
import java.util.Optional;
import org.proofmode.c2pa.C2paFormatException;
import org.proofmode.c2pa.ManifestChain;
import org.proofmode.imaging.ExifGroup;

/**
 * What a redacted copy's content credentials keep of the original's (C2PA 2.2 section 11.4): the whole
 * chain of manifests, except the assertions that would give away what the redaction took out. Those are
 * redacted: thumbnails (they show the picture before regions were hidden, so every one goes once a region
 * is hidden), and assertions recording a location or a device identifier when the strip policy removes
 * that group from the copy's EXIF.
 *
 * <p>Security: only assertions the specification lets a later claim redact can go; a location written
 * into an actions assertion or a hard binding, or into pixels, stays (see docs/threat-model.md).
 */
final class EarlierCredentials {
    private EarlierCredentials() {}

    /** The original's credentials, or empty when it has none or they cannot be read (then it is named by hash only). */
    static Optional<ManifestChain> chain(byte[] original) {
        try {
            return ManifestChain.of(original);
        } catch (C2paFormatException e) {
            return Optional.empty();
        }
    }

    static List<ManifestChain.Revealing> toRedact(ManifestChain chain, StripPolicy strip, List<Region> regions) {
        boolean location = !strip.kept().contains(ExifGroup.LOCATION);
        boolean device = !strip.kept().contains(ExifGroup.DEVICE);
        return chain.revealing(true).stream().filter(r -> r.why().equals(ManifestChain.THUMBNAIL) ? !regions.isEmpty() || location || device
                : location && r.why().contains(ManifestChain.LOCATION) || device && r.why().contains(ManifestChain.DEVICE)).toList();
    }
}
