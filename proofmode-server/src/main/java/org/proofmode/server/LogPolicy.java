// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.media.Digests;
import org.proofmode.tlog.NoteKey;

/**
 * How the server keeps its transparency log.
 *
 * @param origin the origin line of a new log (the key's name); empty for {@code <host name>/proofmode-log/<key hash>}
 *     ({@link #originFor}).
 *     An existing log keeps the origin it was made with
 * @param passphraseFile a file holding the log key's passphrase; empty when the key's passphrase was
 *     generated and is kept beside it
 * @param interval how often queued entries are integrated and a checkpoint signed (when there are any)
 * @param witnesses the witnesses each new checkpoint is sent to for cosigning (C2SP tlog-witness)
 * @param quorum how many of them must have cosigned a checkpoint before it is served and receipts use it
 *     (0: checkpoints are served as soon as the log signs them)
 * @param tsa an RFC 3161 time-stamp authority that stamps each checkpoint served, anchoring the log in time
 * @param copyToBucket whether the checkpoint served and its tiles are copied to the bucket for static serving
 *     ({@link LogMirror}); needs bundles in a bucket
 */
public record LogPolicy(Optional<String> origin, Optional<Path> passphraseFile, Duration interval, List<WitnessRef> witnesses,
        int quorum, Optional<URI> tsa, boolean copyToBucket) {
    /** The defaults: origin from the host name, a generated passphrase, a checkpoint at most every second, no witnesses. */
    public static final LogPolicy DEFAULT = new LogPolicy(Optional.empty(), Optional.empty(), Duration.ofSeconds(1));

    /**
     * A witness the log asks for cosignatures.
     *
     * @param key its cosignature key (type {@link NoteKey#COSIGNATURE_V1})
     * @param url its submission prefix: requests go to {@code <url>/add-checkpoint}
     */
    public record WitnessRef(NoteKey key, URI url) {
        /** Validates the fields. */
        public WitnessRef {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(url, "url");
            if (!key.cosigner()) {
                throw new IllegalArgumentException("a witness's key is a cosignature key (type 4)");
            }
        }
    }

    /** Without witnesses. */
    public LogPolicy(Optional<String> origin, Optional<Path> passphraseFile, Duration interval) {
        this(origin, passphraseFile, interval, List.of(), 0, Optional.empty());
    }

    /** Kept in the database only (not copied to a bucket). */
    public LogPolicy(Optional<String> origin, Optional<Path> passphraseFile, Duration interval, List<WitnessRef> witnesses,
            int quorum, Optional<URI> tsa) {
        this(origin, passphraseFile, interval, witnesses, quorum, tsa, false);
    }

    /** This policy, with the log copied to the bucket or not. */
    public LogPolicy withCopyToBucket(boolean copy) {
        return new LogPolicy(origin, passphraseFile, interval, witnesses, quorum, tsa, copy);
    }

    /** Validates the fields. */
    public LogPolicy {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(passphraseFile, "passphraseFile");
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the log's interval must be positive");
        }
        witnesses = List.copyOf(witnesses);
        Objects.requireNonNull(tsa, "tsa");
        if (quorum < 0 || quorum > witnesses.size()) {
            throw new IllegalArgumentException("the quorum is 0 to the number of witnesses");
        }
    }

    /**
     * The origin for a new log on this machine whose key is {@code publicKey}: the one configured, else
     * {@code <host name>/proofmode-log/<8 hex digits>}, the start of the key's SHA-256, so that two
     * installations on machines of the same name do not make logs of the same origin (verifiers find a log's
     * key by its origin). A log made before keeps the origin it was made with.
     */
    public String originFor(byte[] publicKey) {
        return origin.orElseGet(() -> hostName() + "/proofmode-log/" + Digests.sha256Hex(publicKey).substring(0, 8));
    }

    /** This machine's name, as default names of logs and witnesses start ({@code localhost} if unknown). */
    public static String hostName() {
        String h = System.getenv("HOSTNAME");
        if (h == null || h.isBlank()) {
            try {
                h = Files.readString(Path.of("/etc/hostname")).strip();
            } catch (IOException | RuntimeException e) {
                h = "";
            }
        }
        h = h.replaceAll("[^A-Za-z0-9.-]", "");
        return h.isEmpty() ? "localhost" : h;
    }
}
