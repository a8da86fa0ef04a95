package org.proofmode.proof;

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
}
