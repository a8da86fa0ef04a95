// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.MediaType;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;

/**
 * What a proof of a file would record now, read without a key and without writing anything: the file is
 * hashed and every metadata source runs ({@code proofmode inspect}, and the context a content-credential
 * manifest carries). The record is the one {@link Prover} would sign, without {@code proof.signer}.
 */
public final class ContextReader {
    private final List<MetadataSource> sources;
    private final Clock clock;

    /**
     * @param sources the metadata sources a proof would run
     * @param clock gives the record's time
     */
    public ContextReader(List<MetadataSource> sources, Clock clock) {
        this.sources = List.copyOf(sources);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Builds the record a proof of this file would have now.
     *
     * @param file the media file
     * @return the record, without {@code Proof.Signer}
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the file does not exist,
     *     {@link Failure#BAD_ARGUMENT} if it is a folder, {@link Failure#UNSUPPORTED} if it is not media we
     *     recognise, {@link Failure#IO} if it cannot be read
     */
    public ProofRecord read(Path file) {
        Path path = file.toAbsolutePath().normalize();
        MediaType type = Prover.sniff(file, path).orElseThrow(() -> new ProofModeException(Failure.UNSUPPORTED,
                file + ": not a photo, video or audio file we recognise"));
        Prehash hashed;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
            hashed = StreamSigner.digest(in, StreamSigner.Progress.NONE);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        ProofRecord.Builder b = context(sources, new MediaFile(path, type, Prover.size(file, path), now));
        return Prover.finish(b, hashed.sha256(), now, Optional.empty(), Optional.empty());
    }

    /**
     * Runs the metadata sources; the record's first fields are the file's name (its full path only when a
     * source puts it there: {@code context.file-path full}) and (still empty) hash.
     */
    static ProofRecord.Builder context(List<MetadataSource> sources, MediaFile media) {
        ProofRecord.Builder b = ProofRecord.builder();
        Path name = media.path().getFileName();
        b.put(ProofFields.FILE_PATH, (name != null ? name : media.path()).toString());
        b.put(ProofFields.FILE_HASH_SHA256, "");
        MetadataSource.contributeAll(sources, media, b);
        return b;
    }
}
