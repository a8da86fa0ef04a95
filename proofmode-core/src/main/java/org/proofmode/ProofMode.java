// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.ProofStore;
import org.proofmode.bundle.StoreEncryption;
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
import org.proofmode.prove.ContextReader;
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
import org.proofmode.util.Home;
import org.proofmode.util.Http;
import org.proofmode.verify.C2paChecks;
import org.proofmode.verify.DeviceIntegrityChecks;
import org.proofmode.verify.Targets;
import org.proofmode.verify.Trust;
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

    /** A home with the given store (shared: a set one's prover seals is stamped by the other's timestamps), else its own. */
    private ProofMode(Path home, StoreKeys storeKeys, Optional<StoreIdentity> storeIdentity, Optional<ProofStore> store, Clock clock) {
        this.home = home;
        this.keys = new DeviceKeys(home);
        this.storeKeys = storeKeys;
        this.storeIdentity = storeIdentity;
        this.store = store.orElseGet(() -> storeKeys.openStore(Home.PROOFS.in(home), storeIdentity));
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Opens a home folder, e.g. {@code ~/.proofmode}. Nothing is created until it is needed. */
    public static ProofMode at(Path home) {
        Path h = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
        return new ProofMode(h, new StoreKeys(h), Optional.empty(), Optional.empty(), Clock.systemUTC());
    }

    /**
     * The same home, with the times of proofs, redactions and timestamp queues read from the given clock
     * (the system's by default): for an application with a clock of its own, such as the watcher's.
     */
    public ProofMode withClock(Clock clock) {
        return new ProofMode(home, storeKeys, storeIdentity, Optional.of(store), clock);
    }

    /** The same home, whose encrypted store is read with this identity (unlocked from {@link #storeKeys()}). */
    public ProofMode withStoreIdentity(StoreIdentity identity) {
        return new ProofMode(home, new StoreKeys(home), Optional.of(identity), Optional.empty(), clock);
    }

    /** The encrypted store's keys (present only for an encrypted store). */
    public StoreKeys storeKeys() {
        return storeKeys;
    }

    /**
     * Makes this home's store encrypted: creates its identity, sealed with the passphrase (the device
     * key's), then seals every plain set ({@link StoreEncryption}).
     *
     * @return the identity, unlocked, and how many sets were moved
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the store is encrypted already
     */
    public Encrypted encryptStore(Passphrase passphrase) {
        return markAndSeal(storeKeys.create(passphrase));
    }

    /**
     * Makes this home's store encrypted to an identity brought from another machine of the same desk, sealed
     * here with the passphrase; plain sets are sealed as by {@link #encryptStore}.
     *
     * @return how many plain sets were sealed
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if the store is encrypted to another identity
     */
    public int adoptStoreIdentity(StoreIdentity identity, Passphrase passphrase) {
        storeKeys.adopt(identity, passphrase);
        return markAndSeal(identity).moved();
    }

    private Encrypted markAndSeal(StoreIdentity id) {
        StoreEncryption.mark(store.root());
        ProofStore sealed = withStoreIdentity(id).store();
        int moved = StoreEncryption.sealPlainSets(sealed);
        sealed.queueSealing().ifPresent(q -> PublishToken.sealClear(home, q));
        return new Encrypted(id, moved);
    }

    /** An encrypted store made: its identity and how many plain sets were sealed. */
    public record Encrypted(StoreIdentity identity, int moved) {}

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

    /** The settings file, {@code <home>/settings}; reading it writes the documented default file first if there is none. */
    public SettingsFile settingsFile() {
        return new SettingsFile(home.resolve(SettingsFile.NAME));
    }

    /**
     * The settings in force: what proofs record beyond the file.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the settings file has an unknown key or a bad value
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
     * Reads what a proof of a file would record now under the settings (and a position given for this run),
     * with no key and nothing signed or stored: {@code inspect}, and the context a content credential carries.
     */
    public ContextReader contextReader(Settings settings, Optional<Fix> manualLocation) {
        return new ContextReader(contextSources(settings, manualLocation), clock);
    }

    /**
     * Where {@code verify} and {@code report} look up the proof of a media file: this home's store, able to
     * read its sealed sets once unlocked, and where each file was proved ({@link MediaPaths}, plain stores
     * only), so a file changed since is checked against its proof and found changed, not unproved.
     *
     * @param unlock gives this home's store able to read its sealed sets (e.g. {@link #withStoreIdentity})
     */
    public Targets.Stored storedProofs(Supplier<ProofStore> unlock) {
        return new Targets.Stored(store, unlock, file -> store.isEncrypted() ? Optional.empty()
                : new MediaPaths(home).provedAt(file).flatMap(store::find));
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
     * Makes a verifier that trusts this device's own keys (current and earlier), the time-stamp roots of
     * {@code <home>/tsa-roots/}, this home's C2PA CA ({@code c2pa/ca.pem}), the log keys of {@code log-keys/},
     * and what the trust adds: the one place where the CLI, the server and library callers get a verifier.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a trusted root or log key of the home cannot be read
     */
    public Verifier verifier(Trust trust) {
        List<X509Certificate> tsa = tsaRoots(trust.tsaRoots());
        C2paChecks c2pa = new C2paChecks(new C2paReader(plus(trust.c2paAnchors(), LocalCa.anchorsInHome(home)), tsa));
        Verifier v = new Verifier(plus(trust.keys(), keys.allCertificates()), trust.limits(), tsa, c2pa)
                .withLogKeys(plus(trust.logKeys(), Trust.logKeysIn(home))).withRequiredWitnesses(trust.requiredWitnesses());
        DeviceIntegrityChecks integrity = trust.integrityRoots().map(roots -> DeviceIntegrityChecks.of(roots,
                List.of(DeviceIntegrityChecks.PROOFMODE_ANDROID))).orElseGet(DeviceIntegrityChecks::systemDefault);
        return v.withDeviceIntegrity(integrity.withAttestationStatus(trust.attestationStatus()));
    }

    /** A time-stamper for C2PA signatures ({@code sigTst2}) at one authority, with this home's network time-outs. */
    public TimeStamper c2paTimeStamper(URI tsa) {
        return c2paTimeStamper(tsa, settings().proxy());
    }

    /** As {@link #c2paTimeStamper(URI)}, through this SOCKS5 proxy (or directly) whatever the settings say. */
    public TimeStamper c2paTimeStamper(URI tsa, Optional<Http.Socks> proxy) {
        TsaClient client = new TsaClient(new Http(TimestampSettings.load(home).timeouts(), proxy), new SecureRandom());
        return sha256 -> client.stamp(tsa, sha256);
    }

    /**
     * Makes the timestamp service of this home: settings from {@code <home>/timestamp.conf}, the queue in
     * {@code <home>/timestamp-queue/}, trusted roots from {@code <home>/tsa-roots/} and the given ones
     * (e.g. from {@code --tsa-trust}).
     *
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
        return plus(extra, TrustedRoots.inHome(home));
    }

    private static <T> List<T> plus(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** The queue of what could not be published yet, {@code <home>/publish-queue/} (sealed when the store is encrypted). */
    public PublishQueue publishQueue() {
        return HomeProofs.publishQueue(home, store);
    }

    /**
     * Finds a stored proof by its media's SHA-256 (hex) or by the media file (given a hash, the media is
     * the file at the recorded path if it is still there and unchanged).
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such proof or file,
     *     {@link Failure#IO} if the file cannot be read
     */
    public StoredProof find(String hashOrFile) {
        return new HomeProofs(home, store, clock).find(hashOrFile);
    }

    /**
     * Publishes a stored proof: its share bundle (made anew, byte-identical for the same set) or its notarization
     * text. What retrying may fix is queued in {@link #publishQueue()}; an item sent is taken off the queue.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for no such proof (or, with the media,
     *     media no longer where the proof says), and what {@link Publisher} throws that retrying cannot fix
     *     (the item is then taken off the queue too: it would fail the same way)
     */
    public Publishing.Result publish(Publishing to, String sha256) {
        return new HomeProofs(home, store, clock).publish(to, sha256, Optional.empty());
    }

    /** Publishes a collection folder ({@code collect}'s) whole as one zip, never queued (see {@code HomeProofs}). */
    public Publishing.Result publishCollection(Publishing to, Path folder) {
        return new HomeProofs(home, store, clock).publishCollection(to, folder);
    }

    /** As {@link #publish(Publishing, String)}, for a proof found already ({@link #find}): its media is not hashed again. */
    public Publishing.Result publish(Publishing to, StoredProof proof) {
        return new HomeProofs(home, store, clock).publish(to, proof.sha256(), Optional.of(proof));
    }
}
