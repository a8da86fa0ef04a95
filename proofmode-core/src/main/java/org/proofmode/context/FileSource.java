// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/**
 * The file's own facts: times, size and type, and, when the settings ask for it
 * ({@code context.file-path full}), its full path in place of the name the prover records.
 */
public final class FileSource implements MetadataSource {
    private final boolean fullPath;

    /** A source that leaves the file named by its name only. */
    public FileSource() {
        this(false);
    }

    /**
     * A source that records the file's full path when {@code fullPath} is set.
     *
     * @param fullPath record the absolute path (the {@code context.file-path full} setting)
     */
    public FileSource(boolean fullPath) {
        this.fullPath = fullPath;
    }
    @Override
    public String name() {
        return "File";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) throws Exception {
        if (fullPath) {
            record.put(ProofFields.FILE_PATH, media.path().toAbsolutePath().normalize().toString());
        }
        BasicFileAttributes attrs = Files.readAttributes(media.path(), BasicFileAttributes.class);
        record.put(ProofFields.FILE_CREATED, ProofTimes.format(attrs.creationTime().toInstant()));
        record.put(ProofFields.FILE_MODIFIED, ProofTimes.format(attrs.lastModifiedTime().toInstant()));
        record.put(ProofFields.FILE_SIZE, Long.toString(media.size()));
        record.put(ProofFields.FILE_MEDIA_TYPE, media.type().mimeType());
    }
}
