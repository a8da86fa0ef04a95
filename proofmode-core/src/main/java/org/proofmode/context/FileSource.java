// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/** The file's own facts: path, times, size and type. */
public final class FileSource implements MetadataSource {
    @Override
    public String name() {
        return "File";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) throws Exception {
        BasicFileAttributes attrs = Files.readAttributes(media.path(), BasicFileAttributes.class);
        record.put(ProofFields.FILE_CREATED, ProofTimes.format(attrs.creationTime().toInstant()));
        record.put(ProofFields.FILE_MODIFIED, ProofTimes.format(attrs.lastModifiedTime().toInstant()));
        record.put(ProofFields.FILE_SIZE, Long.toString(media.size()));
        record.put(ProofFields.FILE_MEDIA_TYPE, media.type().mimeType());
    }
}
