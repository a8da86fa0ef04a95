// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.proofmode.context.MetadataSource;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * The proof context of a media file taken from a collected page: the page's address, the media's own
 * address and the collection record's SHA-256, so that the proof of the file says where it was found.
 */
public final class CollectedFrom implements MetadataSource {
    /** The page the media was embedded in. */
    public static final String PAGE = "Collection.Page";
    /** The media's own address. */
    public static final String SOURCE = "Collection.Source";
    /** The collection record's SHA-256. */
    public static final String RECORD = "Collection.Record";
    /** When the page was collected. */
    public static final String COLLECTED = "Collection.Time";

    private final Map<Path, CollectionRecord.MediaEntry> byPath = new HashMap<>();
    private final CollectionRecord record;
    private final String recordSha256;

    /** The context of the media of a collection in place. */
    public CollectedFrom(Collector.Result collection) {
        this.record = collection.record();
        this.recordSha256 = collection.recordSha256();
        for (CollectionRecord.MediaEntry m : record.media()) {
            byPath.put(collection.folder().resolve(m.file()).toAbsolutePath().normalize(), m);
        }
    }

    /** The media files of the collection, in the record's order. */
    public java.util.List<Path> files() {
        return java.util.List.copyOf(byPath.keySet()).stream().sorted().toList();
    }

    @Override
    public String name() {
        return "Collection";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder out) {
        CollectionRecord.MediaEntry m = byPath.get(media.path().toAbsolutePath().normalize());
        if (m == null) {
            return;
        }
        out.put(PAGE, record.finalUrl());
        out.put(SOURCE, m.uri());
        out.put(RECORD, recordSha256);
        out.put(COLLECTED, record.collected());
    }
}
