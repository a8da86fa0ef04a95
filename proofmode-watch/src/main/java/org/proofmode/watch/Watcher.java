// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.proofmode.ProofMode;
import org.proofmode.context.MetadataSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.SigningKey;
import org.proofmode.publish.Publishing;
import org.proofmode.timestamp.StampRequest;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.watch.WatchEvent.Kind;

/**
 * Proves every new or changed media file in some folders, until stopped. File-system events say where to
 * look and a periodic rescan catches whatever they missed (lost events, network folders, files that
 * arrived while no watcher ran). A file is proved once it is complete: its size and time stayed the same
 * for {@link WatchConfig#settle()} and no process has it open for writing; its capture context is taken
 * when it is first seen.
 *
 * <p>State lives in {@link WatchDb}, written by the watcher's own thread only (sealed, in a home whose store
 * is encrypted: the watcher holds the database's key, never the store's identity). Proof sets are named by
 * content, so the same content is never proved twice, a renamed or moved file is recognised by its hash,
 * and a crash at any moment leaves each file either proved once or proved on the next start.
 */
public final class Watcher {
    /**
     * The long-lived parts a watcher works with.
     *
     * @param seal the key of the watcher's database, for a home whose store is encrypted (asked for when the
     *     watcher starts: it is unlocked with the device key's passphrase)
     */
    public record Setup(ProofMode home, Supplier<SigningKey> key, WatchConfig config, List<MetadataSource> surroundings,
            List<MetadataSource> media, Optional<Timestamps> timestamps, Optional<StampRequest> stampNew,
            WatchListener listener, Clock clock, Optional<Publishing> publishing, Optional<Supplier<WatchSeal>> seal) {
        /** Validates the fields. */
        public Setup {
            Objects.requireNonNull(home, "home");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(config, "config");
            surroundings = List.copyOf(surroundings);
            media = List.copyOf(media);
            Objects.requireNonNull(timestamps, "timestamps");
            Objects.requireNonNull(stampNew, "stampNew");
            Objects.requireNonNull(listener, "listener");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(publishing, "publishing");
            Objects.requireNonNull(seal, "seal");
        }

        /** A watcher of a home whose store is plain. */
        public Setup(ProofMode home, Supplier<SigningKey> key, WatchConfig config, List<MetadataSource> surroundings,
                List<MetadataSource> media, Optional<Timestamps> timestamps, Optional<StampRequest> stampNew,
                WatchListener listener, Clock clock, Optional<Publishing> publishing) {
            this(home, key, config, surroundings, media, timestamps, stampNew, listener, clock, publishing, Optional.empty());
        }

        /** A watcher that publishes nothing. */
        public Setup(ProofMode home, Supplier<SigningKey> key, WatchConfig config, List<MetadataSource> surroundings,
                List<MetadataSource> media, Optional<Timestamps> timestamps, Optional<StampRequest> stampNew,
                WatchListener listener, Clock clock) {
            this(home, key, config, surroundings, media, timestamps, stampNew, listener, clock, Optional.empty());
        }
    }

    private static final long HEARTBEAT_MILLIS = 5_000;

    private final Setup s;
    private final Path homeDir;
    private final Map<String, TrackedFile> index = new LinkedHashMap<>();
    /** Paths already logged as skipped for not being regular files (links, FIFOs, devices, sockets). */
    private final Set<String> skippedSpecial = ConcurrentHashMap.newKeySet();
    private final Candidates candidates = new Candidates();
    private final WatchDb.Batch batch = new WatchDb.Batch();
    private final Workers workers;
    private volatile boolean stopping;
    private volatile boolean idle;
    private String lastDbError = "";

    /** Makes a watcher; nothing runs until {@link #run()}. */
    public Watcher(Setup setup) {
        this.s = Objects.requireNonNull(setup, "setup");
        this.homeDir = setup.home().home();
        this.workers = new Workers(setup);
    }

    /** Asks a running watcher to stop: proofs under way are finished, then state is saved. */
    public void stop() {
        stopping = true;
    }

    /** Tells whether the watcher has started, caught up, and has nothing waiting or under way. */
    public boolean idle() {
        return idle;
    }

    /**
     * Runs until {@link #stop()}: catches up on every folder, then proves what arrives.
     *
     * @throws ProofModeException with {@link Failure#IO} if another watcher runs on this home
     *     or the database cannot be opened
     */
    public void run() throws IOException, InterruptedException {
        WatchLock lock = WatchLock.take(homeDir);
        Optional<WatchSeal> seal;
        try {
            if (s.seal().isEmpty() && s.home().store().isEncrypted()) {
                throw new ProofModeException(Failure.KEY_LOCKED, "the proof store is encrypted: the watcher's database needs "
                        + "the watch key (unlocked with the device key's passphrase)");
            }
            seal = s.seal().map(Supplier::get);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
        try (lock; WatchDb db = WatchDb.open(homeDir.resolve(WatchDb.FILE), seal);
             FolderEvents events = new FolderEvents(s.config().recursive())) {
            s.home().store().recover();
            start(db, events);
            long nextRescan = now() + s.config().rescan().toMillis();
            long nextBeat = now() + HEARTBEAT_MILLIS;
            while (!stopping) {
                for (Path p : events.poll(Candidates.TICK_MILLIS)) {
                    observe(p, "event", events);
                }
                if (events.overflowed()) {
                    emit(Kind.RESCAN, "reason", "events were lost");
                    scanAll(events);
                }
                if (now() >= nextRescan) {
                    scanAll(events);
                    nextRescan = now() + s.config().rescan().toMillis();
                }
                drainResults(db);
                settle();
                if (now() >= nextBeat) {
                    batch.meta("heartbeat", s.clock().instant().toString());
                    nextBeat = now() + HEARTBEAT_MILLIS;
                }
                save(db);
                idle = candidates.isEmpty() && workers.inFlight() == 0 && batch.isEmpty();
            }
            idle = false;
            workers.shutdown(() -> drainResults(db));
            drainResults(db);
            batch.meta("stoppedAt", s.clock().instant().toString());
            save(db);
            emit(Kind.STOPPED, "pending", Integer.toString(candidates.size()));
        } finally {
            workers.shutdownNow();
            seal.ifPresent(WatchSeal::close);
        }
    }

    private void start(WatchDb db, FolderEvents events) throws IOException {
        index.putAll(db.files());
        List<String> folders = new ArrayList<>();
        for (Path f : s.config().folders()) {
            folders.add(f.toString());
        }
        batch.meta("folders", String.join("\n", folders));
        batch.meta("recursive", Boolean.toString(s.config().recursive()));
        batch.meta("pid", Long.toString(ProcessHandle.current().pid()));
        batch.meta("startedAt", s.clock().instant().toString());
        batch.meta("heartbeat", s.clock().instant().toString());
        emit(Kind.STARTED, "folders", String.join(",", folders), "known", Integer.toString(index.size()),
                "writersVisible", Boolean.toString(OpenWriters.supported()));
        for (TrackedFile t : index.values()) {
            if (t.state() == FileState.PENDING || t.state() == FileState.FAILED) {
                TrackedFile again = t.state() == FileState.FAILED
                        ? t.with(FileState.PENDING, t.size(), t.mtime(), Optional.empty()) : t;
                index.put(t.path(), again);
                candidates.add(again.path(), again.size(), again.mtime());
            }
        }
        workers.startTimestampSync(this::emit);
        workers.startPublishSync(this::emit);
        for (Path f : s.config().folders()) {
            for (Path d : events.register(f)) {
                emit(Kind.WATCHING, "folder", d.toString());
            }
        }
        scanAll(events);
        save(db);
    }

    private void scanAll(FolderEvents events) {
        Set<String> seen = new HashSet<>();
        for (Path root : s.config().folders()) {
            try {
                events.register(root);
            } catch (IOException e) {
                emit(Kind.ERROR, "folder", root.toString(), "error", "cannot watch: " + e.getMessage());
            }
            FolderScan.walk(root, s.config().recursive(), homeDir, f -> {
                seen.add(key(f));
                observe(f, "scan", events);
            }, problem -> emit(Kind.ERROR, "error", problem));
        }
        for (String p : new ArrayList<>(index.keySet())) {
            if (!seen.contains(p) && under(Path.of(p)) && !Files.exists(Path.of(p), LinkOption.NOFOLLOW_LINKS)) {
                vanished(p);
            }
        }
    }

    private boolean under(Path p) {
        for (Path root : s.config().folders()) {
            if (p.startsWith(root) && (s.config().recursive() || root.equals(p.getParent()))) {
                return true;
            }
        }
        return false;
    }

    private void observe(Path p, String by, FolderEvents events) {
        Path abs = p.toAbsolutePath().normalize();
        if (FolderScan.hidden(abs) || abs.startsWith(homeDir) || !under(abs)) {
            return;
        }
        String key = abs.toString();
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(abs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            vanished(key);
            return;
        } catch (IOException e) {
            emit(Kind.ERROR, "path", key, "error", "cannot read: " + e.getMessage());
            return;
        }
        if (a.isDirectory()) {
            if (s.config().recursive() && "event".equals(by)) {
                try {
                    for (Path d : events.register(abs)) {
                        emit(Kind.WATCHING, "folder", d.toString());
                    }
                } catch (IOException e) {
                    emit(Kind.ERROR, "folder", key, "error", "cannot watch: " + e.getMessage());
                }
                FolderScan.walk(abs, true, homeDir, f -> observe(f, "event", events), problem -> emit(Kind.ERROR, "error", problem));
            }
            return;
        }
        if (!a.isRegularFile()) {
            // Said once per path: a link is not followed (it may loop or lead outside the watched folders),
            // and a FIFO, device or socket has no content to prove.
            if (skippedSpecial.add(key)) {
                emit(Kind.SKIPPED, "path", key, "reason", a.isSymbolicLink()
                        ? "symbolic link (not followed)" : "not a regular file (FIFO, device or socket)");
            }
            return;
        }
        long size = a.size();
        long mtime = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        Candidates.Candidate c = candidates.get(key);
        if (c != null) {
            c.touch(size, mtime);
            return;
        }
        TrackedFile t = index.get(key);
        if (t != null && t.state() != FileState.PENDING && t.sameAs(size, mtime)) {
            return;
        }
        Instant at = s.clock().instant();
        TrackedFile seen = TrackedFile.seen(key, size, mtime, at, by,
                WatchSource.snapshot(s.surroundings(), abs, size, a.lastModifiedTime().toInstant(), at, by));
        index.put(key, seen);
        batch.put(seen);
        candidates.add(key, size, mtime);
        emit(Kind.DETECTED, "path", key, "by", by, "size", Long.toString(size),
                "changed", Boolean.toString(t != null));
    }

    private void vanished(String key) {
        Candidates.Candidate c = candidates.get(key);
        if (c != null && c.inFlight) {
            return;
        }
        candidates.remove(key);
        TrackedFile t = index.remove(key);
        if (t != null) {
            batch.remove(key);
            emit(Kind.GONE, "path", key, "sha256", t.sha256().orElse(null),
                    "proof", t.sha256().isPresent() ? "kept" : "none");
        }
    }

    /** Finds the candidates that are complete and hands them to the workers. */
    private void settle() {
        List<String> ready = candidates.ready(s.config().settle().toNanos(), k -> {
            TrackedFile t = index.get(k);
            return t != null && t.nextTry() <= now();
        }, workers.room());
        for (String r : ready) {
            Candidates.Candidate c = candidates.get(r);
            c.inFlight = true;
            workers.submit(index.get(r), c.size, c.mtime);
        }
    }

    private void drainResults(WatchDb db) {
        for (ProveTask.Done d = workers.poll(); d != null; d = workers.poll()) {
            Results.apply(d, this, db);
        }
    }

    // --- used by Results -------------------------------------------------------------------------

    WatchConfig config() {
        return s.config();
    }

    TrackedFile current(String path, TrackedFile fallback) {
        return index.getOrDefault(path, fallback);
    }

    void record(TrackedFile t, boolean keepWaiting) {
        index.put(t.path(), t);
        batch.put(t);
        candidates.landed(t.path());
        if (!keepWaiting) {
            candidates.remove(t.path());
        }
    }

    void proved(ProofEntry p) {
        batch.proof(p);
    }

    void waitAgain(String path) {
        candidates.waitAgain(path);
    }

    void gone(String path) {
        candidates.landed(path);
        vanished(path);
    }

    void emit(Kind kind, String... pairs) {
        s.listener().on(WatchEvent.of(s.clock().instant(), kind, pairs));
    }

    void emit(WatchEvent e) {
        s.listener().on(e);
    }

    private void save(WatchDb db) {
        try {
            db.apply(batch);
            lastDbError = "";
        } catch (ProofModeException e) {
            if (!e.getMessage().equals(lastDbError)) {
                emit(Kind.ERROR, "error", e.getMessage(), "action", "kept in memory; retried");
                lastDbError = e.getMessage();
            }
        }
    }

    private static String key(Path p) {
        return p.toAbsolutePath().normalize().toString();
    }

    private long now() {
        return s.clock().millis();
    }
}
