// SPDX-License-Identifier: Apache-2.0
package org.proofmode.c2pa;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyInfo;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import org.proofmode.keys.TokenSigner;
import org.proofmode.util.HomeLock;

/**
 * Sets up what signs a home's content credentials, for its unlocked device key: a certificate and key the
 * user gives, or the home's local CA ({@link LocalCa}), made on first use under the home's lock so that
 * commands started at once on a new home make one CA between them. A device key in a PKCS#11 token signs
 * content credentials itself, with a certificate the local CA issued to it (the CA's own key then
 * discarded). The use case of {@code c2pa sign}, {@code c2pa ca}, {@code prove --c2pa} and {@code redact --c2pa}.
 */
public final class SignerSetup {
    private SignerSetup() {}

    /** A local CA made now, which the user should hear of: its certificate is what others must trust. */
    public enum Made {
        /** A CA and its device certificate, both keys sealed with the device key's passphrase. */
        LOCAL_CA,
        /** A CA whose device certificate was issued to the token's key. */
        LOCAL_CA_FOR_TOKEN
    }

    /**
     * A C2PA signer, and the local CA made for it now, if one was.
     *
     * @param signer signs manifests
     * @param made the CA made now, if any
     * @param caCertificate the local CA's certificate file (what to hand to verifiers)
     */
    public record Signer(C2paSigner signer, Optional<Made> made, Path caCertificate) {
        /** Validates the fields. */
        public Signer {
            Objects.requireNonNull(signer, "signer");
            Objects.requireNonNull(made, "made");
            Objects.requireNonNull(caCertificate, "caCertificate");
        }
    }

    /**
     * A certificate chain and its key, given by the user instead of the local CA's.
     *
     * @param certificates the chain (PEM, leaf first)
     * @param key its private key (PEM; encrypted PKCS#8 is decrypted with the device key's passphrase)
     */
    public record Given(Path certificates, Path key) {
        /** Validates the fields. */
        public Given {
            Objects.requireNonNull(certificates, "certificates");
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * The C2PA signer for this device key.
     *
     * @param home the home folder
     * @param device the unlocked device key
     * @param info its info (the CA is named after its fingerprint)
     * @param passphrase the device key's passphrase: it seals the local CA's keys and decrypts a given key
     * @param given a certificate and key the user gives, or empty for the local CA's
     * @throws ProofModeException with {@link Failure#INCOMPATIBLE_OPTIONS} for a given certificate with a key in
     *     a token, {@link Failure#BAD_DATA} for a given certificate that cannot be read,
     *     {@link Failure#UNSUPPORTED} for a token key that is not P-256, {@link Failure#INPUT_MISSING} if the
     *     local CA was made for an earlier key than the token's
     */
    public static Signer signer(Path home, SigningKey device, KeyInfo info, Passphrase passphrase, Optional<Given> given) {
        LocalCa ca = new LocalCa(home);
        if (device.token().isPresent()) {
            if (given.isPresent()) {
                throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--cert and --key: the device key is in a PKCS#11 token, "
                        + "and that key signs content credentials (with a certificate from the local C2PA CA)");
            }
            return tokenSigner(home, ca, info, device.token().get());
        }
        if (given.isPresent()) {
            Path cert = given.get().certificates();
            try {
                return new Signer(new C2paSigner(Pem.decryptKey(given.get().key(), passphrase), Pem.certificates(cert)), Optional.empty(),
                        ca.caCertificateFile());
            } catch (IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_DATA, cert + ": " + e.getMessage(), e);
            }
        }
        AtomicReference<Made> made = new AtomicReference<>();
        if (!ca.exists()) {
            // Made once: racers on a new home wait here and use the one that was made.
            HomeLock.run(home, () -> {
                if (!ca.exists()) {
                    ca.create(passphrase, info.fingerprint(), false);
                    made.set(Made.LOCAL_CA);
                }
            });
        }
        return new Signer(ca.signer(passphrase), Optional.ofNullable(made.get()), ca.caCertificateFile());
    }

    /**
     * Makes the home's local CA now, replacing one only with {@code force} ({@code proofmode c2pa ca}).
     *
     * @param home the home folder
     * @param device the unlocked device key
     * @param info its info
     * @param passphrase the device key's passphrase, which seals the CA's keys
     * @param force replace an existing CA
     * @return the CA
     * @throws ProofModeException with {@link Failure#OUTPUT_EXISTS} if a CA exists and {@code force} is not
     *     given, {@link Failure#UNSUPPORTED} for a token key that is not P-256
     */
    public static LocalCa createCa(Path home, SigningKey device, KeyInfo info, Passphrase passphrase, boolean force) {
        LocalCa ca = new LocalCa(home);
        if (device.token().isPresent()) {
            PublicKey pub = requireEc(device.token().get(), info);
            HomeLock.run(home, () -> {
                if (Files.exists(ca.caCertificateFile()) && !force) {
                    throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists: " + ca.caCertificateFile()
                            + " (use --force to replace it)");
                }
                ca.createFor(pub, info.fingerprint(), true);
            });
            return ca;
        }
        HomeLock.run(home, () -> {
            if (ca.exists() && !force) {
                throw new ProofModeException(Failure.OUTPUT_EXISTS, "a C2PA CA already exists: " + ca.caCertificateFile()
                        + " (use --force to replace it; content credentials signed before then stay valid but no longer chain to it)");
            }
            ca.create(passphrase, info.fingerprint(), force);
        });
        return ca;
    }

    /** The token's P-256 key, with a certificate the local CA issued to it (made on first use). */
    private static Signer tokenSigner(Path home, LocalCa ca, KeyInfo info, TokenSigner token) {
        PublicKey pub = requireEc(token, info);
        AtomicReference<Made> made = new AtomicReference<>();
        if (!ca.issuedTo(pub)) {
            HomeLock.run(home, () -> {
                if (ca.issuedTo(pub)) {
                    return;
                }
                if (Files.exists(ca.caCertificateFile())) {
                    throw new ProofModeException(Failure.INPUT_MISSING, "the local C2PA certificate is for an earlier device key; "
                            + "make one for the key in the token: proofmode c2pa ca --force");
                }
                ca.createFor(pub, info.fingerprint(), false);
                made.set(Made.LOCAL_CA_FOR_TOKEN);
            });
        }
        return new Signer(ca.signer(token.privateKey(), token.provider(), pub), Optional.ofNullable(made.get()), ca.caCertificateFile());
    }

    private static PublicKey requireEc(TokenSigner token, KeyInfo info) {
        PublicKey pub = token.publicKey();
        if (!"EC".equals(pub.getAlgorithm())) {
            throw new ProofModeException(Failure.UNSUPPORTED, "C2PA signing with a key in a token needs a p256 key; this one is "
                    + info.algorithm() + " (make one with: proofmode keys rotate --pkcs11 MODULE --key-type p256)");
        }
        return pub;
    }
}
