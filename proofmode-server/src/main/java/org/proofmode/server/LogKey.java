// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.HomeLock;
import org.proofmode.util.InputFiles;

/**
 * The evidence server's transparency-log key: an Ed25519 key that signs checkpoints, made on first start
 * and kept like the device key. In {@code <home>/server/log-key/}: {@code key.pem}, the private key as
 * encrypted PKCS#8 (PBES2: PBKDF2 with HMAC-SHA256, AES-256-CBC; {@code openssl pkey} reads it with the
 * passphrase), {@code passphrase} (owner-only, only when the passphrase was generated, not chosen) and
 * {@code verifier-key}, the public key as verifiers take it ({@code <origin>+<hash>+<base64>}). The key's
 * name is the log's origin line, fixed when the key is made.
 */
public final class LogKey {
    /** PBKDF2 iterations for a passphrase the operator chose: every guess costs an attacker. */
    static final int ITERATIONS_CHOSEN = 600_000;

    /** PBKDF2 iterations for a generated passphrase (about 150 random bits, beyond guessing): starts stay quick. */
    static final int ITERATIONS_GENERATED = 10_000;

    /** Bouncy Castle's provider, for PBES2 with AES (the platform's names it differently). */
    private static final Provider BC = new BouncyCastleProvider();

    private static final Pattern ORIGIN = Pattern.compile("[\\x21-\\x7E&&[^+]]{1,200}");

    private LogKey() {}

    /** The folder of a home's log key. */
    public static Path dir(Path home) {
        return home.resolve("server").resolve("log-key");
    }

    /** The log key's public half, if the home has a log key. */
    public static Optional<NoteKey> publicKey(Path home) {
        Path file = dir(home).resolve("verifier-key");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String text = new String(InputFiles.read(file, 4096, "verifier key"), StandardCharsets.UTF_8).strip();
        try {
            return Optional.of(NoteKey.parse(text));
        } catch (NoteFormatException e) {
            throw new ProofModeException(Failure.IO, file + " is not a verifier key: " + e.getMessage(), e);
        }
    }

    /**
     * Makes the home's log key unless it has one.
     *
     * @param origin the log's origin for a new key (a schema-less URL: printable ASCII, no spaces, no '+')
     * @param passphrase the passphrase to protect a new key with; empty to generate one
     * @return the public key, new or existing
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for an origin that cannot be a key name
     */
    public static NoteKey create(Path home, String origin, Optional<Passphrase> passphrase) {
        if (!ORIGIN.matcher(origin).matches()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "a log origin is 1 to 200 printable ASCII characters "
                    + "without spaces or '+', like evidence.example.org/log");
        }
        return HomeLock.holding(home, () -> publicKey(home).orElseGet(() -> make(home, origin, passphrase)));
    }

    /**
     * Unlocks the home's log key for signing.
     *
     * @param passphrase the passphrase; empty to use the generated one kept beside the key
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the home has no log key,
     *     {@link Failure#KEY_LOCKED} if the passphrase is missing or wrong
     */
    public static SignedNote.Signer unlock(Path home, Optional<Passphrase> passphrase) {
        NoteKey key = publicKey(home).orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                "no log key in " + dir(home)));
        Path stored = dir(home).resolve("passphrase");
        if (passphrase.isEmpty() && !Files.isRegularFile(stored)) {
            throw new ProofModeException(Failure.KEY_LOCKED, "the log key is protected by a passphrase: give it with --log-passphrase-file");
        }
        String pem = new String(InputFiles.read(dir(home).resolve("key.pem"), 16_384, "log key"), StandardCharsets.UTF_8);
        try (Passphrase p = passphrase.orElseGet(() -> Passphrase.read(stored));
                PEMParser parser = new PEMParser(new StringReader(pem))) {
            if (!(parser.readObject() instanceof PKCS8EncryptedPrivateKeyInfo encrypted)) {
                throw new ProofModeException(Failure.IO, dir(home).resolve("key.pem") + " is not an encrypted PKCS#8 key");
            }
            PrivateKeyInfo info = encrypted.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BC).build(p.chars()));
            if (!(PrivateKeyFactory.createKey(info) instanceof Ed25519PrivateKeyParameters ed)
                    || !Arrays.equals(ed.generatePublicKey().getEncoded(), key.publicKey())) {
                throw new ProofModeException(Failure.IO, "the log key in " + dir(home) + " does not match its verifier key");
            }
            PrivateKey privateKey = new JcaPEMKeyConverter().getPrivateKey(info);
            return new SignedNote.Signer(key, privateKey);
        } catch (PKCSException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "wrong passphrase for the log key in " + dir(home), e);
        } catch (IOException | OperatorCreationException e) {
            throw new ProofModeException(Failure.IO, "cannot read the log key in " + dir(home) + ": " + e.getMessage(), e);
        }
    }

    private static NoteKey make(Path home, String origin, Optional<Passphrase> chosen) {
        Path dir = dir(home);
        try (Passphrase p = chosen.orElseGet(Passphrase::random)) {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            NoteKey key = NoteKey.of(origin, pair.getPublic());
            StringWriter pem = new StringWriter();
            try (JcaPEMWriter w = new JcaPEMWriter(pem)) {
                w.writeObject(new JcaPKCS8Generator(pair.getPrivate(), new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                        .setProvider(BC).setPRF(PKCS8Generator.PRF_HMACSHA256)
                        .setIterationCount(chosen.isPresent() ? ITERATIONS_CHOSEN : ITERATIONS_GENERATED)
                        .setPassword(p.chars()).build()));
            }
            AtomicFiles.ownerOnlyDirectory(dir);
            if (chosen.isEmpty()) {
                p.writeOwnerOnly(dir.resolve("passphrase"));
            }
            AtomicFiles.write(dir.resolve("key.pem"), pem.toString().getBytes(StandardCharsets.US_ASCII), true, true);
            // Written last: its presence is what says the key exists.
            AtomicFiles.write(dir.resolve("verifier-key"), (key.verifierKey() + "\n").getBytes(StandardCharsets.UTF_8), false, true);
            return key;
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new ProofModeException(Failure.IO, "cannot make the log key in " + dir + ": " + e.getMessage(), e);
        }
    }
}
