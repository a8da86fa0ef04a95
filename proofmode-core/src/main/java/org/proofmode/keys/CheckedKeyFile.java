// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.proofmode.media.Digests;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;

/**
 * Remembers which key of a secret key file signs, once its self-signatures were checked, so that
 * unlocking it again need not check them again: the check (every binding signature verified, the policy
 * applied) costs more than the rest of an unlock on a fresh process.
 *
 * <p>The note is {@code keys/secret.checked}: the SHA-256 of the key file, the signing key's ID, its
 * expiry and the key's primary user ID (hex of its UTF-8, so that no byte of it can break a line). It is
 * trusted only for the very bytes it names, and only until that expiry; any other file
 * (a new, imported, re-protected or edited key) is checked in full again. It holds nothing secret: who
 * can write it can replace the key file itself.
 */
final class CheckedKeyFile {
    static final String FILE = Home.CHECKED_KEY.fileName();

    /** Raised when what the check means changes, so that notes written before are ignored. */
    private static final int VERSION = 2;

    /**
     * What a full check found.
     *
     * @param fileSha256 the key file's SHA-256, lower-case hex
     * @param signingKeyId the ID of the key that signs
     * @param expires when that key stops being usable, if ever
     * @param userId the key's primary user ID, as the check found it ({@code ""} if it has none)
     */
    record Note(String fileSha256, long signingKeyId, Optional<Instant> expires, String userId) {
        Note {
            if (!fileSha256.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("not a SHA-256: " + fileSha256);
            }
            if (expires == null) {
                throw new NullPointerException("expires");
            }
            if (userId == null) {
                throw new NullPointerException("userId");
            }
        }

        String encode() {
            return "version=" + VERSION + "\nsha256=" + fileSha256 + "\nsigningKey=" + HexFormat.of().toHexDigits(signingKeyId)
                    + "\nexpires=" + expires.map(i -> Long.toString(i.getEpochSecond())).orElse("never")
                    + "\nuserId=" + HexFormat.of().formatHex(userId.getBytes(StandardCharsets.UTF_8)) + "\n";
        }

        static Optional<Note> decode(String text) {
            String version = null;
            String sha = null;
            OptionalLong key = OptionalLong.empty();
            Optional<Instant> expires = null;
            String userId = null;
            try {
                for (String line : text.split("\n")) {
                    int eq = line.indexOf('=');
                    if (eq < 0) {
                        continue;
                    }
                    String v = line.substring(eq + 1).trim();
                    switch (line.substring(0, eq).trim()) {
                        case "version" -> version = v;
                        case "sha256" -> sha = v.toLowerCase(Locale.ROOT);
                        case "signingKey" -> key = OptionalLong.of(Long.parseUnsignedLong(v, 16));
                        case "expires" -> expires = v.equals("never") ? Optional.empty() : Optional.of(Instant.ofEpochSecond(Long.parseLong(v)));
                        case "userId" -> userId = utf8(HexFormat.of().parseHex(v));
                        default -> { }
                    }
                }
                if (!Integer.toString(VERSION).equals(version) || sha == null || key.isEmpty() || expires == null || userId == null) {
                    return Optional.empty();
                }
                return Optional.of(new Note(sha, key.getAsLong(), expires, userId));
            } catch (IllegalArgumentException | DateTimeException | CharacterCodingException e) {
                return Optional.empty();
            }
        }

        private static String utf8(byte[] bytes) throws CharacterCodingException {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        }
    }

    private CheckedKeyFile() {}

    /** The SHA-256 a note names for these key file bytes. */
    static String hash(byte[] keyFile) {
        return Digests.sha256Hex(keyFile);
    }

    /**
     * The note for exactly these key file bytes, if it is there and the key has not expired by {@code now}.
     */
    static Optional<Note> find(Path dir, String keyFileSha256, Instant now) {
        try {
            String text = Files.readString(dir.resolve(FILE), StandardCharsets.US_ASCII);
            return Note.decode(text).filter(n -> n.fileSha256().equals(keyFileSha256))
                    .filter(n -> n.expires().map(now::isBefore).orElse(true));
        } catch (IOException e) {
            // none yet (NoSuchFileException), or unreadable: check in full
            return Optional.empty();
        }
    }

    /** Writes the note, atomically; a note that cannot be written only means the next unlock checks again. */
    static void remember(Path dir, Note note) {
        try {
            AtomicFiles.write(dir.resolve(FILE), note.encode().getBytes(StandardCharsets.US_ASCII), true, true);
        } catch (IOException | RuntimeException e) {
            // an optimisation only: a read-only or full disk costs the next unlock a full check
        }
    }
}
