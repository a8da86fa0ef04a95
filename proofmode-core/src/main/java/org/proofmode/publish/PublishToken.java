// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.InputFiles;
import org.proofmode.util.QueueFolder;

/**
 * The upload token {@code publish login} keeps in a home: owner-only in {@code publish/token}, or, in a
 * home whose store is encrypted, sealed to the store's recipient in {@code publish/token.age}, like the
 * offline queues' items.
 *
 * <p>Security: sealing needs only the store's recipient, so {@code publish login} works while the home is
 * locked; reading the sealed token needs the store's identity (the agent, the passphrase), as any sealed
 * read does. A seized device whose home is locked does not give up the token. A clear token found when the
 * store becomes encrypted is sealed then, and the clear file overwritten and removed.
 */
public final class PublishToken {
    /** The clear token file, under the home. */
    public static final String CLEAR = Home.PUBLISH_TOKEN.path();
    /** The sealed token file, under the home. */
    public static final String SEALED = Home.PUBLISH_TOKEN_SEALED.path();

    private static final int MAX = 4096;

    private PublishToken() {}

    /** Tells whether a token is kept in the home, sealed or not, without reading it. */
    public static boolean isSet(Path home) {
        return Files.isRegularFile(home.resolve(SEALED)) || Files.isRegularFile(home.resolve(CLEAR));
    }

    /** Tells whether the token kept in the home is sealed. */
    public static boolean isSealed(Path home) {
        return Files.isRegularFile(home.resolve(SEALED));
    }

    /**
     * Keeps a token, sealed when a sealing is given (the other file removed), else owner-only in clear.
     *
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public static Path keep(Path home, char[] token, Optional<QueueFolder.Sealing> sealing) {
        byte[] plain = bytes(token);
        try {
            Path file = home.resolve(sealing.isPresent() ? SEALED : CLEAR);
            AtomicFiles.privateDirectories(file.getParent());
            AtomicFiles.write(file, sealing.isPresent() ? sealing.get().seal(plain) : plain, true, true);
            if (sealing.isPresent()) {
                DeviceKeys.shred(home.resolve(CLEAR));
            } else {
                Files.deleteIfExists(home.resolve(SEALED));
            }
            return file;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot keep the upload token: " + e.getMessage(), e);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    /**
     * Reads the token; the caller clears it after use.
     *
     * @return empty when none is kept
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} for a sealed token and a locked store,
     *     {@link Failure#BAD_DATA} if it is damaged
     */
    public static Optional<char[]> read(Path home, Optional<QueueFolder.Sealing> sealing) {
        Path sealed = home.resolve(SEALED);
        byte[] plain;
        if (Files.isRegularFile(sealed)) {
            QueueFolder.Sealing s = sealing.orElseThrow(() -> new ProofModeException(Failure.BAD_DATA,
                    sealed + ": a sealed upload token in a home whose store is not encrypted"));
            plain = s.open(InputFiles.read(sealed, MAX * 2, "sealed upload token"), "the upload token");
        } else if (Files.isRegularFile(home.resolve(CLEAR))) {
            plain = InputFiles.read(home.resolve(CLEAR), MAX, "upload token");
        } else {
            return Optional.empty();
        }
        return Optional.of(decode(plain));
    }

    /**
     * Seals a clear token kept in a home whose store has just become encrypted, and overwrites and
     * removes the clear file.
     *
     * @return whether there was one to seal
     * @throws ProofModeException with {@link Failure#IO} if it cannot be written
     */
    public static boolean sealClear(Path home, QueueFolder.Sealing sealing) {
        Path clear = home.resolve(CLEAR);
        if (!Files.isRegularFile(clear)) {
            return false;
        }
        char[] t = decode(InputFiles.read(clear, MAX, "upload token"));
        try {
            keep(home, t, Optional.of(sealing));
            return true;
        } finally {
            Arrays.fill(t, '\0');
        }
    }

    /** The token in these bytes, without surrounding white space; the bytes are cleared. */
    private static char[] decode(byte[] plain) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(plain));
            int from = 0;
            int to = chars.limit();
            while (from < to && Character.isWhitespace(chars.get(from))) {
                from++;
            }
            while (to > from && Character.isWhitespace(chars.get(to - 1))) {
                to--;
            }
            char[] out = new char[to - from];
            chars.position(from);
            chars.get(out);
            Arrays.fill(chars.array(), '\0');
            return out;
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    private static byte[] bytes(char[] token) {
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(token));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        Arrays.fill(b.array(), (byte) 0);
        return out;
    }
}
