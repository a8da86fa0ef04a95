package org.proofmode.prove;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.proofmode.Failure;
import org.proofmode.ProofModeException;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.MediaSniffer;
import org.proofmode.media.MediaType;
import org.proofmode.metadata.J3m;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.MetadataSource;
import org.proofmode.proof.ProofCsv;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.Signed;
import org.proofmode.sign.StreamSigner;

/**
 * Proves media files: one read of each file gives its SHA-256 and its signature; then the record is
 * built from the metadata sources, written as JSON and CSV, both signed, and the whole set is stored
 * atomically. Safe to use from several threads at once.
 */
public final class Prover {
    /** The software name and version recorded in every proof. */
    public static final String SOFTWARE = "proofmode-jvm " + version();

    private final Supplier<SigningKey> key;
    private final ProofStore store;
    private final List<MetadataSource> sources;
    private final Clock clock;
    private final boolean j3m;
    private final Guard guard;

    /**
     * A last check before a proof set is stored, after the media was read, signed and its record built:
     * a watcher uses it to drop a proof of a file that changed or vanished while it was being read.
     */
    @FunctionalInterface
    public interface Guard {
        /** Stores every proof. */
        Guard NONE = (file, sha256, size) -> { };

        /**
         * Checks that the file is still what was read.
         *
         * @param file the media file, absolute
         * @param sha256 the hash of what was read
         * @param size the number of bytes read
         * @throws ProofModeException to store nothing; the prover passes it on
         */
        void beforeStore(Path file, String sha256, long size);
    }

    /**
     * Creates a prover.
     *
     * @param key the unlocked device key
     * @param store where proof sets go
     * @param sources metadata sources, run in order
     * @param clock the time source for proof times
     */
    public Prover(SigningKey key, ProofStore store, List<MetadataSource> sources, Clock clock) {
        this(() -> key, store, sources, clock);
        Objects.requireNonNull(key, "key");
    }

    /**
     * Creates a prover whose key is still being unlocked: media are read and hashed at once, and each
     * proof waits for the key only when it is ready to be signed.
     *
     * @param key gives the unlocked device key; may block, and may throw {@link ProofModeException}
     * @param store where proof sets go
     * @param sources metadata sources, run in order
     * @param clock the time source for proof times
     */
    public Prover(Supplier<SigningKey> key, ProofStore store, List<MetadataSource> sources, Clock clock) {
        this(key, store, sources, clock, false, Guard.NONE);
    }

    private Prover(Supplier<SigningKey> key, ProofStore store, List<MetadataSource> sources, Clock clock, boolean j3m,
            Guard guard) {
        this.key = Objects.requireNonNull(key, "key");
        this.store = Objects.requireNonNull(store, "store");
        this.sources = List.copyOf(sources);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.j3m = j3m;
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * Returns a prover that also writes CameraV's J3M document, {@code <h>.j3m.json}, made from the
     * record and signed like the other proof files.
     *
     * @param on whether to write it
     */
    public Prover withJ3m(boolean on) {
        return new Prover(key, store, sources, clock, on, guard);
    }

    /**
     * Returns a prover that runs a check just before each proof set is stored.
     *
     * @param check throws to keep the proof out of the store
     */
    public Prover withGuard(Guard check) {
        return new Prover(key, store, sources, clock, j3m, check);
    }

    /**
     * Builds the record a proof of this file would have now, without a key and without writing anything:
     * the file is hashed and every metadata source runs.
     *
     * @param file the media file
     * @return the record, without {@code Proof.Signer}
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the file does not exist,
     *     {@link Failure#UNSUPPORTED} if it is not media we recognise, {@link Failure#IO} if it cannot be read
     */
    public ProofRecord inspect(Path file) {
        Path path = file.toAbsolutePath().normalize();
        MediaType type = sniff(file, path).orElseThrow(() -> new ProofModeException(Failure.UNSUPPORTED,
                file + ": not a photo, video or audio file we recognise"));
        Prehash hashed;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
            hashed = StreamSigner.digest(in, StreamSigner.Progress.NONE);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        long size;
        try {
            size = Files.size(path);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        return record(new MediaFile(path, type, hashed.sha256(), size, now), Optional.empty(), Optional.empty());
    }

    private static Optional<MediaType> sniff(Path file, Path path) {
        try {
            return MediaSniffer.sniff(path);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Options for one file. */
    public record Options(Optional<String> notes, boolean force, StreamSigner.Progress progress) {
        /** Validates the fields. */
        public Options {
            Objects.requireNonNull(notes, "notes");
            Objects.requireNonNull(progress, "progress");
        }
    }

    /**
     * Proves one file.
     *
     * @param file the media file
     * @param options notes, whether to replace an existing proof, and a progress listener
     * @return what happened; a file that is not media is {@link ProveResult.Outcome#SKIPPED}
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the file does not exist,
     *     {@link Failure#IO} if it cannot be read or the proof cannot be written
     */
    public ProveResult prove(Path file, Options options) {
        Path path = file.toAbsolutePath().normalize();
        Optional<MediaType> type;
        try {
            type = MediaSniffer.sniff(path);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        if (type.isEmpty()) {
            return ProveResult.skipped(file, "not a photo, video or audio file we recognise");
        }
        Prehash hashed;
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
            hashed = StreamSigner.digest(in, options.progress());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        String h = hashed.sha256();
        if (!options.force()) {
            Optional<Path> existing = store.find(h);
            if (existing.isPresent()) {
                return new ProveResult(file, ProveResult.Outcome.EXISTING, Optional.of(h), existing, Optional.empty());
            }
        }
        SigningKey signer = key.get();
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Signed media = StreamSigner.sign(signer, hashed, now);
        ProofRecord record = record(new MediaFile(path, type.get(), h, media.size(), now), options.notes(), Optional.of(signer));
        byte[] json = ProofJson.write(record);
        byte[] csv = ProofCsv.write(record);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(ProofFiles.mediaSig(h), ascii(media.armoredSignature()));
        files.put(ProofFiles.json(h), json);
        files.put(ProofFiles.jsonSig(h), ascii(StreamSigner.sign(signer, json, now).armoredSignature()));
        files.put(ProofFiles.csv(h), csv);
        files.put(ProofFiles.csvSig(h), ascii(StreamSigner.sign(signer, csv, now).armoredSignature()));
        if (j3m) {
            byte[] doc = J3m.write(record);
            files.put(ProofFiles.j3m(h), doc);
            files.put(ProofFiles.j3mSig(h), ascii(StreamSigner.sign(signer, doc, now).armoredSignature()));
        }
        files.put(ProofFiles.PUBKEY, OpenPgpKeys.armor(signer.certificate()));
        guard.beforeStore(path, h, media.size());
        ProofStore.Written w = store.write(h, files, options.force());
        return new ProveResult(file, w.existing() ? ProveResult.Outcome.EXISTING : ProveResult.Outcome.PROVED,
                Optional.of(h), Optional.of(w.folder()), Optional.empty());
    }

    private ProofRecord record(MediaFile media, Optional<String> notes, Optional<SigningKey> signer) {
        ProofRecord.Builder b = ProofRecord.builder();
        b.put(ProofFields.FILE_PATH, media.path().toString());
        b.put(ProofFields.FILE_HASH_SHA256, media.sha256());
        for (MetadataSource s : sources) {
            try {
                s.contribute(media, b);
            } catch (Exception e) {
                String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                b.warn(s.name(), m.replaceAll("\\s+", " "));
            }
        }
        b.put(ProofFields.PROOF_GENERATED, ProofTimes.format(media.proofTime()));
        b.put(ProofFields.NOTES, notes.orElse(""));
        b.put(ProofFields.PROOF_SOFTWARE, SOFTWARE);
        signer.ifPresent(k -> b.put(ProofFields.PROOF_SIGNER, k.info().fingerprint()));
        return b.build();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String version() {
        String v = Prover.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
