// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.proof.ProofFields;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.InputFiles;

/**
 * Content credentials for a capture: the manifest ProofMode embeds, and writing the credentialed copy.
 *
 * <p>The manifest holds {@code c2pa.actions.v2} ({@code c2pa.created}, digital capture), the
 * {@code c2pa.hash.data} hard binding, the capture context as {@code c2pa.metadata}, and
 * {@code org.proofmode.proof}, which binds the OpenPGP proof: the device key's fingerprint, the
 * SHA-256 of the bytes as captured (before embedding), and the proof time. The OpenPGP proof itself is
 * made afterwards over the credentialed file, so it covers the manifest.
 */
public final class ContentCredentials {
    /** The label of ProofMode's assertion. */
    public static final String PROOF_ASSERTION = "org.proofmode.proof";
    /** Largest file that is credentialed (read into memory). */
    public static final long MAX_BYTES = 512L * 1024 * 1024;

    private ContentCredentials() {}

    /**
     * What {@link #copy} did.
     *
     * @param file what to prove: the credentialed copy, or the file itself
     * @param asItIs why the file itself is to be proved, when no copy was made
     */
    public record Copy(Path file, Optional<String> asItIs) {}

    /** Where the credentialed copy of a file goes: {@code IMG.jpg} → {@code IMG.c2pa.jpg} beside it. */
    public static Path copyName(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String copy = dot > 0 ? name.substring(0, dot) + ".c2pa" + name.substring(dot) : name + ".c2pa";
        return file.resolveSibling(copy);
    }

    /**
     * Writes a credentialed copy of a file ({@link #copyName}) whose format carries content credentials:
     * what {@code prove --c2pa} proves. A file with credentials of its own (a phone's, a camera's) keeps
     * them: the copy's manifest is made on top of them ({@link ManifestBuilder#sign}). Other files are to
     * be proved as they are.
     *
     * @param context the capture context the manifest records for the file (what a proof would record now)
     * @param pgpFingerprint the device key's fingerprint
     * @param replace whether an existing copy is replaced
     * @throws ProofModeException as {@link #read} and {@link #write}
     */
    public static Copy copy(Path file, Function<Path, Map<String, String>> context, String pgpFingerprint, C2paSigner signer,
            Optional<TimeStamper> tsa, boolean replace) {
        byte[] bytes = read(file);
        Optional<AssetFormat> format = AssetFormat.sniff(Arrays.copyOf(bytes, Math.min(16, bytes.length)));
        if (format.isEmpty() || !format.get().writable()) {
            return new Copy(file, Optional.of("not a format content credentials are written into (" + AssetFormat.writableNames()
                    + "); proved without content credentials"));
        }
        Path copy = copyName(file);
        write(bytes, copy, replace, capture(file.getFileName().toString(), context.apply(file), pgpFingerprint, bytes), signer, tsa);
        return new Copy(copy, Optional.empty());
    }

    /**
     * The manifest of a capture.
     *
     * @param title the file name
     * @param context the capture context (a proof record's fields, already filtered by the privacy settings)
     * @param pgpFingerprint the device key's fingerprint
     * @param captured the bytes as captured
     */
    public static ManifestBuilder capture(String title, Map<String, String> context, String pgpFingerprint, byte[] captured) {
        ObjectNode proof = proofLink(pgpFingerprint, Hex.encode(ManifestBuilder.sha256(captured)),
                Optional.ofNullable(context.get(ProofFields.PROOF_GENERATED)));
        return new ManifestBuilder().title(title).created(ManifestBuilder.DIGITAL_CAPTURE)
                .jsonAssertion(CaptureMetadata.LABEL, CaptureMetadata.of(context))
                .cborAssertion(PROOF_ASSERTION, proof);
    }

    /**
     * The content of {@code org.proofmode.proof}: what links content credentials to an OpenPGP proof.
     *
     * @param pgpFingerprint the device key's fingerprint
     * @param sourceSha256 the SHA-256 (hex) of the bytes the proof is about, before the manifest was embedded
     * @param time the proof's time (ISO 8601), when known
     */
    public static ObjectNode proofLink(String pgpFingerprint, String sourceSha256, Optional<String> time) {
        ObjectNode proof = Cbor.map();
        proof.put("signer", pgpFingerprint);
        proof.put("sourceSha256", sourceSha256);
        time.ifPresent(t -> proof.put("time", t));
        proof.put("proofFormat", "proofmode");
        return proof;
    }

    /**
     * Reads a file whole for credentialing.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING}, {@link Failure#BAD_DATA} if it is
     *     larger than {@link #MAX_BYTES}, or {@link Failure#IO}
     */
    public static byte[] read(Path in) {
        // Counted on the bytes read, and devices and FIFOs refused: /dev/zero reports size 0 and never ends.
        return InputFiles.read(in, MAX_BYTES, "media file");
    }

    /**
     * Signs and writes the credentialed copy atomically.
     *
     * @param bytes the asset's bytes
     * @param out where the copy goes
     * @param replace whether an existing {@code out} may be replaced
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} (not a writable format, see {@link AssetFormat}),
     *     {@link Failure#BAD_DATA} (malformed, or already credentialed), {@link Failure#OUTPUT_EXISTS},
     *     {@link Failure#IO}
     */
    public static byte[] write(byte[] bytes, Path out, boolean replace, ManifestBuilder manifest, C2paSigner signer,
            Optional<TimeStamper> tsa) {
        if (!replace && Files.exists(out)) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, out + " exists (use --force to replace it)");
        }
        Optional<AssetFormat> f = AssetFormat.sniff(Arrays.copyOf(bytes, Math.min(16, bytes.length)));
        if (f.isEmpty() || !f.get().writable()) {
            throw new ProofModeException(Failure.UNSUPPORTED, "content credentials can be embedded in " + AssetFormat.writableNames()
                    + " files only");
        }
        byte[] signed;
        try {
            signed = manifest.sign(bytes, signer, tsa);
        } catch (C2paFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, e.getMessage(), e);
        }
        return save(out, signed, replace);
    }

    /**
     * Writes a copy of a credentialed JPEG with an update manifest (see {@link ManifestBuilder#signUpdate}):
     * {@code org.proofmode.proof} links the file as it was (its SHA-256) to the device's OpenPGP key, and
     * with a time-stamp authority the manifest's signature is time-stamped. Not a pixel or an earlier byte
     * of the file changes.
     *
     * @param bytes the credentialed JPEG
     * @param out where the copy goes
     * @param replace whether an existing {@code out} may be replaced
     * @param pgpFingerprint the device key's fingerprint
     * @param time when, as the proof records it (ISO 8601)
     * @throws ProofModeException with {@link Failure#BAD_DATA} (not a JPEG with content credentials that can be
     *     read), {@link Failure#OUTPUT_EXISTS}, {@link Failure#IO}
     */
    public static byte[] update(byte[] bytes, Path out, boolean replace, String pgpFingerprint, String time, C2paSigner signer,
            Optional<TimeStamper> tsa) {
        if (!replace && Files.exists(out)) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, out + " exists (use --force to replace it)");
        }
        ObjectNode proof = proofLink(pgpFingerprint, Hex.encode(ManifestBuilder.sha256(bytes)), Optional.of(time));
        byte[] signed;
        try {
            signed = new ManifestBuilder().title(out.getFileName().toString()).cborAssertion(PROOF_ASSERTION, proof)
                    .signUpdate(bytes, signer, tsa);
        } catch (C2paFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, e.getMessage(), e);
        }
        return save(out, signed, replace);
    }

    private static byte[] save(Path out, byte[] signed, boolean replace) {
        try {
            AtomicFiles.write(out, o -> o.write(signed), replace, false);
        } catch (FileAlreadyExistsException e) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, out + " exists (use --force to replace it)", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, out + ": " + e.getMessage(), e);
        }
        return signed;
    }
}
