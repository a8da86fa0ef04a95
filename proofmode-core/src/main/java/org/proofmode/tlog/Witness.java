// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.proofmode.media.Digests;
import org.proofmode.util.AtomicFiles;

/**
 * A transparency-log witness (C2SP {@code tlog-witness}, {@code add-checkpoint}): it cosigns a log's
 * checkpoint only if the log's key signed it and it is consistent with the latest checkpoint the witness
 * cosigned for that log, which it then remembers. Logs it does not know get 404; a bad or missing log
 * signature 403; an old size above the new 400; an old size other than the one it remembers 409 with
 * that size; a bad consistency proof, or a different root for the same size, 422. Checking and
 * remembering are one step (requests are taken one at a time), so a late request cannot roll it back.
 */
public final class Witness {
    /** The media type of a 409 answer's body: the size the witness remembers. */
    public static final String SIZE_TYPE = "text/x.tlog.size";

    private static final Pattern OLD = Pattern.compile("old (0|[1-9][0-9]{0,18})");

    /**
     * An answer to {@code add-checkpoint}.
     *
     * @param status the HTTP status
     * @param contentType its body's media type
     * @param body the cosignature lines (200), the remembered size (409), or why not
     */
    public record Answer(int status, String contentType, String body) {}

    private final SignedNote.Signer key;
    private final List<NoteKey> logs;
    private final Path state;
    private final Clock clock;

    /**
     * A witness.
     *
     * @param key its cosignature key (type {@link NoteKey#COSIGNATURE_V1})
     * @param logs the log keys it follows, each named by its log's origin
     * @param state the folder where it remembers each log's latest cosigned checkpoint
     */
    public Witness(SignedNote.Signer key, Collection<NoteKey> logs, Path state, Clock clock) {
        this.key = Objects.requireNonNull(key, "key");
        if (!key.key().cosigner()) {
            throw new IllegalArgumentException("a witness signs with a cosignature key");
        }
        this.logs = List.copyOf(logs);
        this.state = Objects.requireNonNull(state, "state");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Handles an {@code add-checkpoint} request body. */
    public synchronized Answer addCheckpoint(byte[] request) {
        String text = new String(request, StandardCharsets.UTF_8);
        int blank = text.indexOf("\n\n");
        if (request.length > SignedNote.MAX_BYTES + 8192 || blank < 0) {
            return text(400, "not an add-checkpoint request: old size, proof lines, a blank line, a checkpoint");
        }
        String[] head = text.substring(0, blank).split("\n", -1);
        if (!OLD.matcher(head[0]).matches() || head.length > 64) {
            return text(400, "the first line is old <size>; at most 63 proof lines follow");
        }
        long old = Long.parseLong(head[0].substring(4));
        List<byte[]> proof = new ArrayList<>();
        try {
            for (int i = 1; i < head.length; i++) {
                byte[] h = Base64.getDecoder().decode(head[i]);
                if (h.length != Merkle.HASH_BYTES) {
                    return text(400, "proof line " + i + " is not a SHA-256 hash");
                }
                proof.add(h);
            }
        } catch (IllegalArgumentException e) {
            return text(400, "a proof line is not base64");
        }
        byte[] note = text.substring(blank + 2).getBytes(StandardCharsets.UTF_8);
        SignedNote.Opened opened;
        Checkpoint cp;
        try {
            opened = SignedNote.open(note, logs);
            cp = Checkpoint.parse(opened.text());
        } catch (NoteFormatException e) {
            return text(400, "not a signed checkpoint: " + e.getMessage());
        }
        if (logs.stream().noneMatch(k -> k.name().equals(cp.origin()))) {
            return text(404, "this witness does not follow " + cp.origin());
        }
        if (!opened.invalid().isEmpty() || opened.verified().stream().noneMatch(k -> k.name().equals(cp.origin()))) {
            return text(403, "the checkpoint is not signed by the key of " + cp.origin());
        }
        if (old > cp.size()) {
            return text(400, "old size " + old + " is above the checkpoint's " + cp.size());
        }
        Optional<Checkpoint> latest = latest(cp.origin());
        long known = latest.map(Checkpoint::size).orElse(0L);
        if (old != known) {
            return new Answer(409, SIZE_TYPE, known + "\n");
        }
        byte[] empty = Digests.newSha256().digest();
        if (cp.size() == 0 && !Arrays.equals(cp.rootHash(), empty)) {
            return text(422, "an empty tree's root is the hash of nothing");
        }
        if (old == 0 && !proof.isEmpty()) {
            return text(422, "no proof goes with old size 0");
        }
        if (old == cp.size()) {
            if (latest.isPresent() && !Arrays.equals(latest.get().rootHash(), cp.rootHash())) {
                return text(422, "another root for the " + old + " entries cosigned before: the log forked");
            }
        } else if (old > 0 && !Merkle.verifyConsistency(old, cp.size(), proof, latest.get().rootHash(), cp.rootHash())) {
            return text(422, "the checkpoint does not extend the " + old + " entries cosigned before");
        }
        remember(cp);
        long now = Math.max(1, clock.instant().getEpochSecond());
        return new Answer(200, "text/plain; charset=utf-8", SignedNote.cosign(opened.text(), key, now));
    }

    /** The latest checkpoint cosigned for a log, if any. */
    public synchronized Optional<Checkpoint> latest(String origin) {
        Path f = file(origin);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Checkpoint.parse(Files.readString(f, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoteFormatException e) {
            throw new IllegalStateException(f + " is not a checkpoint: " + e.getMessage(), e);
        }
    }

    private void remember(Checkpoint cp) {
        try {
            AtomicFiles.ownerOnlyDirectory(state);
            AtomicFiles.write(file(cp.origin()), cp.text().getBytes(StandardCharsets.UTF_8), true, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path file(String origin) {
        return state.resolve(Digests.sha256Hex(origin.getBytes(StandardCharsets.UTF_8)) + ".checkpoint");
    }

    private static Answer text(int status, String why) {
        return new Answer(status, "text/plain; charset=utf-8", why + "\n");
    }
}
