// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.proofmode.media.Digests;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;

/**
 * An uploaded bundle, received into a file with a server-made name and hashed on the way. A request body
 * is either a zip ({@code application/zip} or {@code application/octet-stream}) or a multipart form: one
 * zip part, or loose proof files that are packed into a zip (sorted, with fixed times, so the same files
 * make the same bytes). Names sent by the client only ever become zip entry names, never paths.
 *
 * @param file the received bytes; the caller deletes or keeps it
 * @param sha256 their SHA-256, lower case
 * @param size their length
 * @param name the client's file name, cleaned, for display
 */
public record Upload(Path file, String sha256, long size, String name) implements AutoCloseable {
    private static final int MAX_PARTS = 200;

    /** Validates the fields. */
    public Upload {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(name, "name");
    }

    /** Most bytes of a refused body read and dropped before the answer, see {@link #drain}. */
    static final long DRAIN_MAX = 16L << 20;

    /**
     * Receives the body of a request.
     *
     * @param incoming the folder for files in progress
     * @param maxBytes most bytes accepted
     * @throws ApiException with {@link ProblemType#TOO_LARGE}, {@link ProblemType#UNSUPPORTED_MEDIA_TYPE} or
     *     {@link ProblemType#BAD_REQUEST}
     */
    public static Upload receive(Context ctx, Path incoming, long maxBytes) throws IOException {
        String type = accept(ctx, maxBytes);
        Path file = incoming.resolve("upload-" + UUID.randomUUID());
        try {
            if (type.startsWith("multipart/form-data")) {
                return fromParts(ctx, file, maxBytes);
            }
            if (type.isEmpty() || type.startsWith("application/zip") || type.startsWith("application/octet-stream")
                    || type.startsWith("application/x-zip-compressed")) {
                String name = clean(ctx.queryParam("name"), "upload.zip");
                try (InputStream in = ctx.bodyInputStream()) {
                    return copy(in, file, maxBytes, name);
                }
            }
            throw new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE, "send application/zip or multipart/form-data");
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }

    /**
     * Refuses a body whose declared length is over the bound (read and dropped first, see {@link #drain}).
     *
     * @return the request's content type, lower case ("" when it has none)
     */
    private static String accept(Context ctx, long maxBytes) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > maxBytes) {
            drain(ctx, declared);
            throw tooLarge(maxBytes);
        }
        return ctx.contentType() == null ? "" : ctx.contentType().toLowerCase(Locale.ROOT);
    }

    /**
     * A multipart form's files. Jetty refuses a part or form over the configured sizes while parsing, and a
     * form of more parts than it takes (its own bound, above {@link #MAX_PARTS}), the latter as a checked
     * exception: a form whose declared length is within the bound was refused for its parts ({@code 400}),
     * any other for its size ({@code 413}).
     */
    private static List<UploadedFile> parts(Context ctx, long maxBytes, Supplier<List<UploadedFile>> files) {
        try {
            return files.get();
        } catch (Exception e) { // Javalin passes the servlet's checked exceptions on undeclared
            long declared = ctx.req().getContentLengthLong();
            drain(ctx, declared);
            if (declared >= 0 && declared <= maxBytes) {
                throw new ApiException(ProblemType.BAD_REQUEST, "the form cannot be read: at most " + MAX_PARTS + " files, each named");
            }
            throw tooLarge(maxBytes);
        }
    }

    /**
     * Receives two items sent as a multipart form with one file in each of the parts {@code a} and
     * {@code b} (a share bundle or a media file each), together at most {@code maxBytes}.
     *
     * @return the two, in that order; the caller closes both
     * @throws ApiException as {@link #receive}, and with {@link ProblemType#BAD_REQUEST} for another form
     */
    public static List<Upload> receivePair(Context ctx, Path incoming, long maxBytes) throws IOException {
        if (!accept(ctx, maxBytes).startsWith("multipart/form-data")) {
            throw new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE, "send multipart/form-data with the parts a and b");
        }
        List<UploadedFile> a = parts(ctx, maxBytes, () -> ctx.uploadedFiles("a"));
        List<UploadedFile> b = parts(ctx, maxBytes, () -> ctx.uploadedFiles("b"));
        if (a.size() != 1 || b.size() != 1) {
            throw new ApiException(ProblemType.BAD_REQUEST, "send one file in part a and one in part b");
        }
        if (a.get(0).size() + b.get(0).size() > maxBytes) {
            throw tooLarge(maxBytes);
        }
        List<Upload> both = new ArrayList<>();
        try {
            for (UploadedFile part : List.of(a.get(0), b.get(0))) {
                Path file = incoming.resolve("upload-" + UUID.randomUUID());
                try (InputStream in = part.content()) {
                    both.add(copy(in, file, maxBytes, clean(part.filename(), both.isEmpty() ? "a" : "b")));
                } catch (IOException | RuntimeException e) {
                    Files.deleteIfExists(file);
                    throw e;
                }
            }
            return both;
        } catch (IOException | RuntimeException e) {
            for (Upload u : both) {
                u.close();
            }
            throw e;
        }
    }

    private static Upload fromParts(Context ctx, Path file, long maxBytes) throws IOException {
        List<UploadedFile> parts = new ArrayList<>(parts(ctx, maxBytes, ctx::uploadedFiles));
        if (parts.isEmpty()) {
            throw new ApiException(ProblemType.BAD_REQUEST, "the form has no file");
        }
        if (parts.size() > MAX_PARTS) {
            throw new ApiException(ProblemType.BAD_REQUEST, "more than " + MAX_PARTS + " files");
        }
        String single = parts.size() == 1 ? clean(parts.get(0).filename(), "").toLowerCase(Locale.ROOT) : "";
        // A zip, or a zip encrypted with age (name.zip.age), which intake decrypts.
        if (single.endsWith(".zip") || single.endsWith(".age")) {
            try (InputStream in = parts.get(0).content()) {
                return copy(in, file, maxBytes, clean(parts.get(0).filename(), "upload.zip"));
            }
        }
        parts.sort(Comparator.comparing(p -> clean(p.filename(), "")));
        MessageDigest sha = Digests.newSha256();
        Set<String> names = new HashSet<>();
        long total = 0;
        try (OutputStream raw = Files.newOutputStream(AtomicFiles.createOwnerOnlyFile(file));
             CountingOutput counted = new CountingOutput(new DigestOutputStream(raw, sha), maxBytes);
             ZipOutputStream zip = new ZipOutputStream(counted)) {
            for (UploadedFile p : parts) {
                String name = clean(p.filename(), "");
                if (name.isEmpty() || !names.add(name.toLowerCase(Locale.ROOT))) {
                    throw new ApiException(ProblemType.BAD_REQUEST, "every file needs a distinct name");
                }
                total += p.size();
                if (total > maxBytes) {
                    throw tooLarge(maxBytes);
                }
                ZipEntry e = new ZipEntry(name);
                e.setTime(0);
                zip.putNextEntry(e);
                try (InputStream in = p.content()) {
                    in.transferTo(zip);
                }
                zip.closeEntry();
            }
        }
        return new Upload(file, Hex.encode(sha.digest()), Files.size(file), parts.size() + " files");
    }

    private static Upload copy(InputStream in, Path file, long maxBytes, String name) throws IOException {
        MessageDigest sha = Digests.newSha256();
        try (OutputStream out = new CountingOutput(new DigestOutputStream(Files.newOutputStream(AtomicFiles.createOwnerOnlyFile(file)), sha), maxBytes)) {
            in.transferTo(out);
        }
        long size = Files.size(file);
        if (size == 0) {
            throw new ApiException(ProblemType.BAD_REQUEST, "the upload is empty");
        }
        return new Upload(file, Hex.encode(sha.digest()), size, name);
    }

    /** A file name from a client, reduced to its last part and printable characters; never a path. */
    static String clean(String name, String fallback) {
        if (name == null) {
            return fallback;
        }
        String n = name.replace('\\', '/');
        n = n.substring(n.lastIndexOf('/') + 1).replaceAll("[\\p{Cntrl}\"<>]", "").strip();
        if (n.isEmpty() || n.equals(".") || n.equals("..") || n.length() > 200) {
            return fallback;
        }
        return n;
    }

    /**
     * Reads and drops the rest of a refused body when it is small enough ({@value #DRAIN_MAX} bytes at
     * most; reads stay bounded by the server's body read time). A client still sending when the server
     * answers and closes gets a reset connection instead of the answer; after this it reads the 413.
     */
    private static void drain(Context ctx, long declared) {
        if (declared < 0 || declared > DRAIN_MAX) {
            return;
        }
        try (InputStream in = ctx.bodyInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException | RuntimeException e) {
            // The answer goes out anyway.
        }
    }

    /**
     * Reads and drops the rest of a body the framework refused as too large ({@code 413}, a text body over
     * its 1 MiB), as for an upload, so that a client still sending reads the answer.
     */
    public static void drainRefused(Context ctx) {
        drain(ctx, ctx.req().getContentLengthLong());
    }

    private static ApiException tooLarge(long maxBytes) {
        return new ApiException(ProblemType.TOO_LARGE, "uploads are limited to " + maxBytes + " bytes");
    }

    /** Stops writing past a bound. */
    private static final class CountingOutput extends FilterOutputStream {
        private final long max;
        private long count;

        CountingOutput(OutputStream out, long max) {
            super(out);
            this.max = max;
        }

        @Override
        public void write(int b) throws IOException {
            grow(1);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            grow(len);
            out.write(b, off, len);
        }

        private void grow(long n) {
            count += n;
            if (count > max) {
                throw tooLarge(max);
            }
        }
    }
}
