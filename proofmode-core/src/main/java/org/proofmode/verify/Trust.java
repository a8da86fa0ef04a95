// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.util.Home;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;

/**
 * What a verifier trusts beyond its home's own keys and roots, as one immutable value: OpenPGP keys,
 * time-stamp roots, C2PA anchors, transparency-log and witness keys, the roots of device attestations,
 * how many witnesses a receipt needs, and the bounds on the bundles it reads. The files that hold them
 * ({@code verify --trust}, {@code --tsa-trust}, …) are read by the {@code with…Files} methods.
 *
 * @param keys more trusted OpenPGP keys ({@code --trust})
 * @param tsaRoots more trusted time-stamp roots ({@code --tsa-trust})
 * @param c2paAnchors more C2PA trust anchors ({@code --c2pa-trust})
 * @param logKeys more transparency-log and witness keys ({@code --log-key}, {@code --witnesses})
 * @param integrityRoots the only roots device attestations may chain to ({@code --integrity-roots});
 *     absent: the system's trust store for SafetyNet tokens, Google's bundled roots for key attestations
 * @param attestationStatus key attestation certificates revoked ({@code --attestation-status}); empty: none known
 * @param requiredWitnesses how many trusted witnesses must cosign a proof's receipt (0: none)
 * @param limits bounds on the bundles the verifier reads
 */
public record Trust(List<PGPPublicKeyRing> keys, List<X509Certificate> tsaRoots, List<X509Certificate> c2paAnchors,
        List<NoteKey> logKeys, Optional<List<X509Certificate>> integrityRoots, AttestationStatus attestationStatus, int requiredWitnesses,
        BundleLimits limits) {
    /** Nothing beyond the home's own: its device keys, time-stamp roots, C2PA CA and log keys. */
    public static final Trust HOME = new Trust(List.of(), List.of(), List.of(), List.of(), Optional.empty(), AttestationStatus.empty(), 0,
            BundleLimits.DEFAULT);

    /** Validates the fields and copies the lists. */
    public Trust {
        keys = List.copyOf(keys);
        tsaRoots = List.copyOf(tsaRoots);
        c2paAnchors = List.copyOf(c2paAnchors);
        logKeys = List.copyOf(logKeys);
        integrityRoots = integrityRoots.map(List::copyOf);
        Objects.requireNonNull(attestationStatus, "attestationStatus");
        Objects.requireNonNull(limits, "limits");
        if (requiredWitnesses < 0) {
            throw new IllegalArgumentException("a negative number of witnesses");
        }
    }

    /** This trust and these OpenPGP keys. */
    public Trust withKeys(List<PGPPublicKeyRing> more) {
        return new Trust(plus(keys, more), tsaRoots, c2paAnchors, logKeys, integrityRoots, attestationStatus, requiredWitnesses, limits);
    }

    /**
     * This trust and the OpenPGP keys in these files (armored or binary certificates).
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} for a file that does not exist,
     *     {@link Failure#BAD_DATA} for one that holds no certificate
     */
    public Trust withKeyFiles(List<Path> files) {
        List<PGPPublicKeyRing> read = new ArrayList<>();
        for (Path t : files) {
            if (!Files.exists(t)) {
                throw new ProofModeException(Failure.INPUT_MISSING, t + ": no such key file");
            }
            read.addAll(OpenPgpKeys.readCertificates(InputFiles.read(t, InputFiles.KEY_BYTES, "key file"), t.toString()));
        }
        return withKeys(read);
    }

    /**
     * This trust and the time-stamp roots in these PEM files.
     *
     * @throws ProofModeException as {@link TrustedRoots#read}
     */
    public Trust withTsaRootFiles(List<Path> files) {
        return new Trust(keys, plus(tsaRoots, certificates(files)), c2paAnchors, logKeys, integrityRoots, attestationStatus, requiredWitnesses, limits);
    }

    /**
     * This trust and the C2PA anchors in these PEM files.
     *
     * @throws ProofModeException as {@link TrustedRoots#read}
     */
    public Trust withC2paAnchorFiles(List<Path> files) {
        return new Trust(keys, tsaRoots, plus(c2paAnchors, certificates(files)), logKeys, integrityRoots, attestationStatus, requiredWitnesses, limits);
    }

    /** This trust and these transparency-log or witness keys. */
    public Trust withLogKeys(List<NoteKey> more) {
        return new Trust(keys, tsaRoots, c2paAnchors, plus(logKeys, more), integrityRoots, attestationStatus, requiredWitnesses, limits);
    }

    /**
     * This trust, with device attestations checked against the roots of this PEM file only.
     *
     * @throws ProofModeException as {@link TrustedRoots#read}
     */
    public Trust withIntegrityRootsFile(Path file) {
        return new Trust(keys, tsaRoots, c2paAnchors, logKeys, Optional.of(TrustedRoots.read(file)), attestationStatus, requiredWitnesses, limits);
    }

    /**
     * This trust, with the key attestation certificates that Google's status list in this file revokes.
     *
     * @throws ProofModeException as {@link AttestationStatus#read}
     */
    public Trust withAttestationStatusFile(Path file) {
        return new Trust(keys, tsaRoots, c2paAnchors, logKeys, integrityRoots, AttestationStatus.read(file), requiredWitnesses, limits);
    }

    /** This trust, requiring {@code n} trusted witnesses' cosignatures on every proof's receipt. */
    public Trust withRequiredWitnesses(int n) {
        return new Trust(keys, tsaRoots, c2paAnchors, logKeys, integrityRoots, attestationStatus, n, limits);
    }

    /** This trust, reading bundles under these bounds (the server's, say). */
    public Trust withLimits(BundleLimits bounds) {
        return new Trust(keys, tsaRoots, c2paAnchors, logKeys, integrityRoots, attestationStatus, requiredWitnesses, bounds);
    }

    /**
     * A {@code --log-key} value: a verifier key ({@code origin+hash+base64}), or the file holding one.
     *
     * @param asFile the value as a path, resolved against the caller's folder
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if it is neither, or as {@link #readLogKey}
     */
    public static NoteKey logKey(String value, Path asFile) {
        if (!value.contains("+") || Files.isRegularFile(asFile)) {
            return readLogKey(asFile);
        }
        try {
            return NoteKey.parse(value);
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--log-key " + SafeText.escape(value)
                    + ": not a verifier key (origin+hash+base64) or a file holding one");
        }
    }

    /**
     * Reads a log's verifier key from a file holding it on one line.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such file,
     *     {@link Failure#BAD_DATA} if it holds no verifier key
     */
    public static NoteKey readLogKey(Path file) {
        InputFiles.requireRegular(file, "log key file");
        String text = new String(InputFiles.read(file, 4096, "log key file"), StandardCharsets.UTF_8).strip();
        try {
            return NoteKey.parse(text);
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.BAD_DATA, file + " is not a log's verifier key (origin+hash+base64): "
                    + e.getMessage(), e);
        }
    }

    /**
     * The log keys a home trusts: one verifier key per file of its folder {@code log-keys/}.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if a file there is not a verifier key
     */
    public static List<NoteKey> logKeysIn(Path home) {
        List<NoteKey> out = new ArrayList<>();
        Path dir = Home.LOG_KEYS.in(home);
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.add(readLogKey(f));
            }
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static List<X509Certificate> certificates(List<Path> files) {
        List<X509Certificate> out = new ArrayList<>();
        for (Path f : files) {
            out.addAll(TrustedRoots.read(f));
        }
        return out;
    }

    private static <T> List<T> plus(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
