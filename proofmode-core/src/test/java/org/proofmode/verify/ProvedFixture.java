// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.openpgp.PGPUtil;
import org.proofmode.ProofMode;
import org.proofmode.TestHomes;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.keys.SigningKey;
import org.proofmode.prove.ProveResult;

/**
 * One small media file proved with a given key, and ways to verify altered copies of its proof.
 *
 * @param work a folder for copies
 * @param media the proved media file
 * @param folder its proof folder in the store
 * @param sha256 its hash, naming the proof files
 */
record ProvedFixture(Path work, Path media, Path folder, String sha256) {
    /** The media file name, as the flip tests call it. */
    static final String MEDIA = "media";

    /** Proves a JPEG-like file of 4 + 60 bytes (seeded) in {@code dir}. */
    static ProvedFixture prove(Path dir, ProofMode pm, SigningKey key, long seed) {
        Path media = TestHomes.jpegLike(dir.resolve("photo.jpg"), seed, 60);
        ProveResult r = TestHomes.prove(pm, key, media);
        Path work = dir.resolve("work");
        try {
            Files.createDirectories(work);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ProvedFixture(work, media, r.proofFolder().orElseThrow(), r.sha256().orElseThrow());
    }

    /** The names of the files a flip may target: {@link #MEDIA} and the five proof files. */
    List<String> flipTargets() {
        return List.of(MEDIA, ProofFiles.json(sha256), ProofFiles.csv(sha256), ProofFiles.mediaSig(sha256),
                ProofFiles.jsonSig(sha256), ProofFiles.csvSig(sha256));
    }

    /** The names of the three signature files. */
    List<String> signatureFiles() {
        return List.of(ProofFiles.mediaSig(sha256), ProofFiles.jsonSig(sha256), ProofFiles.csvSig(sha256));
    }

    /** The original bytes of a target. */
    byte[] original(String target) {
        try {
            return Files.readAllBytes(target.equals(MEDIA) ? media : folder.resolve(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Verifies a fresh copy of the proof and media in which one target has the given content. */
    VerificationReport verifyWith(String target, byte[] content) {
        Path copy;
        try {
            copy = Files.createTempDirectory(work, "try");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Path proof = TestHomes.copyFolder(folder, copy.resolve("proof"));
            Path mediaCopy = copy.resolve(media.getFileName().toString());
            Files.copy(media, mediaCopy);
            Files.write(target.equals(MEDIA) ? mediaCopy : proof.resolve(target), content);
            return new Verifier(List.of(), BundleLimits.DEFAULT).verify(proof, Optional.of(mediaCopy));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            TestHomes.deleteTree(copy);
        }
    }

    /** Verifies an untouched copy. */
    VerificationReport verifyUntouched() {
        return verifyWith(MEDIA, original(MEDIA));
    }

    /** The signature code subject of a signature file: media, proofJson or proofCsv. */
    String subjectOf(String signatureFile) {
        if (signatureFile.equals(ProofFiles.jsonSig(sha256))) {
            return "proofJson";
        }
        if (signatureFile.equals(ProofFiles.csvSig(sha256))) {
            return "proofCsv";
        }
        return "media";
    }

    /** Undoes ASCII armor: the binary OpenPGP packets inside. */
    static byte[] dearmor(byte[] armored) {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(armored))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Armors binary packets as a signature, with a fresh checksum. */
    static byte[] armor(byte[] binary) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = ArmoredOutputStream.builder().clearHeaders().build(bytes)) {
            out.write(binary);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A copy of the bytes with one byte XORed with a mask. */
    static byte[] flip(byte[] bytes, int position, int mask) {
        byte[] out = bytes.clone();
        out[position] ^= (byte) mask;
        return out;
    }
}
