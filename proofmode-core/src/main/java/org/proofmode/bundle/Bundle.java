// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.InputFiles;

/**
 * A set of proof files opened for reading: a share zip or a proof folder. Nothing is extracted to
 * disk; entries are streamed from where they are, under {@link BundleLimits}.
 */
public final class Bundle implements Closeable {
    private final String source;
    private final List<BundleEntry> entries;
    private final Closeable resource;

    private Bundle(String source, List<BundleEntry> entries, Closeable resource) {
        this.source = source;
        this.entries = List.copyOf(entries);
        this.resource = resource;
    }

    /**
     * Opens a zip file or a folder.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the path does not exist,
     *     {@link Failure#UNSUPPORTED} for a device, FIFO or socket,
     *     {@link Failure#BAD_DATA} for a file that is no zip archive at all, and for a corrupt, truncated or
     *     hostile one
     */
    public static Bundle open(Path path, BundleLimits limits) {
        if (!Files.exists(path)) {
            throw new ProofModeException(Failure.INPUT_MISSING, path + ": no such file or folder");
        }
        if (Files.isDirectory(path)) {
            return openFolder(path, limits);
        }
        // A FIFO would block the zip reader forever, a device feed it without end.
        InputFiles.requireRegular(path, "bundle (.zip) or a proof folder");
        if (Age.isAge(path)) {
            throw new ProofModeException(Failure.KEY_LOCKED, path + ": an encrypted bundle (age); give the identity "
                    + "file that opens it (--identity FILE)");
        }
        if (!startsLikeZip(path)) {
            // Not a damaged zip but something else (a text file, a document): say what is expected.
            throw new ProofModeException(Failure.BAD_DATA, path + ": not a share bundle, proof folder or media file we know");
        }
        return openZip(path, limits, path.toString());
    }

    /** Whether a file begins as every zip does: a local file header, or the end record of an empty archive. */
    private static boolean startsLikeZip(Path file) {
        byte[] head = new byte[4];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, 4) < 4) {
                return false;
            }
        } catch (IOException e) {
            return true; // unreadable: the zip reader says why
        }
        return head[0] == 'P' && head[1] == 'K' && (head[2] == 3 && head[3] == 4 || head[2] == 5 && head[3] == 6);
    }

    /**
     * Opens a zip file or a folder as {@link #open(Path, BundleLimits)} does, and also a bundle encrypted
     * with age for one of these identities. The encrypted zip is decrypted as it is read into a temporary
     * file readable by its owner only (the zip reader needs to seek), which closing the bundle deletes; its
     * source is still {@code path}.
     *
     * @throws ProofModeException as {@link #open(Path, BundleLimits)}, and as {@link Age#decrypt} for an
     *     encrypted bundle that none of the identities opens or that is damaged
     */
    public static Bundle open(Path path, BundleLimits limits, Identities identities) {
        if (identities.isEmpty() || !Files.isRegularFile(path) || !Age.isAge(path)) {
            return open(path, limits);
        }
        Path plain = decryptToTemp(path, identities);
        try {
            Bundle opened = openZip(plain, limits, path.toString());
            Closeable zip = opened.resource;
            return new Bundle(opened.source, opened.entries, () -> {
                try {
                    zip.close();
                } finally {
                    Files.deleteIfExists(plain);
                }
            });
        } catch (RuntimeException e) {
            try {
                Files.deleteIfExists(plain);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static Path decryptToTemp(Path path, Identities identities) {
        Path plain;
        try {
            plain = ownerOnlyTemp();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot make a temporary file to decrypt " + path + " into: " + e.getMessage(), e);
        }
        try (InputStream in = Age.decrypt(Files.newInputStream(path), identities, path.toString());
             OutputStream out = Files.newOutputStream(plain)) {
            in.transferTo(out);
            return plain;
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(plain);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new ProofModeException(Failure.IO, "cannot decrypt " + path + ": " + e.getMessage(), e);
        }
    }

    private static Path ownerOnlyTemp() throws IOException {
        try {
            return Files.createTempFile(AtomicFiles.TEMP_PREFIX + "bundle-", ".zip",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            return Files.createTempFile(AtomicFiles.TEMP_PREFIX + "bundle-", ".zip");
        }
    }

    /**
     * A bundle over entries the caller opened (and bounded) itself, for example entries of an archive
     * read elsewhere; closing it releases nothing.
     *
     * @param source where the entries came from, for messages
     * @param entries the entries, in order
     */
    public static Bundle of(String source, List<BundleEntry> entries) {
        return new Bundle(source, entries, null);
    }

    /** Where the bundle came from, for messages. */
    public String source() {
        return source;
    }

    /** The entries, in archive or name order. */
    public List<BundleEntry> entries() {
        return entries;
    }

    @Override
    public void close() throws IOException {
        if (resource != null) {
            resource.close();
        }
    }

    private static Bundle openFolder(Path dir, BundleLimits limits) {
        List<BundleEntry> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(AtomicFiles.TEMP_PREFIX) || !Files.isRegularFile(p)) {
                    continue;
                }
                if (out.size() >= limits.maxEntries()) {
                    throw new ProofModeException(Failure.BAD_DATA, dir + ": more than " + limits.maxEntries() + " files");
                }
                long size = Files.size(p);
                out.add(new BundleEntry() {
                    @Override
                    public String name() {
                        return name;
                    }

                    @Override
                    public long size() {
                        return size;
                    }

                    @Override
                    public InputStream open() throws IOException {
                        return Files.newInputStream(p);
                    }
                });
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read folder " + dir + ": " + e.getMessage(), e);
        }
        return new Bundle(dir.toString(), out, null);
    }

    private static Bundle openZip(Path file, BundleLimits limits, String source) {
        ZipFile zip;
        try {
            zip = new ZipFile(file.toFile());
        } catch (ZipException e) {
            throw new ProofModeException(Failure.BAD_DATA, source + ": not a zip archive, or truncated", e);
        } catch (IOException e) {
            if (Files.isReadable(file)) {
                // The file can be read, so the zip reader choked on its content (EOF in a header, ...).
                throw new ProofModeException(Failure.BAD_DATA, source + ": not a zip archive, or truncated ("
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")", e);
            }
            throw new ProofModeException(Failure.IO, "cannot read " + source + ": " + e.getMessage(), e);
        }
        try {
            List<BundleEntry> out = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            int count = 0;
            var en = zip.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                if (++count > limits.maxEntries()) {
                    throw new ProofModeException(Failure.BAD_DATA, source + ": more than " + limits.maxEntries() + " entries");
                }
                String name = e.getName();
                checkName(source, name);
                if (e.isDirectory()) {
                    continue;
                }
                // Proofs are found by file name wherever they sit, so one name may appear only once.
                String base = name.substring(name.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
                if (!seen.add(base)) {
                    throw new ProofModeException(Failure.BAD_DATA, source + ": file name " + base + " appears twice");
                }
                out.add(new ZipBundleEntry(zip, e, limits));
            }
            return new Bundle(source, out, zip);
        } catch (RuntimeException e) {
            try {
                zip.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void checkName(String source, String name) {
        String n = name.replace('\\', '/');
        boolean bad = n.isEmpty() || n.startsWith("/") || n.matches("^[A-Za-z]:.*") || n.indexOf('\0') >= 0;
        for (String part : n.split("/")) {
            if (part.equals("..")) {
                bad = true;
            }
        }
        if (bad || !n.equals(name)) {
            throw new ProofModeException(Failure.BAD_DATA, source + ": unsafe entry name " + printable(name));
        }
    }

    /** An entry name as an error message may show it: control characters as {@code ?}. */
    public static String printable(String s) {
        return s.replaceAll("\\p{Cntrl}", "?");
    }

    /** A zip entry whose stream enforces the size and compression-ratio bounds. */
    private record ZipBundleEntry(ZipFile zip, ZipEntry entry, BundleLimits limits) implements BundleEntry {
        @Override
        public String name() {
            return entry.getName();
        }

        @Override
        public long size() {
            return entry.getSize();
        }

        @Override
        public InputStream open() throws IOException {
            long compressed = Math.max(entry.getCompressedSize(), 0);
            long bound = entry.getMethod() == ZipEntry.STORED
                    ? Math.max(entry.getSize(), 0)
                    : (1L << 20) + compressed * limits.maxCompressionRatio();
            return new BoundedInputStream(zip.getInputStream(entry), bound, name());
        }
    }
}
