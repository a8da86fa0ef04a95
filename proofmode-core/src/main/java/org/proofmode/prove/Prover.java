// SPDX-License-Identifier: Apache-2.0
package org.proofmode.prove;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.media.MediaSniffer;
import org.proofmode.media.MediaType;
import org.proofmode.proof.J3m;
import org.proofmode.proof.MediaFile;
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

    private final HeadStart.UnlockingKey key;
    private final ProofStore store;
    private final List<MetadataSource> sources;
    private final Clock clock;
    private final boolean j3m;
    private final Guard guard;
    private final ReadAlready readAlready;

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
     * Reads begun before the prover was asked: a command line that names a large file can start hashing
     * it in its first milliseconds, while the rest of the program is still being loaded.
     */
    @FunctionalInterface
    public interface ReadAlready {
        /** No read was begun. */
        ReadAlready NONE = (file, progress) -> Optional.empty();

        /**
         * The hash state of a read of this very file begun earlier, waited for; from now on its progress
         * goes to {@code progress} (the bytes read so far first).
         *
         * @param file the media file, absolute and normalized
         * @return empty if no read of this file, as it is now, was begun
         * @throws IOException if that read failed
         */
        Optional<Prehash> take(Path file, StreamSigner.Progress progress) throws IOException;
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
        this(new HeadStart.UnlockingKey(key), store, sources, clock, false, Guard.NONE, ReadAlready.NONE);
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
        this(new HeadStart.UnlockingKey(key), store, sources, clock, false, Guard.NONE, ReadAlready.NONE);
    }

    private Prover(HeadStart.UnlockingKey key, ProofStore store, List<MetadataSource> sources, Clock clock, boolean j3m, Guard guard,
            ReadAlready readAlready) {
        this.key = key;
        this.store = Objects.requireNonNull(store, "store");
        this.sources = List.copyOf(sources);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.j3m = j3m;
        this.guard = Objects.requireNonNull(guard, "guard");
        this.readAlready = Objects.requireNonNull(readAlready, "readAlready");
    }

    /**
     * Returns a prover that also writes CameraV's J3M document, {@code <h>.j3m.json}, made from the
     * record and signed like the other proof files.
     *
     * @param on whether to write it
     */
    public Prover withJ3m(boolean on) {
        return new Prover(key, store, sources, clock, on, guard, readAlready);
    }

    /**
     * Returns a prover that runs one more metadata source, before the others, with the same key: once
     * either prover had the key, the other knows it is at hand. For context that belongs to one file,
     * such as how the watcher found it.
     *
     * @param first the source to run first
     */
    public Prover withFirstSource(MetadataSource first) {
        List<MetadataSource> all = new ArrayList<>();
        all.add(Objects.requireNonNull(first, "first"));
        all.addAll(sources);
        return new Prover(key, store, all, clock, j3m, guard, readAlready);
    }

    /**
     * Returns a prover that runs a check just before each proof set is stored, then the checks it ran already.
     *
     * @param check throws to keep the proof out of the store
     */
    public Prover withGuard(Guard check) {
        Objects.requireNonNull(check, "check");
        Guard before = guard;
        Guard both = before == Guard.NONE ? check : (file, sha256, size) -> {
            check.beforeStore(file, sha256, size);
            before.beforeStore(file, sha256, size);
        };
        return new Prover(key, store, sources, clock, j3m, both, readAlready);
    }

    /** Returns a prover that takes a file's hash from a read begun before it was asked, where there is one. */
    public Prover withReadAlready(ReadAlready reads) {
        return new Prover(key, store, sources, clock, j3m, guard, reads);
    }

    static Optional<MediaType> sniff(Path file, Path path) {
        if (Files.isDirectory(path)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, file + ": is a folder, not a photo, video or audio file");
        }
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
     *     {@link Failure#BAD_ARGUMENT} if it is a folder, {@link Failure#IO} if it cannot be read or the
     *     proof cannot be written
     */
    public ProveResult prove(Path file, Options options) {
        return prove(file, options, List.of());
    }

    /**
     * A file stored and signed with a proof: {@code <h><suffix>} and its signature {@code <h><suffix>.asc},
     * such as a redaction record ({@code .redaction.json}).
     *
     * @param suffix the name after the hash: a dot, then lower-case letters, digits and dots
     * @param content the file's content
     */
    public record Attachment(String suffix, byte[] content) {
        /** Validates and copies the fields. */
        public Attachment {
            Objects.requireNonNull(suffix, "suffix");
            requireSuffix(suffix);
            content = content.clone();
        }

        /** Throws unless the suffix is one an attachment may have. */
        static String requireSuffix(String suffix) {
            if (!suffix.matches("\\.[a-z0-9][a-z0-9.]*") || suffix.endsWith(ProofFiles.SIG) || suffix.equals(ProofFiles.JSON)
                    || suffix.equals(ProofFiles.CSV)) {
                throw new IllegalArgumentException("not an attachment suffix: " + suffix);
            }
            return suffix;
        }

        @Override
        public byte[] content() {
            return content.clone();
        }
    }

    /**
     * Proves one file and stores attachments, each signed, in the same atomic proof set.
     *
     * @param file the media file
     * @param options notes, whether to replace an existing proof, and a progress listener
     * @param attachments files to store and sign with the proof
     * @return what happened; an existing proof that is kept gets no attachment
     * @throws ProofModeException as {@link #prove(Path, Options)}
     */
    public ProveResult prove(Path file, Options options, List<Attachment> attachments) {
        return start(file, options, attachments).await();
    }

    /** A proof made and written, not yet stored: {@link #await()} stores it (see {@link ProofStore#stage}). */
    @FunctionalInterface
    public interface Proving {
        /**
         * Returns once the proof set is durable in place; never before.
         *
         * @throws ProofModeException as {@link Prover#prove(Path, Options)}
         */
        ProveResult await();
    }

    /**
     * Proves one file up to storing its proof set, which {@link Proving#await()} does (the caller must
     * call it): a batch proves its next file while the sets of several are flushed together.
     *
     * @throws ProofModeException as {@link #prove(Path, Options)}
     */
    public Proving start(Path file, Options options, List<Attachment> attachments) {
        Path path = file.toAbsolutePath().normalize();
        Optional<MediaType> type = sniff(file, path);
        if (type.isEmpty()) {
            ProveResult skipped = ProveResult.skipped(file, "not a photo, video or audio file we recognise");
            return () -> skipped;
        }
        HeadStart.Context context = HeadStart.Context.begin(path, type.get(), size(file, path), clock, key, this::context);
        Prehash hashed = read(file, path, options.progress());
        String h = hashed.sha256();
        Optional<Path> existing = options.force() ? Optional.empty() : store.find(h);
        if (existing.isPresent()) {
            ProveResult kept = new ProveResult(file, ProveResult.Outcome.EXISTING, Optional.of(h), existing, Optional.empty());
            return () -> kept;
        }
        HeadStart.Signing signing = context.signing(file, hashed.size(), key, clock);
        Signed signed = StreamSigner.sign(signing.key(), hashed, signing.time());
        ProofRecord.Builder b = signing.context();
        ProofRecord record = finish(b, h, signing.time(), options.notes(), Optional.of(signing.key()));
        Map<String, byte[]> files = proofFiles(h, record, signed, signing, attached(attachments, b));
        guard.beforeStore(path, h, signed.size());
        ProofStore.Staged staged = store.stage(h, files, options.force());
        return () -> {
            ProofStore.Written w = staged.await();
            return new ProveResult(file, w.existing() ? ProveResult.Outcome.EXISTING : ProveResult.Outcome.PROVED,
                    Optional.of(h), Optional.of(w.folder()), Optional.empty());
        };
    }

    /** The file's hash state: from a read begun before the prover was asked, or read now. */
    private Prehash read(Path file, Path path, StreamSigner.Progress progress) {
        try {
            Optional<Prehash> already = readAlready.take(path, progress);
            if (already.isPresent()) {
                return already.get();
            }
            try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
                return StreamSigner.digest(in, progress);
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * Attachments given by the caller, then those of the context sources (taken as they are: a frame list
     * can be megabytes), by suffix.
     */
    private static Map<String, byte[]> attached(List<Attachment> attachments, ProofRecord.Builder context) {
        Map<String, byte[]> attached = new LinkedHashMap<>();
        for (Attachment a : attachments) {
            attached.put(a.suffix(), a.content());
        }
        context.attachments().forEach((suffix, content) -> attached.put(Attachment.requireSuffix(suffix), content));
        return attached;
    }

    /** The proof set's files by name: the media's signature, the record as JSON, CSV (and J3M), attachments, each signed. */
    private Map<String, byte[]> proofFiles(String h, ProofRecord record, Signed signed, HeadStart.Signing signing,
            Map<String, byte[]> attached) {
        SigningKey signer = signing.key();
        Instant now = signing.time();
        byte[] json = ProofJson.write(record);
        byte[] csv = ProofCsv.write(record);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(ProofFiles.mediaSig(h), ascii(signed.armoredSignature()));
        files.put(ProofFiles.json(h), json);
        files.put(ProofFiles.jsonSig(h), ascii(StreamSigner.sign(signer, json, now).armoredSignature()));
        files.put(ProofFiles.csv(h), csv);
        files.put(ProofFiles.csvSig(h), ascii(StreamSigner.sign(signer, csv, now).armoredSignature()));
        if (j3m) {
            byte[] doc = J3m.write(record);
            files.put(ProofFiles.j3m(h), doc);
            files.put(ProofFiles.j3mSig(h), ascii(StreamSigner.sign(signer, doc, now).armoredSignature()));
        }
        for (Map.Entry<String, byte[]> a : attached.entrySet()) {
            files.put(h + a.getKey(), a.getValue());
            files.put(h + a.getKey() + ProofFiles.SIG, ascii(StreamSigner.sign(signer, a.getValue(), now).armoredSignature()));
        }
        files.put(ProofFiles.PUBKEY, OpenPgpKeys.armor(signer.certificate()));
        return files;
    }

    /**
     * Runs the metadata sources; the record's first fields are the file's name (its full path only when a
     * source puts it there: {@code context.file-path full}) and (still empty) hash.
     */
    private ProofRecord.Builder context(MediaFile media) {
        return ContextReader.context(sources, media);
    }

    static ProofRecord finish(ProofRecord.Builder b, String sha256, Instant proofTime, Optional<String> notes,
            Optional<SigningKey> signer) {
        b.put(ProofFields.FILE_HASH_SHA256, sha256);
        b.put(ProofFields.PROOF_GENERATED, ProofTimes.format(proofTime));
        b.put(ProofFields.NOTES, notes.orElse(""));
        b.put(ProofFields.PROOF_SOFTWARE, SOFTWARE);
        signer.ifPresent(k -> {
            b.put(ProofFields.PROOF_SIGNER, k.info().fingerprint());
            b.put(ProofFields.PROOF_KEY_STORAGE, k.storage());
        });
        return b.build();
    }

    static long size(Path file, Path path) {
        try {
            return Files.size(path);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String version() {
        String v = Prover.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
