// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleEntry;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;

/**
 * A collection folder as one zip, the form in which {@code proofmode publish} sends it and an evidence
 * server keeps it: the folder's files under their own names ({@code collection.json} at the top,
 * {@code capture.warc.gz}, the signatures and time-stamps, {@code tls-chain.pem}, {@code pubkey.asc},
 * {@code media/NN.ext}) and, beside each media file in {@code media/}, the files of its proof (its
 * {@code pubkey.asc} is the collection's, at the top). The same folder always makes the same bytes.
 *
 * <p>Security: an archive from elsewhere is unpacked only under {@link BundleLimits} (entries, compression
 * ratio), with a bound on the bytes unpacked in all, and only into names of the layout above: a name with
 * another folder, a dot first, or any character but letters, digits, dot, dash and underscore is refused.
 */
public final class CollectionArchive {
    private static final Pattern NAME = Pattern.compile("(" + Pattern.quote(CollectionRecord.MEDIA) + "/)?[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");

    private CollectionArchive() {}

    /**
     * Tells whether a file is a collection archive: a zip with {@code collection.json} at its top. Reads only
     * the zip's directory.
     */
    public static boolean isArchive(Path file) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (ZipFile zip = new ZipFile(file.toFile())) {
            return zip.getEntry(CollectionRecord.FILE) != null;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Writes a collection folder, with the proofs of its media, as a new zip.
     *
     * @param folder the collection folder ({@code proofmode collect}'s)
     * @param proofs the files of each media file's proof (name to content), by the media's SHA-256; each is
     *     put in {@code media/}, the proof's own {@code pubkey.asc} left out
     * @param out the zip (replaced: the caller names a new temporary file)
     * @throws ProofModeException with {@link Failure#IO} if a file cannot be read or written, {@link Failure#BAD_DATA}
     *     for a file name the layout does not allow
     */
    public static void write(Path folder, Map<String, Map<String, byte[]>> proofs, Path out) {
        Map<String, Path> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(folder, 2)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String name = folder.relativize(p).toString().replace('\\', '/');
                // what a file manager leaves (.DS_Store) is not part of the collection
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !name.startsWith(".") && !name.contains("/.")) {
                    files.put(checked(name), p);
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, folder + ": cannot read (" + e.getMessage() + ")", e);
        }
        Map<String, byte[]> extra = new TreeMap<>();
        proofs.values().forEach(set -> set.forEach((name, bytes) -> {
            if (!name.equals(Collector.PUBKEY)) {
                extra.put(checked(CollectionRecord.MEDIA + "/" + name), bytes);
            }
        }));
        try {
            AtomicFiles.write(out, stream -> {
                ZipOutputStream zip = new ZipOutputStream(stream);
                for (Map.Entry<String, Path> f : files.entrySet()) {
                    BundleWriter.putStored(zip, f.getKey(), f.getValue());
                }
                for (Map.Entry<String, byte[]> f : extra.entrySet()) {
                    if (!files.containsKey(f.getKey())) {
                        BundleWriter.put(zip, f.getKey(), f.getValue());
                    }
                }
                zip.finish();
            }, true, true);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /**
     * Unpacks an archive into an empty folder, under the bundle limits and at most {@code maxBytes} in all.
     *
     * @param zip the archive
     * @param into the folder (it exists and is empty; the caller deletes it)
     * @throws ProofModeException with {@link Failure#BAD_DATA} for an archive that is not a zip, holds a name
     *     outside the layout, passes a bound, or is damaged; {@link Failure#IO} if a file cannot be written
     */
    public static void extract(Path zip, Path into, BundleLimits limits, long maxBytes) {
        long total = 0;
        try (Bundle b = Bundle.open(zip, limits)) {
            Set<String> seen = new HashSet<>();
            for (BundleEntry e : b.entries()) {
                String name = e.name();
                if (!NAME.matcher(name).matches() || !seen.add(name.toLowerCase(Locale.ROOT))) {
                    throw new ProofModeException(Failure.BAD_DATA, zip + ": the entry " + Bundle.printable(name)
                            + " is not a file of a collection");
                }
                Path target = into.resolve(name);
                Files.createDirectories(target.getParent());
                try (InputStream in = e.open(); OutputStream o = Files.newOutputStream(target)) {
                    byte[] buf = new byte[1 << 16];
                    for (int n; (n = in.read(buf)) != -1; ) {
                        total += n;
                        if (total > maxBytes) {
                            throw new ProofModeException(Failure.BAD_DATA, zip + ": unpacks to more than " + maxBytes + " bytes");
                        }
                        o.write(buf, 0, n);
                    }
                }
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, zip + ": cannot unpack (" + e.getMessage() + ")", e);
        }
        if (!Files.isRegularFile(into.resolve(CollectionRecord.FILE))) {
            throw new ProofModeException(Failure.BAD_DATA, zip + ": no " + CollectionRecord.FILE + " at the top");
        }
    }

    private static String checked(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new ProofModeException(Failure.BAD_DATA, Bundle.printable(name) + ": not a file of a collection");
        }
        return name;
    }
}
