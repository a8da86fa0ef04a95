// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The layout of a ProofMode home ({@code PROOFMODE_HOME}, default {@code ~/.proofmode}): every file and
 * folder the code writes there, one entry each, with what it holds, how it is kept on disk ({@link Kind})
 * and which {@code proofmode wipe} erases it ({@link Wipe}). Every class that reads or writes an entry
 * resolves it here, so a name has one owner; {@code wipe} erases by these marks, and the home-folder
 * tables of docs/architecture.md and docs/threat-model.md are checked against this list by tests.
 *
 * <p>Security: the kinds are a promise about what a copied disk shows; a new entry that holds something
 * private gets {@link Kind#SECRET} or {@link Kind#SEALED} and a test that reads its raw bytes.
 */
public enum Home {
    /** {@code keys/secret.asc}. */
    DEVICE_KEY("keys/secret.asc", Kind.SECRET, Wipe.KEYS, "the device key, S2K-protected by its passphrase"),
    /** {@code keys/passphrase}. */
    GENERATED_PASSPHRASE("keys/passphrase", Kind.SECRET, Wipe.KEYS,
            "the passphrase `keys create` generated when none was given (owner-only, plain)"),
    /** {@code keys/public/}: one {@code <fingerprint>.asc} per certificate. */
    PUBLIC_KEYS("keys/public/", Kind.PUBLIC, Wipe.KEYS, "the device key's certificates, current and earlier"),
    /** {@code keys/token.json}. */
    TOKEN_REFERENCE("keys/token.json", Kind.CONFIG, Wipe.KEYS, "which PKCS#11 token holds the key (no PIN)"),
    /** {@code keys/secret.checked}. */
    CHECKED_KEY("keys/secret.checked", Kind.CACHE, Wipe.KEYS, "the note that the key file's self-signatures were checked"),
    /** {@code keys/identifier-secret}. */
    IDENTIFIER_SECRET("keys/identifier-secret", Kind.SECRET, Wipe.KEYS, "the key that hashes device and network identifiers"),
    /** {@code keys/store-recipient.txt}. */
    STORE_RECIPIENT("keys/store-recipient.txt", Kind.PUBLIC, Wipe.KEYS, "the encrypted store's age recipient"),
    /** {@code keys/store-identity.age}. */
    STORE_IDENTITY("keys/store-identity.age", Kind.SECRET, Wipe.KEYS,
            "the encrypted store's identity, sealed with the device key's passphrase"),
    /** {@code keys/watch-key.age}. */
    WATCH_KEY("keys/watch-key.age", Kind.SECRET, Wipe.KEYS, "the watcher's database key, sealed with the device key's passphrase"),
    /** {@code publish/token}. */
    PUBLISH_TOKEN("publish/token", Kind.SECRET, Wipe.KEYS, "the upload token of `publish login` (owner-only, plain) in a plain home"),
    /** {@code publish/token.age}. */
    PUBLISH_TOKEN_SEALED("publish/token.age", Kind.SEALED, Wipe.KEYS, "the upload token, sealed to the store's recipient"),
    /** {@code proofs/}. */
    PROOFS("proofs/", Kind.SEALED, Wipe.PROOFS,
            "the proof sets (`<h>.proof.json`, `.asc`, …); encrypted: opaque names, `index.age`, the `.encrypted` marker"),
    /** {@code settings}. */
    SETTINGS("settings", Kind.CONFIG, Wipe.ALL, "what proofs record"),
    /** {@code timestamp.conf}. */
    TIMESTAMP_SETTINGS("timestamp.conf", Kind.CONFIG, Wipe.ALL, "TSA URL, OTS calendars"),
    /** {@code tsa-roots/}. */
    TSA_ROOTS("tsa-roots/", Kind.PUBLIC, Wipe.ALL, "TSA root certificates to trust"),
    /** {@code timestamp-queue/}. */
    TIMESTAMP_QUEUE("timestamp-queue/", Kind.SEALED, Wipe.PROOFS, "what could not be time-stamped yet"),
    /** {@code publish-queue/}. */
    PUBLISH_QUEUE("publish-queue/", Kind.SEALED, Wipe.PROOFS, "what could not be sent yet"),
    /** {@code publish/outgoing/}. */
    PUBLISH_OUTGOING("publish/outgoing/", Kind.CACHE, Wipe.PROOFS, "bundles being sent (removed when sent)"),
    /** {@code publish/uploads/}. */
    PUBLISH_UPLOADS("publish/uploads/", Kind.CACHE, Wipe.ALL,
            "the address of each resumable upload in progress, by the bundle's SHA-256"),
    /** {@code media-paths/}. */
    MEDIA_PATHS("media-paths/", Kind.DATA, Wipe.PROOFS,
            "where each proved file was on this machine (not kept in a home with an encrypted store)"),
    /** {@code c2pa/}. */
    C2PA("c2pa/", Kind.SECRET, Wipe.ALL,
            "the local C2PA CA: `ca.pem`, `signer.pem` (public); `ca.key`, `signer.key` (PKCS#8 under the device passphrase)"),
    /** {@code log-keys/}. */
    LOG_KEYS("log-keys/", Kind.PUBLIC, Wipe.ALL, "transparency-log verifier keys this home trusts"),
    /** {@code log-monitor/}: one {@code <id>.checkpoint} per log. */
    LOG_MONITOR("log-monitor/", Kind.CACHE, Wipe.ALL, "the last checkpoint seen of each monitored log"),
    /** {@code witness/key/}. */
    WITNESS_KEY("witness/key/", Kind.SECRET, Wipe.ALL, "a witness's key (`key.pem` encrypted, `verifier-key`, generated `passphrase`)"),
    /** {@code witness/state}. */
    WITNESS_STATE("witness/state", Kind.DATA, Wipe.ALL, "the checkpoints a witness cosigned"),
    /** {@code server/evidence.db}. */
    SERVER_DATABASE("server/evidence.db", Kind.DATA, Wipe.ALL, "the evidence server's database (SQLite default)"),
    /** {@code server/blobs/}. */
    SERVER_BLOBS("server/blobs/", Kind.DATA, Wipe.ALL, "the evidence server's blobs (`incoming/`, `resumable/` while uploading)"),
    /** {@code server/log-key/}. */
    SERVER_LOG_KEY("server/log-key/", Kind.SECRET, Wipe.ALL,
            "the server's log key (`key.pem` encrypted, `verifier-key`, generated `passphrase`)"),
    /** {@code watch.db} (with SQLite's {@code -wal} and {@code -shm} beside it). */
    WATCH_DB("watch.db", Kind.SEALED, Wipe.PROOFS,
            "the watcher's queue, proofs and errors (sealed with the watch key in an encrypted home)"),
    /** {@code watch.lock}. */
    WATCH_LOCK("watch.lock", Kind.RUNTIME, Wipe.ALL, "one watcher per home"),
    /** {@code home.lock}. */
    HOME_LOCK("home.lock", Kind.RUNTIME, Wipe.ALL, "one creator at a time of what is made once"),
    /** {@code agent/}. */
    AGENT("agent/", Kind.RUNTIME, Wipe.ALL, "the agent's socket `agent.sock` and `agent.info` (owner-only)"),
    /** {@code tmp/}. */
    TMP("tmp/", Kind.CACHE, Wipe.ALL, "temporary files of an encrypted home (owner-only)");

    /** How an entry is kept on disk. */
    public enum Kind {
        /** Encrypted on disk unless said (a passphrase, S2K, or sealed with the device key's passphrase). */
        SECRET,
        /** Age-encrypted to the store's recipient when the store is encrypted, else plain. */
        SEALED,
        /** Meant to be shown. */
        PUBLIC,
        /** Settings, plain. */
        CONFIG,
        /** Plain on disk, owner-only: the evidence server's store, where proved files lie, a witness's state. */
        DATA,
        /** Safe to delete. */
        CACHE,
        /** Exists while a process runs. */
        RUNTIME;

        /** The kind as the docs write it: {@code secret}, {@code sealed}, … */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Which {@code proofmode wipe} erases an entry ({@code --all} erases the whole home, so every entry). */
    public enum Wipe {
        /** {@code --keys} (and {@code --all}): overwritten with random bytes, then deleted. */
        KEYS,
        /** {@code --proofs} (and {@code --all}): deleted. */
        PROOFS,
        /** Only {@code --all}, with the home. */
        ALL;

        /** The option as the docs write it. */
        public String option() {
            return "--" + name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final String path;
    private final Kind kind;
    private final Wipe wipe;
    private final String holds;

    Home(String path, Kind kind, Wipe wipe, String holds) {
        this.path = path;
        this.kind = kind;
        this.wipe = wipe;
        this.holds = holds;
    }

    /** The path under the home, with {@code /} between names and a trailing {@code /} for a folder. */
    public String path() {
        return path;
    }

    /** The last name of the path, without a trailing {@code /}: {@code secret.asc}, {@code proofs}. */
    public String fileName() {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return p.substring(p.lastIndexOf('/') + 1);
    }

    /** Whether the entry is a folder. */
    public boolean isFolder() {
        return path.endsWith("/");
    }

    /** How it is kept on disk. */
    public Kind kind() {
        return kind;
    }

    /** Which {@code wipe} erases it. */
    public Wipe wipe() {
        return wipe;
    }

    /** What it holds, in a few words for people (the docs' tables). */
    public String holds() {
        return holds;
    }

    /**
     * The entry in a given home.
     *
     * @param home the ProofMode home
     * @return the entry's path there
     */
    public Path in(Path home) {
        Path p = Objects.requireNonNull(home, "home");
        for (String name : path.split("/")) {
            p = p.resolve(name);
        }
        return p;
    }

    /**
     * The entries present in a given home, in the order of this list ({@code proofmode status}).
     *
     * @param home the ProofMode home
     */
    public static List<Home> presentIn(Path home) {
        return Arrays.stream(values()).filter(e -> Files.exists(e.in(home), LinkOption.NOFOLLOW_LINKS)).toList();
    }

    /** The entries a {@code wipe} option erases (for {@link Wipe#ALL}, the whole home: every entry). */
    public static List<Home> erasedBy(Wipe option) {
        return Arrays.stream(values()).filter(e -> option == Wipe.ALL || e.wipe == option).toList();
    }
}
