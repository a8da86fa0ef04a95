// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.proofmode.age.Age;
import org.proofmode.age.Identities;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;

/**
 * Bundles encrypted to this server with age: the server's identity (its file given to {@code serve
 * --identity}, readable by its owner only), the decryption of an upload into a bundle that then goes
 * through intake as a plain one, and {@code GET /api/v1/recipient}, what field users encrypt to.
 */
public final class EncryptedUploads implements AutoCloseable {
    private final Optional<Identities> identities;
    private final Path incoming;

    private EncryptedUploads(Optional<Identities> identities, Path incoming) {
        this.identities = identities;
        this.incoming = incoming;
    }

    /**
     * Reads the server's identity file, if there is one.
     *
     * @param incoming the folder of files in progress (where decrypted uploads are received)
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a file that others than its owner can
     *     read, and as {@link Age#readIdentities} for one that is missing or is not an identity file
     */
    public static EncryptedUploads open(Optional<Path> identityFile, Path incoming) {
        if (identityFile.isEmpty()) {
            return new EncryptedUploads(Optional.empty(), incoming);
        }
        Path f = identityFile.get();
        requireOwnerOnly(f);
        return new EncryptedUploads(Optional.of(Age.readIdentities(List.of(f))), incoming);
    }

    /**
     * The recipients of an identity file, checked as {@link #open} checks it: what {@code serve --identity}
     * with this file would answer at {@code GET /api/v1/recipient}.
     */
    public static List<String> recipientsOf(Path identityFile) {
        requireOwnerOnly(identityFile);
        try (Identities ids = Age.readIdentities(List.of(identityFile))) {
            return ids.recipients();
        }
    }

    private static void requireOwnerOnly(Path f) {
        PosixFileAttributeView view = Files.getFileAttributeView(f, PosixFileAttributeView.class);
        if (view == null || !Files.exists(f)) {
            return;
        }
        try {
            Set<PosixFilePermission> perms = view.readAttributes().permissions();
            if (perms.contains(PosixFilePermission.GROUP_READ) || perms.contains(PosixFilePermission.OTHERS_READ)) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, f + ": the identity file can be read by others than "
                        + "its owner; make it owner-only (chmod 600 " + f + ")");
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, f + ": cannot read the identity file's permissions: " + e.getMessage(), e);
        }
    }

    /** The recipients ({@code age1…}) bundles may be encrypted to; empty without an identity. */
    public List<String> recipients() {
        return identities.map(Identities::recipients).orElse(List.of());
    }

    /**
     * The bundle an upload holds: the upload itself, or, when it is an age file encrypted to this server,
     * its decryption received as a new upload (named without {@code .age}), which the caller closes too.
     *
     * @throws ApiException with {@link ProblemType#BAD_BUNDLE} for an encrypted upload this server cannot
     *     open (no identity, or encrypted to another recipient)
     * @throws ProofModeException with {@link Failure#BAD_DATA} for a damaged or truncated one
     */
    Upload decrypted(Upload up) throws IOException {
        if (!Age.isAge(up.file())) {
            return up;
        }
        if (identities.isEmpty()) {
            throw new ApiException(ProblemType.BAD_BUNDLE, "the bundle is encrypted (age) and this server holds no "
                    + "identity to open it: send it unencrypted, or to a server whose GET /api/v1/recipient names one");
        }
        Path plain = AtomicFiles.createOwnerOnlyFile(incoming.resolve("upload-" + UUID.randomUUID()));
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long size;
            try (InputStream in = Age.decrypt(Files.newInputStream(up.file()), identities.get(), up.name());
                 OutputStream out = new DigestOutputStream(Files.newOutputStream(plain), sha)) {
                size = in.transferTo(out);
            } catch (ProofModeException e) {
                if (e.failure() == Failure.KEY_LOCKED) {
                    throw new ApiException(ProblemType.BAD_BUNDLE, "the bundle is encrypted (age) to another recipient "
                            + "than this server's (GET /api/v1/recipient)");
                }
                throw e;
            }
            return new Upload(plain, Hex.encode(sha.digest()), size, plainName(up.name()));
        } catch (NoSuchAlgorithmException e) {
            Files.deleteIfExists(plain);
            throw new IllegalStateException(e);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(plain);
            throw e;
        }
    }

    private static String plainName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String suffix : List.of(".age.asc", ".age")) {
            if (lower.endsWith(suffix) && name.length() > suffix.length()) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    /** {@code GET /api/v1/recipient}: the age recipient to encrypt bundles for this server to; 404 without one. */
    public void recipient(Context ctx) {
        List<String> all = recipients();
        if (all.isEmpty()) {
            throw new ApiException(ProblemType.NOT_FOUND, "this server holds no age identity (serve --identity FILE)");
        }
        ObjectNode out = EvidenceJson.MAPPER.createObjectNode();
        out.put("recipient", all.get(0));
        ArrayNode list = out.putArray("recipients");
        all.forEach(list::add);
        ctx.contentType("application/json").result(out.toString());
    }

    /** Clears the identity's secret text. */
    @Override
    public void close() {
        identities.ifPresent(Identities::close);
    }
}
