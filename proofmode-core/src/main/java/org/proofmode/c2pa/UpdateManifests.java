// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.media.JpegSegments;

/**
 * The data hash of a manifest read through an update manifest (C2PA 2.2 section 11.2, "Update
 * manifests"): when the parent manifest was signed, its data hash excluded the manifest store as it was
 * then; an update manifest adds to that store, which grows in place. The exclusion that starts where the
 * store starts is widened to the store as it is now, and exclusions after it move by as much (what the
 * reference does). Only JPEG stores are located here; in other containers the exclusions stay as written.
 */
final class UpdateManifests {
    private static final int MAX_SEGMENTS = 1_000_000;

    private UpdateManifests() {}

    /** The exclusions adjusted to the store's current extent. */
    static List<DataHash.Range> adjust(List<DataHash.Range> exclusions, ByteSource src, AssetFormat format) throws IOException {
        if (format != AssetFormat.JPEG) {
            return exclusions;
        }
        Optional<DataHash.Range> store = jpegStore(src);
        if (store.isEmpty()) {
            return exclusions;
        }
        DataHash.Range now = store.get();
        long grow = 0;
        for (DataHash.Range r : exclusions) {
            if (r.start() == now.start()) {
                grow = Math.max(0, now.length() - r.length());
            }
        }
        if (grow == 0) {
            return exclusions;
        }
        List<DataHash.Range> out = new ArrayList<>();
        for (DataHash.Range r : exclusions) {
            if (r.start() == now.start()) {
                out.add(now);
            } else if (r.start() > now.start()) {
                out.add(new DataHash.Range(r.start() + grow, r.length()));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /** From the first APP11 JUMBF segment to the end of the last one, before the image data. */
    static Optional<DataHash.Range> jpegStore(ByteSource src) throws IOException {
        long[] span = {-1, -1};
        JpegSegments.walk(src, MAX_SEGMENTS, m -> m == JpegSegments.APP11, s -> {
            if (s.length() >= 4) {
                byte[] ci = src.read(s.payload(), 2);
                if (ci[0] == 'J' && ci[1] == 'P') {
                    span[0] = span[0] < 0 ? s.offset() : span[0];
                    span[1] = s.end();
                }
            }
            return true;
        });
        return span[0] < 0 ? Optional.empty() : Optional.of(new DataHash.Range(span[0], span[1] - span[0]));
    }
}
