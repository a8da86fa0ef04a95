// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.util.List;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * Adds fields to a proof record: what the device and the file knew when the proof was made. A source
 * that fails adds a warning to the record and never fails the proof.
 */
public interface MetadataSource {
    /** A short name used in warnings, e.g. {@code Device}. */
    String name();

    /**
     * Adds this source's fields.
     *
     * @param media the media being proved
     * @param record where the fields go
     * @throws Exception if the source cannot contribute; the caller records a warning
     */
    void contribute(MediaFile media, ProofRecord.Builder record) throws Exception;

    /**
     * Runs sources in order; a source that fails adds a warning under its name and the others still run.
     *
     * @param sources the sources
     * @param media the media being proved
     * @param record where the fields and warnings go
     */
    static void contributeAll(List<MetadataSource> sources, MediaFile media, ProofRecord.Builder record) {
        for (MetadataSource s : sources) {
            try {
                s.contribute(media, record);
            } catch (Exception e) {
                String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                record.warn(s.name(), m.replaceAll("\\s+", " "));
            }
        }
    }
}
