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
import java.util.function.Function;
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
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;
import org.proofmode.util.InputFiles;

/**
 * A signed-note key kept like the device key: the evidence server's transparency-log key (an Ed25519 key
 * that signs checkpoints, made on first start, named by the log's origin line) in
 * {@code <home>/server/log-key/}, or a witness's cosignature key in {@code <home>/witness/key/}. The folder
 * holds {@code key.pem}, the private key as encrypted PKCS#8 (PBES2: PBKDF2 with HMAC-SHA256,
 * AES-256-CBC; {@code openssl pkey} reads it with the passphrase), {@code passphrase} (owner-only, only
 * when the passphrase was generated, not chosen) and {@code verifier-key}, the public key as verifiers
 * take it ({@code <name>+<hash>+<base64>}). The name is fixed when the key is made.
 */
public final class LogKey {
    /** PBKDF2 iterations for a passphrase the operator chose: every guess costs an attacker. */
    static final int ITERATIONS_CHOSEN = 600_000;

    /** PBKDF2 iterations for a generated passphrase (about 150 random bits, beyond guessing): starts stay quick. */
    static final int ITERATIONS_GENERATED = 10_000;

    /** Bouncy Castle's provider, for PBES2 with AES (the platform's names it differently). */
    private static final Provider BC = new BouncyCastleProvider();

    private static final Pattern ORIGIN = Pattern.compile("[\\x21-\\x7E&&[^+]]{1,200}");

    private final Path home;
    private final Path dir;
    private final byte type;
    private final String what;
    private final String option;

    private LogKey(Path home, Path dir, byte type, String what, String option) {
        this.home = home;
        this.dir = dir;
        this.type = type;
        this.what = what;
        this.option = option;
    }

    /** A home's transparency-log key, in {@code <home>/server/log-key/}. */
    public static LogKey forLog(Path home) {
        return new LogKey(home, Home.SERVER_LOG_KEY.in(home), NoteKey.ED25519, "log key", "--log-passphrase-file");
    }

    /** A home's witness cosignature key, in {@code <home>/witness/key/}. */
    public static LogKey forWitness(Path home) {
        return new LogKey(home, Home.WITNESS_KEY.in(home), NoteKey.COSIGNATURE_V1, "witness key",
                "--witness-passphrase-file");
    }

    /** Its folder. */
    public Path dir() {
        return dir;
    }

    /** Its public half, if it exists. */
    public Optional<NoteKey> publicKey() {
        Path file = dir.resolve("verifier-key");
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
     * Makes the key unless it exists (several processes at once make one between them).
     *
     * @param name the key's name for a new key (a log's origin, a witness's name: a schema-less URL,
     *     printable ASCII, no spaces, no '+')
     * @param passphrase the passphrase to protect a new key with (cleared after use); empty to generate one
     * @return the public key, new or existing
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a name that cannot be a key name
     */
    public NoteKey create(String name, Optional<Passphrase> passphrase) {
        checkName(name);
        return create(publicKey -> name, passphrase);
    }

    /**
     * Makes the key unless it exists, named after its own public key (a default name that differs between
     * installations: see {@link LogPolicy#originFor}).
     *
     * @param name the name of a new key, from its 32-byte Ed25519 public key
     * @param passphrase the passphrase to protect a new key with (cleared after use); empty to generate one
     * @return the public key, new or existing: an existing key keeps the name it was made with
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for a name that cannot be a key name
     */
    public NoteKey create(Function<byte[], String> name, Optional<Passphrase> passphrase) {
        return HomeLock.holding(home, () -> publicKey().orElseGet(() -> make(name, passphrase)));
    }

    private void checkName(String name) {
        if (!ORIGIN.matcher(name).matches()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "a " + what + "'s name is 1 to 200 printable ASCII characters "
                    + "without spaces or '+', like evidence.example.org/log");
        }
    }

    /**
     * Unlocks the key for signing.
     *
     * @param passphrase the passphrase (cleared after use); empty to use the generated one kept beside the key
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no key,
     *     {@link Failure#KEY_LOCKED} if the passphrase is missing or wrong
     */
    public SignedNote.Signer unlock(Optional<Passphrase> passphrase) {
        NoteKey key = publicKey().orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING, "no " + what + " in " + dir));
        Path stored = dir.resolve("passphrase");
        if (passphrase.isEmpty() && !Files.isRegularFile(stored)) {
            throw new ProofModeException(Failure.KEY_LOCKED, "the " + what + " is protected by a passphrase: give it with " + option);
        }
        String pem = new String(InputFiles.read(dir.resolve("key.pem"), 16_384, what), StandardCharsets.UTF_8);
        try (Passphrase p = passphrase.orElseGet(() -> Passphrase.read(stored));
                PEMParser parser = new PEMParser(new StringReader(pem))) {
            if (!(parser.readObject() instanceof PKCS8EncryptedPrivateKeyInfo encrypted)) {
                throw new ProofModeException(Failure.IO, dir.resolve("key.pem") + " is not an encrypted PKCS#8 key");
            }
            PrivateKeyInfo info = encrypted.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BC).build(p.chars()));
            if (!(PrivateKeyFactory.createKey(info) instanceof Ed25519PrivateKeyParameters ed)
                    || !Arrays.equals(ed.generatePublicKey().getEncoded(), key.publicKey())) {
                throw new ProofModeException(Failure.IO, "the " + what + " in " + dir + " does not match its verifier key");
            }
            PrivateKey privateKey = new JcaPEMKeyConverter().getPrivateKey(info);
            return new SignedNote.Signer(key, privateKey);
        } catch (PKCSException e) {
            throw new ProofModeException(Failure.KEY_LOCKED, "wrong passphrase for the " + what + " in " + dir, e);
        } catch (IOException | OperatorCreationException e) {
            throw new ProofModeException(Failure.IO, "cannot read the " + what + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    private NoteKey make(Function<byte[], String> naming, Optional<Passphrase> chosen) {
        try (Passphrase p = chosen.orElseGet(Passphrase::random)) {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            String name = naming.apply(NoteKey.of("unnamed", pair.getPublic()).publicKey());
            checkName(name);
            NoteKey key = type == NoteKey.COSIGNATURE_V1 ? NoteKey.cosigner(name, pair.getPublic()) : NoteKey.of(name, pair.getPublic());
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
            throw new ProofModeException(Failure.IO, "cannot make the " + what + " in " + dir + ": " + e.getMessage(), e);
        }
    }
}
