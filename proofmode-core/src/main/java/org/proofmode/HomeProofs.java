// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.collect.CollectionArchive;
import org.proofmode.collect.CollectionRecord;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.prove.Notarization;
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;
import org.proofmode.util.SafeText;

/**
 * The stored proofs of one home, found by hash or by media file, and published: a share bundle made anew
 * (in {@code <home>/publish/outgoing/} while it is sent) or a notarization text; what retrying may fix is
 * queued. The facade's {@link ProofMode#find} and {@link ProofMode#publish} are these.
 */
final class HomeProofs {
    private final Path home;
    private final ProofStore store;
    private final Clock clock;

    HomeProofs(Path home, ProofStore store, Clock clock) {
        this.home = home;
        this.store = store;
        this.clock = clock;
    }

    /** The queue of what could not be published yet, {@code <home>/publish-queue/} (sealed when the store is encrypted). */
    static PublishQueue publishQueue(Path home, ProofStore store) {
        return new PublishQueue(home.resolve(PublishQueue.FOLDER), store.queueSealing());
    }

    /**
     * Finds a stored proof by its media's SHA-256 (hex) or by the media file. Given a hash, the media is
     * the file at the recorded path if it is still there and unchanged.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such proof or file,
     *     {@link Failure#IO} if the file cannot be read
     */
    ProofMode.StoredProof find(String hashOrFile) {
        Path path = Path.of(hashOrFile);
        if (Hex.isSha256(hashOrFile) && !Files.exists(path)) {
            String h = hashOrFile.toLowerCase(Locale.ROOT);
            Path folder = storedFolder(h);
            return new ProofMode.StoredProof(h, folder, recordedMedia(folder, h));
        }
        if (!Files.isRegularFile(path)) {
            throw new ProofModeException(Failure.INPUT_MISSING, hashOrFile + ": no such file, and not a proof hash");
        }
        String h;
        try {
            h = Digests.sha256(path);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, hashOrFile + ": cannot read: " + e.getMessage(), e);
        }
        Path folder = store.find(h).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                hashOrFile + ": not proved yet (run: proofmode prove " + hashOrFile + ")"));
        return new ProofMode.StoredProof(h, folder, Optional.of(path));
    }

    private Path storedFolder(String h) {
        return store.find(h).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING, "no proof with hash " + h + " in " + store.root()));
    }

    /**
     * The media at the recorded path, if the proof records a full path ({@code context.file-path full}, older
     * proofs), else where this home noted it ({@link MediaPaths}), if the file is still there and unchanged.
     */
    private Optional<Path> recordedMedia(Path folder, String h) {
        Optional<Path> p = ProofJson.readStored(store, folder, h).get(ProofFields.FILE_PATH).map(Path::of).filter(Path::isAbsolute)
                .or(() -> new MediaPaths(home).noted(h)).filter(Files::isRegularFile);
        try {
            return p.isPresent() && Digests.sha256(p.get()).equals(h) ? p : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }


    /** Publishes a stored proof, as {@link ProofMode#publish(Publishing, String)} says. */
    Publishing.Result publish(Publishing to, String sha256, Optional<ProofMode.StoredProof> known) {
        PublishQueue queue = publishQueue(home, store);
        if (!store.canRead()) {
            String why = "the proof store is encrypted and its identity is not at hand: 'proofmode publish sync' sends it";
            queue.add(sha256, to.what(), to.publisher().server(), to.publisher().proxy(), clock.instant(), why);
            return new Publishing.Result(sha256, to.what(), Optional.empty(), Optional.of(why));
        }
        try {
            Publisher.Published done = sendStored(to.publisher(), sha256, known, to.what());
            queue.remove(sha256, to.what());
            return new Publishing.Result(sha256, to.what(), Optional.of(done.permalink()), Optional.empty());
        } catch (ProofModeException e) {
            if (e.failure() == Failure.SERVICE_UNREACHABLE) {
                queue.add(sha256, to.what(), to.publisher().server(), to.publisher().proxy(), clock.instant(), e.getMessage());
                return new Publishing.Result(sha256, to.what(), Optional.empty(), Optional.of(SafeText.escape(e.getMessage())));
            }
            queue.remove(sha256, to.what());
            throw e;
        }
    }

    /** How a bundle being sent is named in {@code publish/outgoing/}: the prefix, then the sending process's id. */
    private static final String OUTGOING_PREFIX = "bundle-";
    private static final Pattern OUTGOING = Pattern.compile(Pattern.quote(OUTGOING_PREFIX) + "(\\d{1,18})-.*");

    /**
     * Deletes the bundles a process that has ended left in {@code publish/outgoing/} (killed while it sent
     * them): they hold proof files and media in the clear, in an encrypted home too. A bundle whose process
     * still runs is left alone.
     */
    static void removeOrphanedBundles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                String n = f.getFileName().toString();
                Matcher m = OUTGOING.matcher(n);
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                if (n.startsWith(OUTGOING_PREFIX)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // what cannot be listed or deleted now is tried again at the next send, and 'wipe --proofs' removes it
        }
    }

    /**
     * Publishes a collection folder ({@code proofmode collect}'s) whole, as one zip
     * ({@link CollectionArchive}): the WARC, the record and their signatures and time-stamps, the TLS chain,
     * and the media with their stored proofs. It is not queued: what cannot be sent now fails, for the
     * caller to try again.
     *
     * @return the result, named by the SHA-256 of the collection record
     * @throws ProofModeException with {@link Failure#BAD_DATA} for a folder that is not a collection, as
     *     {@link Publisher#bundle} throws, and {@link Failure#KEY_LOCKED} for an encrypted store that is locked
     */
    Publishing.Result publishCollection(Publishing to, Path folder) {
        byte[] json;
        try {
            json = Files.readAllBytes(folder.resolve(CollectionRecord.FILE));
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, folder + ": not a collection (" + e.getMessage() + ")", e);
        }
        CollectionRecord record = CollectionRecord.parse(json);
        Map<String, Map<String, byte[]>> proofs = new TreeMap<>();
        for (CollectionRecord.MediaEntry m : record.media()) {
            if (Hex.isSha256(m.sha256())) {
                store.files(m.sha256()).ifPresent(f -> proofs.put(m.sha256(), f));
            }
        }
        Path tmp = null;
        try {
            Path dir = AtomicFiles.privateDirectories(Home.PUBLISH_OUTGOING.in(home));
            removeOrphanedBundles(dir);
            tmp = Files.createTempFile(dir, OUTGOING_PREFIX + ProcessHandle.current().pid() + "-", ".zip");
            CollectionArchive.write(folder, proofs, tmp);
            Publisher.Published done = to.publisher().bundle(tmp, folder.toAbsolutePath().normalize().getFileName() + ".zip");
            return new Publishing.Result(Hex.encode(Digests.newSha256().digest(json)), Publisher.What.WITH_MEDIA,
                    Optional.of(done.permalink()), Optional.empty());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot make the archive of " + folder + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** Sends a stored proof; its media is found (and checked unchanged) only when it is sent. */
    private Publisher.Published sendStored(Publisher publisher, String sha256, Optional<ProofMode.StoredProof> known, Publisher.What what) {
        Path folder = known.map(ProofMode.StoredProof::folder).orElseGet(() -> storedFolder(sha256));
        if (what == Publisher.What.NOTARIZE_ONLY) {
            ProofRecord record = ProofJson.readStored(store, folder, sha256);
            Instant when = record.get(ProofFields.PROOF_GENERATED).flatMap(ProofTimes::parse).orElseThrow(() ->
                    new ProofModeException(Failure.BAD_DATA, sha256 + ": the proof record has no proof time"));
            String signer = record.get(ProofFields.PROOF_SIGNER).orElseThrow(() ->
                    new ProofModeException(Failure.BAD_DATA, sha256 + ": the proof record names no signer"));
            return publisher.notarization(Notarization.text(sha256, signer, when));
        }
        Optional<Path> media = Optional.empty();
        if (what == Publisher.What.WITH_MEDIA) {
            media = Optional.of(known.map(ProofMode.StoredProof::media).orElseGet(() -> recordedMedia(folder, sha256)).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                    sha256 + ": the media is no longer at its recorded path (or was changed); publish --proof-only, or prove the file again")));
        }
        Path tmp = null;
        try {
            Path dir = AtomicFiles.privateDirectories(Home.PUBLISH_OUTGOING.in(home));
            removeOrphanedBundles(dir);
            tmp = Files.createTempFile(dir, OUTGOING_PREFIX + ProcessHandle.current().pid() + "-", ".zip");
            BundleWriter.write(List.of(new BundleWriter.Item(folder, media, store.isEncrypted() ? store.files(sha256) : Optional.empty())),
                    tmp, true);
            return publisher.bundle(tmp, sha256.substring(0, 16) + (media.isPresent() ? "" : "-proof") + ".zip");
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot make the bundle of " + sha256 + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static void deleteQuietly(Path tmp) {
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // a left-over temporary bundle in the home's own folder; the next publish makes a new one
            }
        }
    }
}
