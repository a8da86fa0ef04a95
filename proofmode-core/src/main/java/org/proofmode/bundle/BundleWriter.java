// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.proofmode.age.ShareEncryption;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.i18n.Language;
import org.proofmode.util.AtomicFiles;

/**
 * Writes the app's flat share bundle: for each proof its media (when asked), every proof file,
 * {@code pubkey.asc} once, and {@code HowToVerifyProofData.txt} written for the bundle ({@link HowToVerify}).
 * The zip is written atomically.
 */
public final class BundleWriter {
    /**
     * One proof to put in the bundle: its folder's files, or the files given (a set opened from an
     * encrypted store, {@link ProofStore#files}).
     */
    public record Item(Path proofFolder, Optional<Path> media, Optional<Map<String, byte[]>> opened) {
        /** Validates the fields. */
        public Item {
            Objects.requireNonNull(proofFolder, "proofFolder");
            Objects.requireNonNull(media, "media");
            Objects.requireNonNull(opened, "opened");
        }

        /** The files of a plain proof folder. */
        public Item(Path proofFolder, Optional<Path> media) {
            this(proofFolder, media, Optional.empty());
        }
    }

    private BundleWriter() {}

    /**
     * Writes the bundle.
     *
     * @param items the proofs, with their media if the media is to be shared
     * @param out the zip to write
     * @param replace whether an existing file may be replaced
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if {@code out} exists and
     *     {@code replace} is false, {@link Failure#IO} if writing fails (nothing is left behind)
     */
    public static void write(List<Item> items, Path out, boolean replace) {
        write(items, out, replace, Optional.empty());
    }

    /**
     * Writes the bundle, encrypted as it is written when an encryption is given (the zip is then never on
     * disk in the clear); see {@link #write(List, Path, boolean)}.
     *
     * @param encryption the readers to encrypt the bundle for, if any
     */
    public static void write(List<Item> items, Path out, boolean replace, Optional<ShareEncryption> encryption) {
        write(items, out, replace, encryption, Language.EN);
    }

    /**
     * Writes the bundle with its instructions ({@code HowToVerifyProofData.txt}) in a language, followed by
     * the same in English; see {@link #write(List, Path, boolean, Optional)}.
     *
     * @param language the language of the receiver the instructions are written for
     */
    public static void write(List<Item> items, Path out, boolean replace, Optional<ShareEncryption> encryption, Language language) {
        Objects.requireNonNull(language, "language");
        try {
            AtomicFiles.write(out, stream -> {
                if (encryption.isEmpty()) {
                    writeZip(items, stream, language);
                    return;
                }
                try (OutputStream encrypted = encryption.get().encrypting(new KeepOpen(stream))) {
                    writeZip(items, encrypted, language);
                }
            }, replace, false);
        } catch (FileAlreadyExistsException e) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, out + ": exists already (use --force to replace it)", e);
        } catch (UncheckedIOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + out + ": " + e.getCause().getMessage(), e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /** The file's stream, which the encryption's close must leave open: the atomic writer still flushes it to disk. */
    private static final class KeepOpen extends FilterOutputStream {
        KeepOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }

    private static void writeZip(List<Item> items, OutputStream stream, Language language) throws IOException {
        ZipOutputStream zip = new ZipOutputStream(stream);
        Set<String> names = new HashSet<>();
        boolean pubkeyWritten = false;
        List<HowToVerify.Proof> proofs = new ArrayList<>();
        for (Item item : items) {
            Optional<String> mediaName = Optional.empty();
            if (item.media().isPresent()) {
                Path m = item.media().get();
                mediaName = Optional.of(unique(names, m.getFileName().toString()));
                putStored(zip, names, mediaName.get(), m);
            }
            Set<String> proofFiles = new TreeSet<>();
            if (item.opened().isPresent()) {
                for (Map.Entry<String, byte[]> f : new TreeMap<>(item.opened().get()).entrySet()) {
                    if (f.getKey().equals(ProofFiles.PUBKEY) && pubkeyWritten) {
                        continue;
                    }
                    pubkeyWritten |= f.getKey().equals(ProofFiles.PUBKEY);
                    if (!f.getKey().equals(ProofFiles.PUBKEY)) {
                        proofFiles.add(f.getKey());
                    }
                    if (names.add(f.getKey())) {
                        zip.putNextEntry(entry(f.getKey()));
                        zip.write(f.getValue());
                        zip.closeEntry();
                    }
                }
                proofs.add(proof(item, mediaName, proofFiles));
                continue;
            }
            try (Stream<Path> files = Files.list(item.proofFolder())) {
                for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                    String name = f.getFileName().toString();
                    if (name.equals(ProofFiles.PUBKEY)) {
                        if (pubkeyWritten) {
                            continue;
                        }
                        pubkeyWritten = true;
                    }
                    if (!name.startsWith(".") && Files.isRegularFile(f)) {
                        put(zip, names, name, f);
                        if (!name.equals(ProofFiles.PUBKEY)) {
                            proofFiles.add(name);
                        }
                    }
                }
            }
            proofs.add(proof(item, mediaName, proofFiles));
        }
        zip.putNextEntry(entry(ProofFiles.HOW_TO_VERIFY));
        zip.write(HowToVerify.text(proofs, pubkeyWritten, language).getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
        zip.finish();
    }

    /** What the instructions say of one proof: its id is the name of its .proof.json without the suffix, else its folder's. */
    private static HowToVerify.Proof proof(Item item, Optional<String> mediaName, Set<String> files) {
        String id = files.stream().filter(n -> n.endsWith(ProofFiles.JSON)).map(n -> n.substring(0, n.length() - ProofFiles.JSON.length()))
                .findFirst().orElse(String.valueOf(item.proofFolder().getFileName()));
        return new HowToVerify.Proof(id, mediaName, files);
    }

    private static void put(ZipOutputStream zip, Set<String> names, String name, Path file) throws IOException {
        if (!names.add(name)) {
            return;
        }
        zip.putNextEntry(entry(name));
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(zip);
        }
        zip.closeEntry();
    }

    /**
     * Adds media without compression: photos, videos and recordings are compressed already, so deflating
     * them costs time for nothing. A stored entry needs its CRC first, which one quick read gives.
     */
    private static void putStored(ZipOutputStream zip, Set<String> names, String name, Path file) throws IOException {
        if (names.add(name)) {
            putStored(zip, name, file);
        }
    }

    /**
     * Adds a file that is compressed already (media, a gzipped WARC) as a stored entry without a time of
     * its own, its CRC from one quick read first.
     */
    public static void putStored(ZipOutputStream zip, String name, Path file) throws IOException {
        CRC32 crc = new CRC32();
        long size = 0;
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) != -1) {
                crc.update(buf, 0, n);
                size += n;
            }
        }
        ZipEntry e = entry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(size);
        e.setCompressedSize(size);
        e.setCrc(crc.getValue());
        zip.putNextEntry(e);
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(zip);
        }
        zip.closeEntry();
    }

    /** Adds bytes as a deflated entry without a time of its own (see {@link #entry}). */
    public static void put(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        zip.putNextEntry(entry(name));
        zip.write(bytes);
        zip.closeEntry();
    }

    /**
     * An entry without a time of its own (the zip format's earliest, 1980-01-01): the same files always
     * make the same bytes, so a bundle published twice is one item on the server, not two.
     */
    private static ZipEntry entry(String name) {
        ZipEntry e = new ZipEntry(name);
        e.setTime(0);
        return e;
    }

    private static String unique(Set<String> names, String name) {
        if (!names.contains(name)) {
            return name;
        }
        for (int i = 2; ; i++) {
            String candidate = i + "-" + name;
            if (!names.contains(candidate)) {
                return candidate;
            }
        }
    }
}
