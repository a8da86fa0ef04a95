// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.media.MediaSniffer;
import org.proofmode.prove.BatchProver;
import org.proofmode.sign.Prehash;
import org.proofmode.sign.StreamSigner;
import org.proofmode.util.InputFiles;

/**
 * What a path given to {@code verify} means, and its report: a share bundle (a {@code .zip}, an age-encrypted
 * {@code .zip.age}), a proof folder or unpacked bundle, a media file whose proof is in the store (or, changed
 * since, the proof made of the file at its path; or, unproved, its content credentials alone), or a folder
 * that stands for what is in it ({@link #expand}).
 */
public final class Targets {
    /** Reads a media file once for its SHA-256 state (from a read started early, say). */
    @FunctionalInterface
    public interface Hashing {
        /** Reads the file directly. */
        Hashing DIRECT = Targets::digest;

        /** The file's SHA-256 state after one read of it. */
        Prehash hash(Path media) throws IOException;
    }

    /**
     * Where the proof of a media file is looked up: a home's store, the same store able to read its sealed
     * sets (asked for once, on the first media file, since unlocking it may ask for a passphrase), and where
     * each file of the home was when it was proved.
     */
    public static final class Stored {
        private final ProofStore store;
        private final Supplier<ProofStore> unlock;
        private final Function<Path, Optional<Path>> provedAt;
        private ProofStore readable;

        /**
         * @param store the home's store
         * @param unlock gives the store able to read its sealed sets (the same store when it is plain)
         * @param provedAt the proof of the file that was at a path when it was proved
         */
        public Stored(ProofStore store, Supplier<ProofStore> unlock, Function<Path, Optional<Path>> provedAt) {
            this.store = Objects.requireNonNull(store, "store");
            this.unlock = Objects.requireNonNull(unlock, "unlock");
            this.provedAt = Objects.requireNonNull(provedAt, "provedAt");
        }

        /** The home's store (its folder names the store in messages). */
        public ProofStore store() {
            return store;
        }

        /** The store able to read its sealed sets: unlocked once. */
        public synchronized ProofStore readable() {
            if (readable == null) {
                readable = unlock.get();
            }
            return readable;
        }

        /**
         * The stored proof of the media with this SHA-256, opened as a bundle, if there is one.
         *
         * @throws ProofModeException as the store and {@link Bundle#open} throw
         */
        public Optional<Bundle> bundle(String sha256) {
            return (store.isEncrypted() ? readable() : store).bundle(sha256, BundleLimits.DEFAULT);
        }
    }

    /**
     * The items PATH arguments stand for, whether any argument was a folder that stands for several, and
     * how many files in such folders were left out (neither media nor bundles).
     */
    public record Items(List<Path> paths, boolean fromFolder, int leftOut) {
        /** Copies the list. */
        public Items {
            paths = List.copyOf(paths);
        }
    }

    private final Verifier verifier;
    private final Stored stored;
    private final Identities identities;
    private final Optional<Path> media;
    private final Optional<Path> original;
    private final Hashing hashing;

    /**
     * @param verifier the verifier, with what is trusted
     * @param stored where the proofs of media files are
     * @param identities the age identities that open encrypted bundles
     * @param media the media file of a bundle or folder that does not hold it ({@code --media})
     * @param original the original of a redacted copy ({@code --original}): a media file or a bundle
     * @param hashing how a media file is read for its hash
     */
    public Targets(Verifier verifier, Stored stored, Identities identities, Optional<Path> media, Optional<Path> original,
            Hashing hashing) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.stored = Objects.requireNonNull(stored, "stored");
        this.identities = Objects.requireNonNull(identities, "identities");
        this.media = Objects.requireNonNull(media, "media");
        this.original = Objects.requireNonNull(original, "original");
        this.hashing = Objects.requireNonNull(hashing, "hashing");
    }

    /**
     * Verifies one item: a bundle, a proof folder or a media file (by its stored proof).
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such item, or a media file
     *     has neither a proof in the store nor content credentials; as the verifier and the store throw
     * @throws IOException if a media file cannot be read
     */
    public VerificationReport verify(Path p) throws IOException {
        if (!Files.exists(p)) {
            throw new ProofModeException(Failure.INPUT_MISSING, p + ": no such file or folder");
        }
        requireFileOrFolder(p);
        Optional<RedactionOriginal> orig = Optional.empty();
        if (original.isPresent()) {
            Path o = original.get();
            requireFileOrFolder(o);
            boolean bundle = Files.isDirectory(o) || MediaSniffer.sniff(o).isEmpty();
            orig = Optional.of(new RedactionOriginal(o, bundle ? Optional.empty() : stored.store().find(Digests.sha256(o))));
        }
        if (Age.isAge(p)) {
            try (Bundle bundle = Bundle.open(p, BundleLimits.DEFAULT, identities)) {
                return verifier.verify(bundle, media, orig);
            }
        }
        if (Verifier.isCollection(p)) {
            return verifier.verifyCollection(p);
        }
        if (Files.isDirectory(p) || MediaSniffer.sniff(p).isEmpty()) {
            // The verifier checks the content credentials of the bundle's media and of --media.
            return media.isEmpty() ? verifier.verify(p, Optional.empty(), orig)
                    : verifier.verify(p, media.get(), () -> hashing.hash(media.get()), orig);
        }
        // One read of the media: its hash finds the proof, and the same hash state checks the signature.
        Prehash hashed = hashing.hash(p);
        String sha = hashed.sha256();
        ProofStore store = stored.store();
        if (store.isEncrypted()) {
            Optional<Bundle> sealed = stored.bundle(sha);
            if (sealed.isPresent()) {
                try (Bundle b = sealed.get()) {
                    return asTyped(verifier.verify(b, Optional.of(p), orig), p, store.root());
                }
            }
        }
        Optional<Path> folder = store.isEncrypted() ? Optional.empty() : store.find(sha);
        if (folder.isEmpty()) {
            // A file changed since it was proved: checked against the proof made of it there, so it shows INVALID.
            Optional<Path> before = stored.provedAt.apply(p);
            if (before.isPresent()) {
                return asTyped(verifier.verify(before.get(), p, () -> hashed, orig), p, before.get());
            }
            return verifier.c2paChecks().alone(p).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                    p + ": no proof of this file (SHA-256 " + sha + ") in " + store.root()
                            + " and no content credentials in it; verify its bundle or proof folder instead"));
        }
        return asTyped(verifier.verify(folder.get(), p, () -> hashed, orig), p, folder.get());
    }

    /** The report of a media file verified by its stored proof, named by the file and the proof it found. */
    private static VerificationReport asTyped(VerificationReport r, Path media, Path stored) {
        return new VerificationReport(media + " (its proof: " + stored + ")", r.verdict(), r.checks(), r.proofs());
    }

    /**
     * Refuses a device, FIFO or socket before anything reads it (a FIFO would wait forever, /dev/zero never end).
     *
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} (as {@code InputFiles.requireRegular}) for one
     */
    public static void requireFileOrFolder(Path p) {
        if (!Files.isDirectory(p)) {
            InputFiles.requireRegular(p, "bundle (.zip), a proof folder or a proved media file");
        }
    }

    /** A media file's SHA-256 state, read now. */
    public static Prehash digest(Path f) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            return StreamSigner.digest(ch, StreamSigner.Progress.NONE);
        }
    }

    /**
     * The items PATH arguments stand for. A folder that holds a proof record ({@code <h>.proof.json} or
     * {@code .proof.csv}: a proof folder, an unpacked share bundle) is one bundle. Any other folder stands
     * for what is in it and its subfolders, in name order: share bundles ({@code *.zip}, {@code *.zip.age})
     * and proof folders as bundles, and every other file as a media file whose proof is looked up in the
     * store, read as {@code prove FOLDER} reads it ({@link BatchProver#filesUnder}: hidden files left out);
     * files that are neither media nor bundles are left out and counted. Anything else stands for itself.
     *
     * @throws IOException if a folder cannot be listed
     */
    public static Items expand(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        boolean folder = false;
        int leftOut = 0;
        for (Path p : paths) {
            if (Files.isDirectory(p) && !holdsRecord(p) && !Verifier.isCollection(p)) {
                folder = true;
                Inside inside = inside(p);
                out.addAll(inside.items());
                leftOut += inside.leftOut();
            } else {
                out.add(p);
            }
        }
        return new Items(out, folder, leftOut);
    }

    private record Inside(List<Path> items, int leftOut) {}

    /** What a folder that is not itself a bundle holds: bundles, proof folders and media files, in name order. */
    private static Inside inside(Path dir) throws IOException {
        Set<Path> items = new TreeSet<>();
        Map<Path, Boolean> records = new HashMap<>();
        int leftOut = 0;
        for (Path f : BatchProver.filesUnder(dir)) {
            Optional<Path> proofFolder = proofFolderAbove(dir, f, records);
            String lower = f.getFileName().toString().toLowerCase(Locale.ROOT);
            if (proofFolder.isPresent()) {
                items.add(proofFolder.get());
            } else if (lower.endsWith(".zip") || lower.endsWith(".zip.age") || MediaSniffer.sniff(f).isPresent()) {
                items.add(f);
            } else {
                leftOut++;
            }
        }
        return new Inside(new ArrayList<>(items), leftOut);
    }

    /** The outermost folder between {@code top} (left out) and {@code f} that holds a proof record, if any. */
    private static Optional<Path> proofFolderAbove(Path top, Path f, Map<Path, Boolean> records) throws IOException {
        Path rel = top.relativize(f.getParent());
        Path at = top;
        for (Path part : rel) {
            if (part.toString().isEmpty()) {
                break;
            }
            at = at.resolve(part);
            Boolean holds = records.get(at);
            if (holds == null) {
                holds = holdsRecord(at);
                records.put(at, holds);
            }
            if (holds) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    private static boolean holdsRecord(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.endsWith(ProofFiles.JSON) || n.endsWith(ProofFiles.CSV));
        }
    }
}
