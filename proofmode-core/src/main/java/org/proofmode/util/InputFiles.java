// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * Files a user names, read with a bound fit for their kind. A device, FIFO or socket is refused before it
 * is opened (reading {@code /dev/zero} or a FIFO would never end, or wait forever); a file that grows past
 * the bound while it is read is refused too, since the bound is counted on the bytes read, not on the size
 * the file system reported.
 */
public final class InputFiles {
    /** Most bytes of an OpenPGP key file (one key, or a keyring of trusted certificates). */
    public static final long KEY_BYTES = 16L << 20;
    /** Most bytes of a passphrase file. */
    public static final long PASSPHRASE_BYTES = 64L << 10;
    /** Most bytes of a certificate file (PEM or DER). */
    public static final long CERTIFICATE_BYTES = 4L << 20;

    private InputFiles() {}

    /**
     * Checks that a path names a regular file (following symbolic links).
     *
     * @param kind what the file should be, for messages ("key file", "media file")
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if nothing is there,
     *     {@link Failure#UNSUPPORTED} for a folder, device, FIFO or socket
     */
    public static BasicFileAttributes requireRegular(Path file, String kind) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
        if (a.isDirectory()) {
            throw new ProofModeException(Failure.UNSUPPORTED, file + ": is a folder; give a " + kind);
        }
        if (!a.isRegularFile()) {
            throw new ProofModeException(Failure.UNSUPPORTED, file + ": not a regular file (a device, FIFO or socket); give a " + kind);
        }
        return a;
    }

    /** Tells whether a path is a regular file, a folder, nothing, or something else, without following a last link. */
    public static boolean isSpecial(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isOther();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Reads a whole regular file of at most {@code max} bytes.
     *
     * @param kind what the file should be, for messages
     * @throws ProofModeException as {@link #requireRegular}, and with {@link Failure#BAD_DATA} if it holds
     *     more than {@code max} bytes, {@link Failure#IO} if it cannot be read
     */
    public static byte[] read(Path file, long max, String kind) {
        BasicFileAttributes a = requireRegular(file, kind);
        if (a.size() > max) {
            throw tooLarge(file, max, kind);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (bytes.length > max) {
                Arrays.fill(bytes, (byte) 0);
                throw tooLarge(file, max, kind);
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, file + ": no such file", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static ProofModeException tooLarge(Path file, long max, String kind) {
        return new ProofModeException(Failure.BAD_DATA, file + ": larger than " + max + " bytes; not a " + kind);
    }
}
