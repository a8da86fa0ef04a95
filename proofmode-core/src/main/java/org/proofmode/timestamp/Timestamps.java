// SPDX-License-Identifier: Apache-2.0
package org.proofmode.timestamp;

import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofSet;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.timestamp.StampResult.Kind;
import org.proofmode.timestamp.StampResult.Outcome;
import org.proofmode.timestamp.ots.Attestation;
import org.proofmode.timestamp.ots.CalendarClient;
import org.proofmode.timestamp.ots.Op;
import org.proofmode.timestamp.ots.OtsFile;
import org.proofmode.timestamp.ots.OtsFormatException;
import org.proofmode.timestamp.ots.Timestamp;
import org.proofmode.timestamp.rfc3161.TokenVerifier;
import org.proofmode.timestamp.rfc3161.TsaClient;
import org.proofmode.util.Http;

/**
 * Gets trusted timestamps for proofs, offline first. What is stamped is the media signature file
 * {@code <h>.asc} as stored: its SHA-256 is the RFC 3161 message imprint and the OpenTimestamps file
 * digest, so a timestamp shows that the signature (and so the media it covers) existed then.
 * Tokens go to {@code <h>.tsr} (the authority's whole DER response), OpenTimestamps proofs to
 * {@code <h>.ots}, both written atomically into the proof folder. A service that cannot be reached
 * leaves the request in the {@link TimestampQueue} for {@link #sync}.
 */
public final class Timestamps {
    private final TimestampSettings settings;
    private final TimestampQueue queue;
    private final TsaClient tsa;
    private final CalendarClient calendars;
    private final TokenVerifier tokens;
    private final SecureRandom random;
    private final Clock clock;
    private final Optional<ProofStore> store;

    /**
     * Creates the service.
     *
     * @param settings authorities, calendars and timeouts
     * @param queue where unreachable requests wait
     * @param tsaRoots trusted roots, to tell whether a new token's authority is trusted
     * @param clock the time for the queue's backoff
     */
    public Timestamps(TimestampSettings settings, TimestampQueue queue, List<X509Certificate> tsaRoots, Clock clock) {
        this(settings, queue, tsaRoots, clock, Optional.empty());
    }

    /**
     * Creates the service with every connection through a SOCKS5 proxy, if one is given (see {@link Http}):
     * authorities and calendars then never learn this machine's address, and nothing goes direct.
     */
    public Timestamps(TimestampSettings settings, TimestampQueue queue, List<X509Certificate> tsaRoots, Clock clock,
            Optional<Http.Socks> proxy) {
        this(settings, queue, tsaRoots, clock, proxy, Optional.empty());
    }

    /**
     * Creates the service for a home's store: the folders of its proofs (named by the queue, or by a
     * prover's results) are its sets, sealed ones too ({@link ProofStore#set(Path, String)}); others are
     * plain folders.
     */
    public Timestamps(TimestampSettings settings, TimestampQueue queue, List<X509Certificate> tsaRoots, Clock clock,
            Optional<Http.Socks> proxy, Optional<ProofStore> store) {
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = new SecureRandom();
        Http http = new Http(settings.timeouts(), proxy);
        this.tsa = new TsaClient(http, random);
        this.calendars = new CalendarClient(http);
        this.tokens = new TokenVerifier(tsaRoots);
    }

    /** The settings in use. */
    public TimestampSettings settings() {
        return settings;
    }

    /** The queue. */
    public TimestampQueue queue() {
        return queue;
    }

    /**
     * Stamps a proof. Each kind already present is kept ({@link Outcome#EXISTING}).
     *
     * @param proofFolder the folder holding {@code <h>.asc}
     * @param sha256 the media hash naming the proof
     * @param request which services to ask
     * @return one result per kind asked: stamped, existing, queued (unreachable) or failed (refused)
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the folder has no {@code <h>.asc},
     *     {@link Failure#IO} if a file cannot be written
     */
    public List<StampResult> stamp(Path proofFolder, String sha256, StampRequest request) {
        return stamp(set(proofFolder, sha256), request);
    }

    /**
     * Stamps a proof set, as {@link #stamp(Path, String, StampRequest)}; the files are added to the set.
     * A sealed set this home's prover did not just write is read with the store's identity; without it the
     * request is queued, for {@link #sync} with the identity.
     */
    public List<StampResult> stamp(ProofSet set, StampRequest request) {
        String sha256 = set.sha256();
        byte[] asc;
        try {
            asc = readSignature(set);
        } catch (ProofModeException e) {
            if (e.failure() != Failure.KEY_LOCKED) {
                throw e;
            }
            List<StampResult> out = new ArrayList<>();
            if (!request.tsaUrls().isEmpty()) {
                out.add(queue(set, Kind.RFC3161, request.tsaUrls(), e));
            }
            if (!request.calendars().isEmpty()) {
                out.add(queue(set, Kind.OTS, request.calendars(), e));
            }
            return out;
        }
        List<StampResult> out = new ArrayList<>();
        if (!request.tsaUrls().isEmpty()) {
            out.add(queueIfUnreachable(set, Kind.RFC3161, request.tsaUrls(), () -> stampTsa(set, asc, request.tsaUrls())));
        }
        if (!request.calendars().isEmpty()) {
            out.add(queueIfUnreachable(set, Kind.OTS, request.calendars(), () -> stampOts(set, asc, request.calendars())));
        }
        return out;
    }

    /** The set in a folder: of the home's store, or a plain one. */
    private ProofSet set(Path folder, String sha256) {
        return store.map(s -> s.set(folder, sha256)).orElseGet(() -> ProofStore.folderSet(folder, sha256));
    }

    /**
     * Retries queued requests: those that are due, or all of them with {@code ignoreBackoff}. A request
     * whose services answer leaves the queue; one that still cannot reach them waits longer.
     *
     * @return one result per kind tried
     */
    public List<StampResult> sync(boolean ignoreBackoff) {
        List<StampResult> out = new ArrayList<>();
        if (!queue.canRead()) {
            return out; // sealed, and the identity is not at hand: 'timestamp sync' with it retries them
        }
        for (QueuedStamp q : queue.list()) {
            if (!ignoreBackoff && !q.dueAt(clock.instant())) {
                continue;
            }
            ProofSet set = set(q.proofFolder(), q.sha256());
            if (!set.has(ProofFiles.mediaSig(q.sha256()))) {
                queue.remove(q.sha256());
                out.add(new StampResult(q.sha256(), q.tsaUrls().isEmpty() ? Kind.OTS : Kind.RFC3161, Outcome.FAILED,
                        "the proof is no longer in " + q.proofFolder() + "; dropped from the queue"));
                continue;
            }
            byte[] asc = readSignature(set);
            List<URI> tsaLeft = List.of();
            List<URI> calLeft = List.of();
            String error = "";
            if (!q.tsaUrls().isEmpty()) {
                StampResult r = retry(q, Kind.RFC3161, () -> stampTsa(set, asc, q.tsaUrls()));
                out.add(r);
                if (r.outcome() == Outcome.QUEUED || r.outcome() == Outcome.FAILED) {
                    tsaLeft = q.tsaUrls();
                    error = r.detail();
                }
            }
            if (!q.calendars().isEmpty()) {
                StampResult r = retry(q, Kind.OTS, () -> stampOts(set, asc, q.calendars()));
                out.add(r);
                if (r.outcome() == Outcome.QUEUED || r.outcome() == Outcome.FAILED) {
                    calLeft = q.calendars();
                    error = r.detail();
                }
            }
            if (tsaLeft.isEmpty() && calLeft.isEmpty()) {
                queue.remove(q.sha256());
            } else {
                int attempts = q.attempts() + 1;
                queue.put(new QueuedStamp(q.sha256(), set.folder(), tsaLeft, calLeft, attempts, q.queuedAt(),
                        clock.instant().plus(TimestampQueue.backoff(attempts)), Optional.of(error)));
            }
        }
        return out;
    }

    /**
     * Asks the calendars of a proof's pending OpenTimestamps attestations whether they are complete, and
     * merges what they answer into {@code <h>.ots} (rewritten atomically). Only calendars named in the
     * settings are asked, and none once the proof reaches a Bitcoin block.
     *
     * @return one result per pending attestation, or one {@link Outcome#EXISTING} if the proof is anchored already
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the proof has no {@code .ots},
     *     {@link Failure#BAD_DATA} if it is malformed, {@link Failure#IO} if it cannot be rewritten
     */
    public List<StampResult> upgrade(Path proofFolder, String sha256) {
        return upgrade(set(proofFolder, sha256));
    }

    /** Upgrades a proof set's OpenTimestamps proof, as {@link #upgrade(Path, String)}. */
    public List<StampResult> upgrade(ProofSet set) {
        String sha256 = set.sha256();
        String name = sha256 + ".ots";
        Path file = set.folder().resolve(name);
        OtsFile ots;
        try {
            ots = OtsFile.parse(set.read(name).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                    file + ": no OpenTimestamps proof to upgrade")));
        } catch (OtsFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, file + ": " + e.getMessage(), e);
        }
        if (ots.timestamp().allAttestations().stream().anyMatch(e -> e.getValue() instanceof Attestation.Bitcoin)) {
            // Complete already, as the reference client sees it: no calendar is asked again, nothing is rewritten.
            return List.of(new StampResult(sha256, Kind.OTS, Outcome.EXISTING, "already anchored: " + describe(ots.timestamp())));
        }
        List<StampResult> out = new ArrayList<>();
        boolean changed = false;
        for (Map.Entry<byte[], Attestation> e : ots.timestamp().allAttestations()) {
            if (!(e.getValue() instanceof Attestation.Pending p)) {
                continue;
            }
            if (!settings.isCalendar(p.uri())) {
                out.add(new StampResult(sha256, Kind.OTS, Outcome.SKIPPED, p.uri() + " is not a configured calendar (ots.calendar)"));
                continue;
            }
            try {
                Optional<Timestamp> done = calendars.upgrade(URI.create(p.uri()), e.getKey());
                if (done.isEmpty()) {
                    out.add(new StampResult(sha256, Kind.OTS, Outcome.PENDING, p.uri() + ": not anchored yet"));
                } else {
                    ots.timestamp().mergeWherever(done.get());
                    changed = true;
                    out.add(new StampResult(sha256, Kind.OTS, Outcome.UPGRADED, p.uri() + ": " + describe(done.get())));
                }
            } catch (ProofModeException ex) {
                out.add(new StampResult(sha256, Kind.OTS, ex.failure() == Failure.SERVICE_UNREACHABLE ? Outcome.UNREACHABLE
                        : Outcome.FAILED, ex.getMessage()));
            }
        }
        if (changed) {
            set.add(name, ots.toBytes(), true);
        }
        return out;
    }

    private interface Attempt {
        StampResult run();
    }

    private StampResult queueIfUnreachable(ProofSet set, Kind kind, List<URI> urls, Attempt attempt) {
        try {
            return attempt.run();
        } catch (ProofModeException e) {
            if (e.failure() == Failure.IO || e.failure() == Failure.INTERNAL) {
                throw e;
            }
            if (e.failure() != Failure.SERVICE_UNREACHABLE && e.failure() != Failure.KEY_LOCKED) {
                return new StampResult(set.sha256(), kind, Outcome.FAILED, e.getMessage());
            }
            return queue(set, kind, urls, e);
        }
    }

    /** Queues a request that cannot be made now: its service is unreachable, or its sealed set locked. */
    private StampResult queue(ProofSet set, Kind kind, List<URI> urls, ProofModeException why) {
        queue.add(set.sha256(), set.folder(), kind == Kind.RFC3161 ? urls : List.of(), kind == Kind.OTS ? urls : List.of(),
                clock.instant(), why.getMessage());
        return new StampResult(set.sha256(), kind, Outcome.QUEUED, why.getMessage());
    }

    /** One retry from the queue: a failure of any kind keeps the request queued, with a longer wait. */
    private static StampResult retry(QueuedStamp q, Kind kind, Attempt attempt) {
        try {
            return attempt.run();
        } catch (ProofModeException e) {
            if (e.failure() == Failure.IO || e.failure() == Failure.INTERNAL) {
                throw e;
            }
            return new StampResult(q.sha256(), kind, e.failure() == Failure.SERVICE_UNREACHABLE ? Outcome.QUEUED : Outcome.FAILED,
                    e.getMessage() + "; still queued");
        }
    }

    private StampResult stampTsa(ProofSet set, byte[] asc, List<URI> urls) {
        String sha256 = set.sha256();
        String file = sha256 + ".tsr";
        if (set.has(file)) {
            return new StampResult(sha256, Kind.RFC3161, Outcome.EXISTING, file + " exists already");
        }
        byte[] digest = Digests.newSha256().digest(asc);
        ProofModeException last = null;
        for (URI u : urls) {
            byte[] token;
            try {
                token = tsa.stamp(u, digest);
            } catch (ProofModeException e) {
                if (e.failure() != Failure.SERVICE_UNREACHABLE) {
                    throw e;
                }
                last = e;
                continue;
            }
            if (!set.add(file, token, false)) {
                return new StampResult(sha256, Kind.RFC3161, Outcome.EXISTING, file + " exists already");
            }
            TokenVerifier.Result r = tokens.verify(token, List.of(new TokenVerifier.Candidate(ProofFiles.mediaSig(sha256),
                    Optional.of(asc), digest)));
            return new StampResult(sha256, Kind.RFC3161, Outcome.STAMPED, u + ": " + r.message());
        }
        throw Objects.requireNonNull(last);
    }

    private StampResult stampOts(ProofSet set, byte[] asc, List<URI> cals) {
        String sha256 = set.sha256();
        String file = sha256 + ".ots";
        if (set.has(file)) {
            return new StampResult(sha256, Kind.OTS, Outcome.EXISTING, file + " exists already (run: proofmode timestamp upgrade)");
        }
        Timestamp root = new Timestamp(Digests.newSha256().digest(asc));
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        Timestamp tip;
        try {
            tip = root.add(Op.append(nonce)).add(Op.sha256());
        } catch (OtsFormatException e) {
            throw new IllegalStateException(e);
        }
        List<String> answered = new ArrayList<>();
        ProofModeException last = null;
        for (URI c : cals) {
            try {
                tip.merge(calendars.submit(c, tip.msg()));
                answered.add(c.toString());
            } catch (ProofModeException e) {
                if (e.failure() == Failure.IO || e.failure() == Failure.INTERNAL) {
                    throw e;
                }
                // Prefer reporting an unreachable calendar: that is what makes the request wait in the queue.
                if (last == null || e.failure() == Failure.SERVICE_UNREACHABLE) {
                    last = e;
                }
            }
        }
        if (answered.isEmpty()) {
            throw Objects.requireNonNull(last);
        }
        if (!set.add(file, new OtsFile(Op.Kind.SHA256, root).toBytes(), false)) {
            return new StampResult(sha256, Kind.OTS, Outcome.EXISTING, file + " exists already");
        }
        return new StampResult(sha256, Kind.OTS, Outcome.STAMPED, "pending at " + String.join(", ", answered)
                + (answered.size() < cals.size() ? " (" + (cals.size() - answered.size()) + " calendar(s) failed: " + last.getMessage() + ")" : ""));
    }

    private static String describe(Timestamp t) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<byte[], Attestation> e : t.allAttestations()) {
            if (e.getValue() instanceof Attestation.Bitcoin b) {
                parts.add("Bitcoin block " + b.height() + " (merkle root " + merkleRoot(e.getKey()) + ")");
            }
        }
        return parts.isEmpty() ? "answered, without a block attestation yet" : String.join(", ", parts);
    }

    /** A Bitcoin merkle root as block explorers show it: the bytes reversed, in hex. */
    public static String merkleRoot(byte[] msg) {
        byte[] r = new byte[msg.length];
        for (int i = 0; i < msg.length; i++) {
            r[i] = msg[msg.length - 1 - i];
        }
        return HexFormat.of().formatHex(r);
    }

    private static byte[] readSignature(ProofSet set) {
        String name = ProofFiles.mediaSig(set.sha256());
        return set.read(name).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                set.folder().resolve(name) + ": no media signature to timestamp"));
    }
}
