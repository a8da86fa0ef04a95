// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Hex;

/**
 * One PKCS#11 token, reached through Java's PKCS#11 provider (SunPKCS11) and logged in with its PIN:
 * it makes key pairs inside the token and signs with them; the private keys never leave it.
 *
 * <p>Keys made here are token objects, sensitive and not extractable (the provider's
 * {@code attributes(generate, ...)} settings). Each carries a self-signed X.509 certificate under the
 * same ID and label, the key ID ProofMode names it by: that is how the provider finds a private key again.
 *
 * <p>Security: the PIN is used for the login only and never kept; the provider's {@link PrivateKey}
 * objects are handles, not key material.
 */
final class Pkcs11Token {
    private final Path module;
    private final TokenSlots.Token token;
    private final Provider provider;
    private final KeyStore store;

    private Pkcs11Token(Path module, TokenSlots.Token token, Provider provider, KeyStore store) {
        this.module = module;
        this.token = token;
        this.provider = provider;
        this.store = store;
    }

    /**
     * Finds the token and logs in.
     *
     * @param module the PKCS#11 module (a shared library)
     * @param label the token label, or empty for the one token present
     * @param serial the token serial number, if known (it wins over the label)
     * @param pin the user PIN; not cleared here
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the module or the token is not
     *     there, {@link Failure#BAD_ARGUMENT} if several tokens are present and none was named,
     *     {@link Failure#KEY_LOCKED} if the PIN is wrong or locked, {@link Failure#BAD_DATA} if the
     *     file is no PKCS#11 module
     */
    static Pkcs11Token login(Path module, Optional<String> label, Optional<String> serial, Passphrase pin) {
        return login(module, label, serial, pin, Optional.empty());
    }

    /**
     * As {@link #login(Path, Optional, Optional, Passphrase)}, for making a key: the key pair the session
     * generates carries {@code newKeyId} as its label and ID, both halves.
     */
    static Pkcs11Token login(Path module, Optional<String> label, Optional<String> serial, Passphrase pin, Optional<String> newKeyId) {
        TokenSlots.Token token = find(module, label, serial);
        Provider provider;
        try {
            provider = Security.getProvider("SunPKCS11").configure(config(module, token.slot(), newKeyId));
        } catch (RuntimeException e) {
            throw new ProofModeException(Failure.BAD_DATA, module + " is not a usable PKCS#11 module (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS11", provider);
            store.load(null, pin.chars());
            return new Pkcs11Token(module, token, provider, store);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw failure(e, "cannot log in to " + token.describe());
        }
    }

    /** Finds the token without logging in. */
    static TokenSlots.Token find(Path module, Optional<String> label, Optional<String> serial) {
        if (!Files.isRegularFile(module)) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no PKCS#11 module at " + module
                    + " (install the token's module, e.g. softhsm2, opensc or libtpm2-pkcs11-1)");
        }
        List<TokenSlots.Token> present = TokenSlots.present(module);
        if (serial.isPresent()) {
            return present.stream().filter(t -> t.serial().equals(serial.get())).findFirst()
                    .orElseThrow(() -> absent(module, "with serial number " + serial.get() + label.map(l -> " (\"" + l + "\")").orElse(""), present));
        }
        if (label.isPresent()) {
            return present.stream().filter(t -> t.label().equals(label.get())).findFirst()
                    .orElseThrow(() -> absent(module, "labelled \"" + label.get() + "\"", present));
        }
        List<TokenSlots.Token> initialised = present.stream().filter(t -> !t.label().isEmpty()).toList();
        if (initialised.size() == 1) {
            return initialised.get(0);
        }
        if (initialised.isEmpty()) {
            throw new ProofModeException(Failure.INPUT_MISSING, "no token is present in " + module + " (plug it in, or initialise one)");
        }
        throw new ProofModeException(Failure.BAD_ARGUMENT, module + " has " + initialised.size() + " tokens ("
                + labels(initialised) + "); choose one with --token LABEL");
    }

    private static ProofModeException absent(Path module, String what, List<TokenSlots.Token> present) {
        return new ProofModeException(Failure.INPUT_MISSING, "no token " + what + " is present in " + module
                + (present.stream().allMatch(t -> t.label().isEmpty()) ? "" : " (present: " + labels(present) + ")"));
    }

    /** The tokens' labels in alphabetical order (the module's slot order is its own and may change between runs). */
    private static String labels(List<TokenSlots.Token> tokens) {
        return tokens.stream().map(TokenSlots.Token::label).filter(l -> !l.isEmpty()).sorted().map(l -> "\"" + l + "\"")
                .collect(Collectors.joining(", "));
    }

    private static String config(Path module, long slot, Optional<String> newKeyId) {
        // Generated keys: kept on the token, private, sensitive, never extractable, for signing only; public
        // halves on the token too (their uses left to the token: tpm2-pkcs11 refuses any it did not choose);
        // both named by the key ID.
        String name = newKeyId.map(id -> "  CKA_LABEL = 0h" + Hex.encode(id.getBytes(StandardCharsets.UTF_8)) + "\n"
                + "  CKA_ID = 0h" + Hex.encode(id.getBytes(StandardCharsets.UTF_8)) + "\n").orElse("");
        return "--name=proofmode-" + slot + "\n"
                + "library=" + module + "\n"
                + "slot=" + slot + "\n"
                + "attributes(generate,CKO_PRIVATE_KEY,*) = {\n  CKA_TOKEN = true\n  CKA_PRIVATE = true\n"
                + "  CKA_SENSITIVE = true\n  CKA_EXTRACTABLE = false\n  CKA_SIGN = true\n  CKA_DECRYPT = false\n"
                + "  CKA_UNWRAP = false\n" + name + "}\n"
                + "attributes(generate,CKO_PUBLIC_KEY,*) = {\n  CKA_TOKEN = true\n" + name + "}\n";
    }

    /** The token's facts. */
    TokenSlots.Token token() {
        return token;
    }

    /** The module. */
    Path module() {
        return module;
    }

    /** The provider, for signatures with this token's keys. */
    Provider provider() {
        return provider;
    }

    /**
     * Makes a key pair inside the token and gives it the key ID {@code alias} (with a self-signed
     * certificate, so that it can be found again).
     *
     * @throws ProofModeException with {@link Failure#UNSUPPORTED} for Ed25519 or a type the token
     *     cannot make, {@link Failure#IO} if the token is full or fails
     */
    KeyPair generate(KeyType type, String alias, Instant created) {
        KeyPair pair;
        try {
            KeyPairGenerator g;
            switch (type) {
                case P256 -> {
                    g = KeyPairGenerator.getInstance("EC", provider);
                    g.initialize(new ECGenParameterSpec("secp256r1"));
                }
                case RSA3072, RSA4096 -> {
                    g = KeyPairGenerator.getInstance("RSA", provider);
                    g.initialize(new RSAKeyGenParameterSpec(type == KeyType.RSA3072 ? 3072 : 4096, RSAKeyGenParameterSpec.F4));
                }
                default -> throw new IllegalArgumentException("not a key type for tokens: " + type);
            }
            pair = g.generateKeyPair();
        } catch (GeneralSecurityException | RuntimeException e) {
            if (e instanceof ProofModeException pme) {
                throw pme;
            }
            throw failure(e, "cannot make a " + type.name().toLowerCase(Locale.ROOT) + " key in " + token.describe());
        }
        try {
            store.setKeyEntry(alias, pair.getPrivate(), null, new Certificate[] {selfSigned(pair, alias, created)});
        } catch (GeneralSecurityException | OperatorCreationException | RuntimeException e) {
            throw failure(e, "cannot store the new key in " + token.describe());
        }
        return new KeyPair(plain(pair.getPublic()), pair.getPrivate());
    }

    /** A certificate that begins when the key was made: {@code keys use} takes the key's creation time from it. */
    private X509Certificate selfSigned(KeyPair pair, String alias, Instant now) throws OperatorCreationException, GeneralSecurityException {
        X500Name name = new X500Name("CN=" + alias + ",O=ProofMode");
        String algorithm = pair.getPublic().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.getEpochSecond()),
                Date.from(now), Date.from(now.plus(Duration.ofDays(36500))), name, plain(pair.getPublic()))
                .build(new JcaContentSignerBuilder(algorithm).setProvider(provider).build(pair.getPrivate())));
    }

    /**
     * The key pair with this key ID.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if the token holds no such key
     */
    KeyPair key(String alias) {
        try {
            if (store.isKeyEntry(alias) && store.getKey(alias, null) instanceof PrivateKey pk && store.getCertificate(alias) != null) {
                return new KeyPair(plain(store.getCertificate(alias).getPublicKey()), pk);
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw failure(e, "cannot read the key " + alias + " in " + token.describe());
        }
        throw new ProofModeException(Failure.INPUT_MISSING, token.describe() + " holds no key with ID " + alias
                + " (was it deleted from the token?); see the keys it holds with: pkcs11-tool --module " + module + " --login -O");
    }

    /** Whether the provider finds a private key with this key ID (one with a certificate beside it). */
    boolean holds(String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw failure(e, "cannot read the keys of " + token.describe());
        }
    }

    /**
     * Adopts a key pair another tool made in the token without a certificate (see {@link TokenObjects}):
     * certifies it, beginning at {@code created}, under the key ID {@code alias}, and reads the token's
     * keys again.
     *
     * @param pin the user PIN, to read the keys again; not cleared here
     */
    void certify(String alias, Instant created, Passphrase pin) {
        TokenObjects.certify(module, token, alias, created);
        try {
            store.load(null, pin.chars());
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw failure(e, "cannot read the keys of " + token.describe());
        }
    }

    /** The certificate stored with a key, if any. */
    Certificate certificate(String alias) {
        try {
            return store.getCertificate(alias);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw failure(e, "cannot read the key " + alias + " in " + token.describe());
        }
    }

    /** Removes a key this command made (when what follows it failed); the key is gone if this succeeds. */
    void delete(String alias) {
        try {
            store.deleteEntry(alias);
        } catch (GeneralSecurityException | RuntimeException e) {
            // What the user is told about the first failure matters more; the key stays, unused.
        }
    }

    /** A public key as a plain JCA key, not the provider's handle. */
    private static PublicKey plain(PublicKey key) {
        try {
            return KeyFactory.getInstance(key.getAlgorithm()).generatePublic(new X509EncodedKeySpec(key.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new ProofModeException(Failure.BAD_DATA, "the token's public key cannot be read (" + OpenPgpKeys.oneLine(e) + ")", e);
        }
    }

    /**
     * Maps what the provider threw to a failure: PIN problems are {@link Failure#KEY_LOCKED}, a full token
     * or device failure {@link Failure#IO}, a removed token {@link Failure#INPUT_MISSING}.
     */
    static ProofModeException failure(Throwable e, String what) {
        String codes = chain(e);
        if (codes.contains("CKR_PIN_INCORRECT") || codes.contains("CKR_PIN_LEN_RANGE") || codes.contains("CKR_PIN_INVALID")) {
            return new ProofModeException(Failure.KEY_LOCKED, what + ": wrong PIN", e);
        }
        if (codes.contains("CKR_PIN_LOCKED")) {
            return new ProofModeException(Failure.KEY_LOCKED, what + ": the PIN is locked after too many wrong tries; "
                    + "unblock it with the token's tools (the security officer PIN)", e);
        }
        if (codes.contains("CKR_USER_NOT_LOGGED_IN") || codes.contains("CKR_USER_PIN_NOT_INITIALIZED")) {
            return new ProofModeException(Failure.KEY_LOCKED, what + ": not logged in (the user PIN is not set?)", e);
        }
        if (codes.contains("CKR_TOKEN_NOT_PRESENT") || codes.contains("CKR_DEVICE_REMOVED") || codes.contains("CKR_SLOT_ID_INVALID")) {
            return new ProofModeException(Failure.INPUT_MISSING, what + ": the token was removed", e);
        }
        if (codes.contains("CKR_OBJECT_HANDLE_INVALID") || codes.contains("CKR_KEY_HANDLE_INVALID")
                || codes.contains("CKR_SESSION_HANDLE_INVALID") || codes.contains("CKR_SESSION_CLOSED")) {
            // The login of a long-running process (agent, watch) does not outlive the token: a token pulled
            // and plugged in again is a new token to the module, and logging in again needs the PIN, which
            // ProofMode does not keep.
            return new ProofModeException(Failure.INPUT_MISSING, what + ": the token was removed or reset since the login (or the key "
                    + "deleted); once it is back, restart what holds its session (proofmode agent --stop; proofmode agent)", e);
        }
        if (codes.contains("CKR_DEVICE_MEMORY")) {
            return new ProofModeException(Failure.IO, what + ": the token is full (delete keys it no longer needs)", e);
        }
        if (codes.contains("CKR_FUNCTION_FAILED") || codes.contains("CKR_DEVICE_ERROR") || codes.contains("CKR_GENERAL_ERROR")) {
            // SoftHSM answers a full disk so; a hardware token, CKR_DEVICE_MEMORY
            return new ProofModeException(Failure.IO, what + ": the token failed (" + OpenPgpKeys.oneLine(root(e))
                    + "); it may be full: delete keys it no longer needs", e);
        }
        if (codes.contains("CKR_MECHANISM_INVALID") || codes.contains("CKR_DOMAIN_PARAMS_INVALID") || codes.contains("CKR_KEY_SIZE_RANGE")) {
            return new ProofModeException(Failure.UNSUPPORTED, what + ": the token cannot do this (" + OpenPgpKeys.oneLine(root(e)) + ")", e);
        }
        return new ProofModeException(Failure.IO, what + ": " + OpenPgpKeys.oneLine(root(e)), e);
    }

    private static String chain(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            b.append(t.getMessage()).append(' ');
        }
        return b.toString();
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
