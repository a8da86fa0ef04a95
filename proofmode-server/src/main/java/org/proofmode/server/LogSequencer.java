// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.server.service.EventLog;
import org.proofmode.server.store.LogStore;
import org.proofmode.timestamp.rfc3161.TsaClient;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.util.Hex;
import org.proofmode.util.Http;

/**
 * Integrates the log's queued entries in batches on one background thread: every interval, as long as
 * entries wait, each batch one transaction and one signed checkpoint. Instances sharing a database each
 * run one; the state row's lock keeps the log linear whichever does the work. With witnesses configured,
 * the newest checkpoint is then sent to each (C2SP {@code tlog-witness} {@code add-checkpoint}, with a
 * consistency proof from the size the witness last cosigned, learnt from its 409 answer the first time)
 * and the cosignatures that verify are added to it.
 */
final class LogSequencer implements AutoCloseable {
    /** Most entries integrated under one checkpoint. */
    static final int BATCH = 1024;

    /** Largest answer a witness may give: a few signature lines. */
    static final int MAX_WITNESS_ANSWER = 64 * 1024;

    private final LogStore log;
    private final SignedNote.Signer key;
    private final List<LogPolicy.WitnessRef> witnesses;
    private final int quorum;
    private final Optional<URI> tsa;
    /** The size each witness last cosigned, learnt from its answers. */
    private final Map<LogPolicy.WitnessRef, Long> cosignedSize = new ConcurrentHashMap<>();
    /** The root of the checkpoint each witness last cosigned for this instance, so it is not asked again. */
    private final Map<LogPolicy.WitnessRef, String> cosignedRoot = new ConcurrentHashMap<>();
    private final Http http = new Http(Http.Timeouts.DEFAULT);
    private final TsaClient tsaClient = new TsaClient(http, new SecureRandom());
    private final ScheduledExecutorService timer;
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    private final EventLog events;
    private final Optional<LogMirror> mirror;

    LogSequencer(LogStore log, SignedNote.Signer key, LogPolicy policy, EventLog events, Optional<LogMirror> mirror) {
        this.log = Objects.requireNonNull(log, "log");
        this.mirror = Objects.requireNonNull(mirror, "mirror");
        this.events = Objects.requireNonNull(events, "events");
        this.key = Objects.requireNonNull(key, "key");
        this.witnesses = policy.witnesses();
        this.quorum = policy.quorum();
        this.tsa = policy.tsa();
        Duration interval = policy.interval();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "proofmode-log-sequencer");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        timer.scheduleWithFixedDelay(this::drain, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Integrates everything queued now, in batches, and has the newest checkpoint cosigned. */
    synchronized void drain() {
        String before = lastFailure.getAndSet(null);
        try {
            while (log.integrate(BATCH, key) == BATCH) {
                // another full batch may wait
            }
            if (!witnesses.isEmpty()) {
                cosign();
            }
            if (tsa.isPresent()) {
                stamp(tsa.get());
            }
            mirror.ifPresent(LogMirror::copy);
        } catch (RuntimeException e) {
            // The entries stay queued, the checkpoint uncosigned; the next round tries again.
            lastFailure.set(e.getMessage());
        }
        String now = lastFailure.get();
        if (now != null && !now.equals(before)) {
            events.warn("log", Map.of("state", "behind", "problem", now));
        } else if (now == null && before != null) {
            events.info("log", Map.of("state", "ok", "size", log.state().size()));
        }
    }

    /**
     * Has the checkpoint served time-stamped: the token's imprint is the SHA-256 of the checkpoint's text
     * (origin, size, root and extension lines, as signed), so anyone holding the token knows the log held
     * that tree no later than its time.
     */
    private void stamp(URI authority) {
        Optional<LogStore.Served> s = log.unstamped(quorum);
        if (s.isEmpty()) {
            return;
        }
        byte[] text = SignedNote.text(s.get().note()).getBytes(StandardCharsets.UTF_8);
        log.addTimestamp(s.get().size(), tsaClient.stamp(authority, Digests.newSha256().digest(text)));
    }

    private void cosign() {
        LogStore.State s = log.state();
        List<String> lines = new ArrayList<>();
        List<NoteKey> keys = new ArrayList<>();
        for (LogPolicy.WitnessRef w : witnesses) {
            keys.add(w.key());
            ask(w, s).ifPresent(lines::add);
        }
        if (!lines.isEmpty()) {
            log.addCosignatures(s.size(), lines, keys);
        }
    }

    /** Asks one witness to cosign; its cosignature line, if it gave one that verifies. */
    private Optional<String> ask(LogPolicy.WitnessRef w, LogStore.State s) {
        long old = cosignedSize.getOrDefault(w, 0L);
        URI uri = URI.create(w.url().toString().replaceAll("/+$", "") + "/add-checkpoint");
        for (int attempt = 0; attempt < 2; attempt++) {
            if (old > s.size()) {
                lastFailure.set(w.key().name() + " has cosigned " + old + " entries; this log has " + s.size());
                return Optional.empty();
            }
            if (Hex.encode(s.root()).equals(cosignedRoot.get(w))) {
                return Optional.empty();
            }
            StringBuilder body = new StringBuilder("old ").append(old).append('\n');
            if (old > 0 && old < s.size()) {
                log.consistencyProof(old, s.size()).forEach(h -> body.append(Base64.getEncoder().encodeToString(h)).append('\n'));
            }
            body.append('\n').append(s.checkpoint());
            Http.Response r;
            try {
                r = http.post(uri, "text/plain", "text/plain", body.toString().getBytes(StandardCharsets.UTF_8), MAX_WITNESS_ANSWER);
            } catch (ProofModeException e) {
                lastFailure.set(w.key().name() + ": " + e.getMessage());
                return Optional.empty();
            }
            String answer = new String(r.body(), StandardCharsets.UTF_8);
            if (r.status() == 409 && answer.strip().matches("0|[1-9][0-9]{0,18}")) {
                old = Long.parseLong(answer.strip());
                continue;
            }
            if (r.status() != 200) {
                lastFailure.set(w.key().name() + " refused the checkpoint of " + s.size() + ": HTTP " + r.status());
                return Optional.empty();
            }
            cosignedSize.put(w, s.size());
            cosignedRoot.put(w, Hex.encode(s.root()));
            return answer.lines().filter(l -> SignedNote.cosigners(s.checkpoint() + l + "\n", List.of(w.key())).contains(w.key()))
                    .findFirst();
        }
        return Optional.empty();
    }

    /** Why the last round failed, if it did. */
    Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
