// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.RecipientStanzaWriter;
import com.exceptionfactory.jagged.framework.armor.ArmoredDecryptingChannelFactory;
import com.exceptionfactory.jagged.framework.stream.StandardDecryptingChannelFactory;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * age encryption (<a href="https://age-encryption.org/v1">age-encryption.org/v1</a>) with X25519
 * recipients, as the {@code age} tool writes and reads it, on jagged. Encryption and decryption stream in
 * 64 KiB chunks, so memory stays flat whatever the size. Decryption reads binary and armored
 * ({@code -----BEGIN AGE ENCRYPTED FILE-----}) files.
 */
public final class Age {
    /** The first line of a binary age file. */
    public static final String HEADER = "age-encryption.org/v1";
    /** The first line of an armored age file. */
    public static final String ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----";
    /** The prefix of an X25519 recipient. */
    public static final String RECIPIENT_PREFIX = "age1";
    private static final String IDENTITY_PREFIX = "AGE-SECRET-KEY-1";
    /** Most bytes of an identity file read (age-keygen's is under 200). */
    private static final long MAX_IDENTITY_FILE = 64 * 1024;

    private Age() {}

    /** Whether these first bytes of a file start an age file, binary or armored. */
    public static boolean isAge(byte[] head, int length) {
        return startsWith(head, length, HEADER + "\n") || startsWith(head, length, ARMOR_BEGIN);
    }

    /** Whether a regular file is an age file (by its first line); false for a folder or a file that cannot be read. */
    public static boolean isAge(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        byte[] head = new byte[ARMOR_BEGIN.length()];
        try (InputStream in = Files.newInputStream(file)) {
            int n = in.readNBytes(head, 0, head.length);
            return isAge(head, n);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean startsWith(byte[] head, int length, String prefix) {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        return length >= p.length && Arrays.equals(head, 0, p.length, p, 0, p.length);
    }

    /**
     * Checks an X25519 recipient ({@code age1…}).
     *
     * @return the recipient
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if it is not one
     */
    public static String recipient(String text) {
        String t = text.strip();
        if (!t.startsWith(RECIPIENT_PREFIX)) {
            throw badRecipient(text, null);
        }
        try {
            X25519Stanza.publicKey(t);
        } catch (GeneralSecurityException e) {
            throw badRecipient(text, e);
        }
        return t;
    }

    private static ProofModeException badRecipient(String text, Exception cause) {
        String shown = text.replaceAll("\\p{Cntrl}", "?");
        if (shown.length() > 80) {
            shown = shown.substring(0, 80) + "…";
        }
        return new ProofModeException(Failure.BAD_ARGUMENT, shown + ": not an age recipient (age1… with a valid checksum, "
                + "as age-keygen prints it)", cause);
    }

    /** The encryption to these X25519 recipients ({@code age1…}, each checked by {@link #recipient}). */
    public static ShareEncryption encryptionTo(List<String> recipients) {
        if (recipients.isEmpty()) {
            throw new IllegalArgumentException("no recipients");
        }
        List<String> checked = recipients.stream().map(Age::recipient).toList();
        return out -> encrypt(out, checked);
    }

    /**
     * Starts an age file to these recipients on {@code out}: bytes written to the result are encrypted;
     * closing it writes the last chunk and closes {@code out}.
     */
    public static OutputStream encrypt(OutputStream out, List<String> recipients) throws IOException {
        List<RecipientStanzaWriter> writers = new ArrayList<>();
        try {
            for (String r : recipients) {
                writers.add(X25519Stanza.writer(recipient(r)));
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("age encryption failed: " + e.getMessage(), e);
        }
        return AgeObjects.sealing(out, writers);
    }

    /**
     * Reads identity files as {@code age-keygen} writes them: lines of {@code AGE-SECRET-KEY-1…}, comment
     * lines ({@code #}) and blank lines.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for a missing file, {@link Failure#IO} for
     *     one that cannot be read, {@link Failure#BAD_DATA} for one that holds anything else or no identity
     */
    public static Identities readIdentities(List<Path> files) {
        List<char[]> secrets = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        try {
            for (Path f : files) {
                sources.add(f.toString());
                readIdentityFile(f, secrets);
            }
            Identities ids = new Identities(secrets, String.join(", ", sources));
            try {
                ids.check();
            } catch (RuntimeException e) {
                ids.close();
                throw e;
            }
            return ids;
        } catch (RuntimeException e) {
            secrets.forEach(s -> Arrays.fill(s, '\0'));
            throw e;
        }
    }

    private static void readIdentityFile(Path f, List<char[]> secrets) {
        byte[] bytes;
        try {
            if (!Files.isRegularFile(f)) {
                if (!Files.exists(f)) {
                    throw new NoSuchFileException(f.toString());
                }
                throw new ProofModeException(Failure.BAD_DATA, f + ": not an age identity file (not a regular file)");
            }
            if (Files.size(f) > MAX_IDENTITY_FILE) {
                throw new ProofModeException(Failure.BAD_DATA, f + ": not an age identity file (too large)");
            }
            bytes = Files.readAllBytes(f);
        } catch (NoSuchFileException e) {
            throw new ProofModeException(Failure.INPUT_MISSING, f + ": no such identity file", e);
        } catch (AccessDeniedException e) {
            throw new ProofModeException(Failure.IO, f + ": cannot read the identity file (permission denied)", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, f + ": cannot read the identity file: " + e.getMessage(), e);
        }
        int found = 0;
        int start = 0;
        try {
            for (int i = 0; i <= bytes.length; i++) {
                if (i < bytes.length && bytes[i] != '\n') {
                    continue;
                }
                int end = i;
                if (end > start && bytes[end - 1] == '\r') {
                    end--;
                }
                char[] line = ascii(bytes, start, end);
                start = i + 1;
                String prefix = new String(line, 0, Math.min(line.length, IDENTITY_PREFIX.length()));
                if (line.length == 0 || line[0] == '#') {
                    Arrays.fill(line, '\0');
                } else if (prefix.toUpperCase(Locale.ROOT).equals(IDENTITY_PREFIX)) {
                    secrets.add(line);
                    found++;
                } else {
                    Arrays.fill(line, '\0');
                    String what = prefix.startsWith("-----BEGIN") ? " (OpenPGP keys do not open age files)"
                            : prefix.startsWith("AGE-PLUGIN") ? " (age plugins are not supported)" : "";
                    throw new ProofModeException(Failure.BAD_DATA, f + ": not an age identity file: a line is neither "
                            + "AGE-SECRET-KEY-1… nor a # comment" + what);
                }
            }
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
        if (found == 0) {
            throw new ProofModeException(Failure.BAD_DATA, f + ": not an age identity file: no AGE-SECRET-KEY-1… line");
        }
    }

    private static char[] ascii(byte[] bytes, int from, int to) {
        char[] out = new char[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = (char) (bytes[i] & 0xff);
        }
        return out;
    }

    /**
     * Opens an age file for reading with these identities: its header is read and a file key unwrapped
     * now, its payload as it is read. A read from the result that meets a damaged or truncated payload
     * throws {@link ProofModeException} with {@link Failure#BAD_DATA}; nothing of a damaged chunk is
     * returned.
     *
     * @param in the age file, binary or armored (closed with the result)
     * @param ids the identities to try
     * @param source where the file came from, for messages
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if no identity opens it (it was encrypted
     *     to another recipient, or to a kind of recipient other than X25519), {@link Failure#BAD_DATA} if it
     *     is not an age file or its header is damaged
     */
    public static InputStream decrypt(InputStream in, Identities ids, String source) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
        buffered.mark(ARMOR_BEGIN.length());
        byte[] head = new byte[ARMOR_BEGIN.length()];
        int n = buffered.readNBytes(head, 0, head.length);
        buffered.reset();
        if (!isAge(head, n)) {
            throw new ProofModeException(Failure.BAD_DATA, source + ": not an age file (no " + HEADER + " header)");
        }
        boolean armored = startsWith(head, n, ARMOR_BEGIN);
        StandardDecryptingChannelFactory factory = armored ? new ArmoredDecryptingChannelFactory()
                : new StandardDecryptingChannelFactory();
        ReadableByteChannel plain;
        try {
            plain = factory.newDecryptingChannel(Channels.newChannel(buffered), ids.readers());
        } catch (GeneralSecurityException e) {
            boolean noMatch = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("matching")
                    || e.getClass().getSimpleName().startsWith("Unsupported");
            if (noMatch) {
                throw new ProofModeException(Failure.KEY_LOCKED, source + ": encrypted to another recipient: no identity "
                        + "given (" + ids.source() + ") opens it", e);
            }
            throw new ProofModeException(Failure.BAD_DATA, source + ": damaged age file (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.BAD_DATA, source + ": damaged or truncated age file (" + e.getMessage() + ")", e);
        }
        return new FilterInputStream(Channels.newInputStream(plain)) {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int r = read(one, 0, 1);
                return r < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return super.read(b, off, len);
                } catch (IOException | RuntimeException e) {
                    throw new ProofModeException(Failure.BAD_DATA, source + ": damaged or truncated age file ("
                            + e.getMessage() + ")", e);
                }
            }
        };
    }
}
