// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import com.exceptionfactory.jagged.RecipientStanzaWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofStore;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.context.ContextSources;
import org.proofmode.context.DeviceSource;
import org.proofmode.context.FileSource;
import org.proofmode.context.Fix;
import org.proofmode.context.MetadataSource;
import org.proofmode.context.Settings;
import org.proofmode.context.SettingsFile;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.imaging.ExifGroup;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.keys.StoreKeys;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;
import org.proofmode.prove.Notarization;
import org.proofmode.prove.Prover;
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.PublishToken;
import org.proofmode.publish.Publisher;
import org.proofmode.publish.Publishing;
import org.proofmode.redact.Redactor;
import org.proofmode.redact.StripPolicy;
import org.proofmode.timestamp.TimestampQueue;
import org.proofmode.timestamp.TimestampSettings;
import org.proofmode.timestamp.Timestamps;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.timestamp.rfc3161.TsaClient;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import org.proofmode.verify.C2paChecks;
import org.proofmode.age.StoreIdentity;
import org.proofmode.verify.Verifier;

/**
 * The front door of the library: one ProofMode home folder ({@code PROOFMODE_HOME}) with its device
 * keys and proof store, and the provers and verifiers that work on them.
 */
public final class ProofMode {
    private final Path home;
    private final DeviceKeys keys;
    private final StoreKeys storeKeys;
    private final Optional<StoreIdentity> storeIdentity;
    private final ProofStore store;
    private final Clock clock;

    private ProofMode(Path home, Clock clock, Optional<StoreIdentity> storeIdentity) {
        this.home = home.toAbsolutePath().normalize();
        this.keys = new DeviceKeys(this.home);
        this.storeKeys = new StoreKeys(this.home);
        this.storeIdentity = storeIdentity;
        this.store = openStore(Home.PROOFS.in(this.home), storeKeys, storeIdentity);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    private static ProofStore openStore(Path root, StoreKeys storeKeys, Optional<StoreIdentity> identity) {
        if (storeKeys.exists()) {
            return ProofStore.encrypted(root, storeKeys.sealer(), identity.map(StoreIdentity::opener));
        }
        if (Files.exists(root.resolve(ProofStore.ENCRYPTED_MARKER))) {
            RecipientStanzaWriter erased = fileKey -> {
                throw new ProofModeException(Failure.KEY_LOCKED, "the proof store in " + root
                        + " is encrypted and its keys were wiped: its proofs cannot be read; remove them ('proofmode wipe --proofs') to prove again");
            };
            return ProofStore.encrypted(root, erased, Optional.empty());
        }
        return new ProofStore(root);
    }

    /**
     * Opens a home folder. Nothing is created until it is needed.
     *
     * @param home the folder, e.g. {@code ~/.proofmode}
     */
    public static ProofMode at(Path home) {
        return new ProofMode(Objects.requireNonNull(home, "home"), Clock.systemUTC(), Optional.empty());
    }

    /**
     * The same home, with the times of proofs, redactions and timestamp queues read from the given clock
     * (the system's by default): for an application with a clock of its own, such as the watcher's.
     */
    public ProofMode withClock(Clock clock) {
        return new ProofMode(this, clock);
    }

    /**
     * The same home and the same store instance (a set its prover seals is then stamped by the other's
     * timestamps without the identity), with another clock.
     */
    private ProofMode(ProofMode same, Clock clock) {
        this.home = same.home;
        this.keys = new DeviceKeys(home);
        this.storeKeys = same.storeKeys;
        this.storeIdentity = same.storeIdentity;
        this.store = same.store;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The same home, whose encrypted store is read with the given identity (unlocked from
     * {@link #storeKeys()} with the device key's passphrase).
     */
    public ProofMode withStoreIdentity(StoreIdentity identity) {
        return new ProofMode(home, clock, Optional.of(identity));
    }

    /** The encrypted store's keys (present only for an encrypted store). */
    public StoreKeys storeKeys() {
        return storeKeys;
    }

    /**
     * Makes this home's store encrypted: creates its identity, sealed with the passphrase (the device
     * key's), then moves every plain set into the sealed layout, each sealed and flushed before its plain
     * folder is removed (a crash leaves a set in both forms, never in none; run it again to finish).
     *
     * @return the identity, unlocked, and how many sets were moved
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the store is encrypted already
     */
    public Encrypted encryptStore(Passphrase passphrase) {
        return markAndSeal(storeKeys.create(passphrase));
    }

    /**
     * Makes this home's store encrypted to an identity brought from another machine of the same desk,
     * sealed here with the passphrase; plain sets are sealed as by {@link #encryptStore}.
     *
     * @return how many plain sets were sealed
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the store is encrypted to another identity
     */
    public int adoptStoreIdentity(StoreIdentity identity, Passphrase passphrase) {
        storeKeys.adopt(identity, passphrase);
        return markAndSeal(identity).moved();
    }

    private Encrypted markAndSeal(StoreIdentity id) {
        Path root = store.root();
        try {
            AtomicFiles.privateDirectories(root);
            AtomicFiles.write(root.resolve(ProofStore.ENCRYPTED_MARKER), new byte[0], true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + root.resolve(ProofStore.ENCRYPTED_MARKER) + ": " + e.getMessage(), e);
        }
        ProofMode sealed = withStoreIdentity(id);
        int moved = sealed.sealPlainSets();
        sealed.store().queueSealing().ifPresent(q -> PublishToken.sealClear(home, q));
        return new Encrypted(id, moved);
    }

    /** An encrypted store made: its identity and how many plain sets were sealed. */
    public record Encrypted(StoreIdentity identity, int moved) {}

    /**
     * Seals the plain sets left in an encrypted store's folder (by {@link #encryptStore}, or one it did not
     * finish): each is written sealed, then its plain folder removed.
     *
     * @return how many were sealed
     */
    public int sealPlainSets() {
        ProofStore plain = new ProofStore(store.root());
        int n = 0;
        for (String h : plain.list()) {
            Map<String, byte[]> files = plain.files(h).orElse(Map.of());
            if (!files.isEmpty()) {
                store.write(h, files, false);
            }
            try {
                AtomicFiles.deleteTree(plain.folder(h));
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot remove " + plain.folder(h) + ": " + e.getMessage(), e);
            }
            n++;
        }
        return n;
    }

    /** The home folder. */
    public Path home() {
        return home;
    }

    /** The device key store. */
    public DeviceKeys keys() {
        return keys;
    }

    /** The proof store, {@code <home>/proofs}. */
    public ProofStore store() {
        return store;
    }

    /**
     * The settings file, {@code <home>/settings}; reading it writes the documented default file first if
     * there is none.
     */
    public SettingsFile settingsFile() {
        return new SettingsFile(home.resolve(SettingsFile.NAME));
    }

    /**
     * The settings in force: what proofs record beyond the file.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the settings file has an unknown key or a
     *     bad value
     */
    public Settings settings() {
        return settingsFile().load();
    }

    /**
     * The metadata sources a proof runs under the given settings: file, device, media metadata, image
     * hashes, and network and location when they are on.
     *
     * @param settings what to record (usually {@link #settings()} with per-run overrides)
     * @param manualLocation a position given for this run, used when location is on
     */
    public List<MetadataSource> contextSources(Settings settings, Optional<Fix> manualLocation) {
        return ContextSources.of(home, settings, manualLocation);
    }

    /**
     * What a proof of the file would record now under the settings, without signing or storing anything:
     * {@code proofmode inspect}, and the context a content-credential manifest carries.
     *
     * @param settings what to record
     * @param manualLocation a position given for this run, used when location is on
     * @return the record, without {@code Proof.Signer}
     * @throws ProofModeException as {@link Prover#inspect(Path)}
     */
    public ProofRecord inspect(Path file, Settings settings, Optional<Fix> manualLocation) {
        Prover reader = new Prover(() -> {
            throw new IllegalStateException("inspecting never signs");
        }, store, contextSources(settings, manualLocation), clock);
        return reader.inspect(file);
    }

    /**
     * The stored proof of the file that was at this path when it was proved, whatever it holds now: so a
     * file changed since is checked against its proof (and found changed) rather than found unproved. Only
     * in a home whose store is not encrypted ({@link MediaPaths}).
     */
    public Optional<Path> provedAt(Path file) {
        if (store.isEncrypted()) {
            return Optional.empty();
        }
        return new MediaPaths(home).provedAt(file).flatMap(store::find);
    }

    /** A stored proof set and, when known, the media file it is for. */
    public record StoredProof(String sha256, Path folder, Optional<Path> media) {
        /** Validates the fields. */
        public StoredProof {
            Objects.requireNonNull(sha256, "sha256");
            Objects.requireNonNull(folder, "folder");
            Objects.requireNonNull(media, "media");
        }
    }

    /**
     * Finds a stored proof by its media's SHA-256 (hex) or by the media file. Given a hash, the media is
     * the file at the recorded path if it is still there and unchanged.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such proof or file,
     *     {@link Failure#IO} if the file cannot be read
     */
    public StoredProof find(String hashOrFile) {
        Path path = Path.of(hashOrFile);
        if (Hex.isSha256(hashOrFile) && !Files.exists(path)) {
            String h = hashOrFile.toLowerCase(Locale.ROOT);
            Path folder = storedFolder(h);
            return new StoredProof(h, folder, recordedMedia(folder, h));
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
        return new StoredProof(h, folder, Optional.of(path));
    }

    /**
     * The record of a stored proof set.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be read, {@link Failure#BAD_DATA} if
     *     it is not a proof JSON
     */
    public ProofRecord storedRecord(Path folder, String sha256) {
        try {
            if (store.isEncrypted()) {
                byte[] json = store.files(sha256).map(f -> f.get(ProofFiles.json(sha256))).orElseThrow(
                        () -> new ProofModeException(Failure.BAD_DATA, folder + ": the set has no " + ProofFiles.json(sha256)));
                return ProofJson.read(json, folder + " (" + ProofFiles.json(sha256) + ")").get(0);
            }
            return ProofJson.readStored(folder, sha256);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read the proof in " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * The media at the recorded path, if the proof records a full path ({@code context.file-path full}, older
     * proofs), else where this home noted it ({@link MediaPaths}), if the file is still there and unchanged.
     */
    private Path storedFolder(String h) {
        return store.find(h).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING, "no proof with hash " + h + " in " + store.root()));
    }

    private Optional<Path> recordedMedia(Path folder, String h) {
        Optional<Path> p = storedRecord(folder, h).get(ProofFields.FILE_PATH).map(Path::of).filter(Path::isAbsolute)
                .or(() -> new MediaPaths(home).noted(h)).filter(Files::isRegularFile);
        try {
            return p.isPresent() && Digests.sha256(p.get()).equals(h) ? p : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The metadata sources used by default: the file's facts and the device in broad strokes. */
    public static List<MetadataSource> defaultSources() {
        return List.of(new FileSource(), new DeviceSource());
    }

    /**
     * Makes a prover that writes into a store.
     *
     * @param key the unlocked device key
     * @param target where proof sets go (this home's store, or another folder)
     * @param sources metadata sources
     */
    public Prover prover(SigningKey key, ProofStore target, List<MetadataSource> sources) {
        Objects.requireNonNull(key, "key");
        target.recover();
        return remembering(new Prover(key, target, sources, clock), target);
    }

    /** A prover into this home's plain store notes where each media file is ({@link MediaPaths}). */
    private Prover remembering(Prover prover, ProofStore target) {
        if (target != store || store.isEncrypted()) {
            return prover;
        }
        MediaPaths paths = new MediaPaths(home);
        return prover.withGuard((file, sha256, size) -> paths.remember(file, sha256));
    }

    /**
     * Makes a prover whose key is still being unlocked; media are hashed meanwhile.
     *
     * @param key gives the unlocked device key; may block, and may throw {@link ProofModeException}
     * @param target where proof sets go
     * @param sources metadata sources
     */
    public Prover prover(Supplier<SigningKey> key, ProofStore target, List<MetadataSource> sources) {
        target.recover();
        return remembering(new Prover(key, target, sources, clock), target);
    }

    /**
     * Makes a redactor whose copies are proved into this home's store, with the sources of
     * {@link ContextSources#forRedactedCopy}.
     *
     * @param key gives the unlocked device key; may block, and may throw {@link ProofModeException}
     * @param settings the settings in force (only {@code image-hashes} is read)
     * @param strip the metadata policy of the copies (their GPS tags are recorded only when kept)
     */
    public Redactor redactor(Supplier<SigningKey> key, Settings settings, StripPolicy strip) {
        boolean gpsKept = strip.kept().contains(ExifGroup.LOCATION);
        return new Redactor(store, prover(key, store, ContextSources.forRedactedCopy(settings, gpsKept)), clock);
    }

    /**
     * Makes a verifier that trusts this device's own keys (current and earlier) and the given ones.
     *
     * @param extraTrusted more trusted keys, e.g. from {@code --trust}
     */
    public Verifier verifier(List<PGPPublicKeyRing> extraTrusted) {
        return verifier(extraTrusted, List.of());
    }

    /**
     * Makes a verifier that trusts this device's own keys and the given ones, and anchors RFC 3161
     * tokens in the roots of {@code <home>/tsa-roots/} and the given ones.
     *
     * @param extraTrusted more trusted keys, e.g. from {@code --trust}
     * @param extraTsaRoots more trusted time-stamp roots, e.g. from {@code --tsa-trust}
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a file in {@code tsa-roots/} is not a certificate
     */
    public Verifier verifier(List<PGPPublicKeyRing> extraTrusted, List<X509Certificate> extraTsaRoots) {
        return verifier(extraTrusted, extraTsaRoots, List.of());
    }

    /**
     * Makes a verifier as {@link #verifier(List, List)} whose content-credential (C2PA) checks trust this
     * home's C2PA CA and the given anchors (see {@link #c2paChecks(List, List)}).
     *
     * @param extraTrusted more trusted keys, e.g. from {@code --trust}
     * @param extraTsaRoots more trusted time-stamp roots, e.g. from {@code --tsa-trust}
     * @param c2paAnchors more C2PA trust anchors, e.g. from {@code --c2pa-trust}
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a trusted root cannot be read
     */
    public Verifier verifier(List<PGPPublicKeyRing> extraTrusted, List<X509Certificate> extraTsaRoots,
            List<X509Certificate> c2paAnchors) {
        return verifier(extraTrusted, extraTsaRoots, c2paAnchors, BundleLimits.DEFAULT);
    }

    /**
     * Makes a verifier as {@link #verifier(List, List, List)} that reads bundles under the given limits:
     * the one place where the CLI, the server and library callers get their verifier. Its content-credential
     * checks are {@link Verifier#c2paChecks()}, for media checked on their own.
     *
     * @param limits bounds on the bundles it reads, e.g. the server's
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a trusted root cannot be read
     */
    public Verifier verifier(List<PGPPublicKeyRing> extraTrusted, List<X509Certificate> extraTsaRoots,
            List<X509Certificate> c2paAnchors, BundleLimits limits) {
        List<PGPPublicKeyRing> trusted = new ArrayList<>(extraTrusted);
        trusted.addAll(keys.allCertificates());
        return new Verifier(trusted, limits, tsaRoots(extraTsaRoots), c2paChecks(c2paAnchors, extraTsaRoots))
                .withLogKeys(logKeys(List.of()));
    }

    /**
     * The transparency-log keys a verifier of this home trusts: the given ones and those of
     * {@code <home>/log-keys/}, one verifier key ({@code <origin>+<hash>+<base64>}) per file.
     *
     * @param extra more log keys, e.g. from {@code --log-key}
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a file there is not a verifier key
     */
    public List<NoteKey> logKeys(List<NoteKey> extra) {
        List<NoteKey> out = new ArrayList<>(extra);
        Path dir = Home.LOG_KEYS.in(home);
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.add(readLogKey(f));
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Reads a log's verifier key from a file holding it on one line.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such file,
     *     {@link Failure#BAD_DATA} if it holds no verifier key
     */
    public static NoteKey readLogKey(Path file) {
        InputFiles.requireRegular(file, "log key file");
        String text = new String(InputFiles.read(file, 4096, "log key file"), StandardCharsets.UTF_8).strip();
        try {
            return NoteKey.parse(text);
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, file + " is not a log's verifier key (origin+hash+base64): "
                    + e.getMessage(), e);
        }
    }

    /**
     * Makes the content-credential (C2PA) checks of {@code verify}: signers are trusted when they chain to
     * this home's C2PA CA ({@code <home>/c2pa/ca.pem}) or one of the given anchors; time-stamps are
     * anchored as for {@link #verifier(List, List)}.
     *
     * @param anchors more C2PA trust anchors, e.g. from {@code --c2pa-trust}
     * @param extraTsaRoots more trusted time-stamp roots
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a trusted root cannot be read
     */
    public C2paChecks c2paChecks(List<X509Certificate> anchors, List<X509Certificate> extraTsaRoots) {
        List<X509Certificate> all = new ArrayList<>(anchors);
        all.addAll(LocalCa.anchorsInHome(home));
        return new C2paChecks(new C2paReader(all, tsaRoots(extraTsaRoots)));
    }

    /**
     * A time-stamper for C2PA signatures ({@code sigTst2}) at one authority, with this home's network
     * time-outs.
     */
    public TimeStamper c2paTimeStamper(URI tsa) {
        return c2paTimeStamper(tsa, settings().proxy());
    }

    /** As {@link #c2paTimeStamper(URI)}, through this SOCKS5 proxy (or directly) whatever the settings say. */
    public TimeStamper c2paTimeStamper(URI tsa, Optional<Http.Socks> proxy) {
        TsaClient client = new TsaClient(
                new Http(TimestampSettings.load(home).timeouts(), proxy), new SecureRandom());
        return sha256 -> client.stamp(tsa, sha256);
    }

    /**
     * Makes the timestamp service of this home: settings from {@code <home>/timestamp.conf}, the queue in
     * {@code <home>/timestamp-queue/}, trusted roots from {@code <home>/tsa-roots/} and the given ones.
     *
     * @param extraTsaRoots more trusted time-stamp roots, e.g. from {@code --tsa-trust}
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the settings or a root cannot be read
     */
    public Timestamps timestamps(List<X509Certificate> extraTsaRoots) {
        return timestamps(extraTsaRoots, settings().proxy());
    }

    /** As {@link #timestamps(List)}, through this SOCKS5 proxy (or directly) whatever the settings say. */
    public Timestamps timestamps(List<X509Certificate> extraTsaRoots, Optional<Http.Socks> proxy) {
        return new Timestamps(TimestampSettings.load(home), new TimestampQueue(home.resolve(TimestampQueue.FOLDER), store.queueSealing()),
                tsaRoots(extraTsaRoots), clock, proxy, Optional.of(store));
    }

    private List<X509Certificate> tsaRoots(List<X509Certificate> extra) {
        List<X509Certificate> roots = new ArrayList<>(extra);
        roots.addAll(TrustedRoots.inHome(home));
        return roots;
    }

    /** The queue of what could not be published yet, {@code <home>/publish-queue/} (sealed when the store is encrypted). */
    public PublishQueue publishQueue() {
        return new PublishQueue(home.resolve(PublishQueue.FOLDER), store.queueSealing());
    }

    /**
     * Publishes a stored proof: its share bundle (made anew, byte-identical for the same proof set) or its
     * notarization text. What retrying may fix (the server or the proxy away) is queued in
     * {@link #publishQueue()}; an item sent is taken off the queue.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for no such proof (or, with the media,
     *     media no longer where the proof says), and what {@link Publisher} throws that retrying cannot fix
     *     (the item is then taken off the queue too: it would fail the same way)
     */
    public Publishing.Result publish(Publishing to, String sha256) {
        return publish(to, sha256, Optional.empty());
    }

    /**
     * As {@link #publish(Publishing, String)}, for a proof the caller found already ({@link #find}): its media
     * is not looked up and hashed again.
     */
    public Publishing.Result publish(Publishing to, StoredProof proof) {
        return publish(to, proof.sha256(), Optional.of(proof));
    }

    private Publishing.Result publish(Publishing to, String sha256, Optional<StoredProof> known) {
        PublishQueue queue = publishQueue();
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

    /** Sends a stored proof; its media is found (and checked unchanged) only when it is sent. */
    private Publisher.Published sendStored(Publisher publisher, String sha256, Optional<StoredProof> known, Publisher.What what) {
        Path folder = known.map(StoredProof::folder).orElseGet(() -> storedFolder(sha256));
        if (what == Publisher.What.NOTARIZE_ONLY) {
            ProofRecord record = storedRecord(folder, sha256);
            Instant when = record.get(ProofFields.PROOF_GENERATED).flatMap(ProofTimes::parse).orElseThrow(() ->
                    new ProofModeException(Failure.BAD_DATA, sha256 + ": the proof record has no proof time"));
            String signer = record.get(ProofFields.PROOF_SIGNER).orElseThrow(() ->
                    new ProofModeException(Failure.BAD_DATA, sha256 + ": the proof record names no signer"));
            return publisher.notarization(Notarization.text(sha256, signer, when));
        }
        Optional<Path> media = Optional.empty();
        if (what == Publisher.What.WITH_MEDIA) {
            media = Optional.of(known.map(StoredProof::media).orElseGet(() -> recordedMedia(folder, sha256)).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
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
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // a left-over temporary bundle in the home's own folder; the next publish makes a new one
                }
            }
        }
    }
}
