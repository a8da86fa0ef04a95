// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Hex;
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;

/**
 * Turns hardware identifiers (MAC addresses, BSSIDs, serial numbers, host names) into values that can be
 * stored in a proof: {@code hmac-sha256:<hex>}, an HMAC-SHA256 under a secret made once per installation.
 * Equal identifiers give equal values on one installation, so proofs from one device can be matched; but
 * without the secret nobody can recover an identifier by trying every vendor prefix, as they could with a
 * plain hash of a 48-bit MAC address.
 *
 * <p>Security: the secret is 32 random bytes in the owner-only file {@code keys/identifier-secret}, made on
 * first need; it never leaves the device and is never printed. Kinds separate the domains: a value is
 * {@code HMAC(secret, kind || 0x00 || normalised identifier)}.
 */
public final class IdentifierHasher {
    /** The prefix of every hashed identifier. */
    public static final String PREFIX = "hmac-sha256:";

    /** The secret's file name under {@code keys/}. */
    public static final String SECRET_FILE = Home.IDENTIFIER_SECRET.fileName();

    private static final int SECRET_BYTES = 32;
    private static final Pattern NOT_HEX = Pattern.compile("[^0-9A-Fa-f]");
    private static final Pattern HEX_PAIR = Pattern.compile("(..)(?!$)");

    /** What an identifier is; identifiers of one kind are comparable across proofs. */
    public enum Kind {
        /** A MAC address or BSSID (normalised to lower-case colon form). */
        MAC,
        /** A host name (lower case). */
        HOSTNAME,
        /** A serial number of a machine, camera body or lens. */
        SERIAL,
        /** An operating system's machine id. */
        MACHINE_ID
    }

    private final Path secretFile;
    private byte[] secret;

    /**
     * A hasher whose secret lives in {@code <home>/keys/identifier-secret}.
     *
     * @param home the ProofMode home folder
     */
    public IdentifierHasher(Path home) {
        this.secretFile = Home.IDENTIFIER_SECRET.in(Objects.requireNonNull(home, "home"));
    }

    /**
     * Hashes one identifier, creating the installation secret if there is none yet.
     *
     * @param kind what the identifier is
     * @param identifier the identifier in the clear
     * @return {@code hmac-sha256:} and 64 lower-case hex digits
     * @throws ProofModeException with {@link Failure#IO} if the secret cannot be read or made, or
     *     {@link Failure#BAD_DATA} if the secret file is damaged
     */
    public String hash(Kind kind, String identifier) {
        Objects.requireNonNull(kind, "kind");
        String normal = normalise(kind, Objects.requireNonNull(identifier, "identifier"));
        // Bouncy Castle's HMAC, already loaded for signing: the JCA's provider search costs a cold process ~150 classes
        HMac mac = new HMac(new SHA256Digest());
        mac.init(new KeyParameter(secret()));
        byte[] k = kind.name().getBytes(StandardCharsets.US_ASCII);
        mac.update(k, 0, k.length);
        mac.update((byte) 0);
        byte[] id = normal.getBytes(StandardCharsets.UTF_8);
        mac.update(id, 0, id.length);
        byte[] out = new byte[mac.getMacSize()];
        mac.doFinal(out, 0);
        return PREFIX + Hex.encode(out);
    }

    /** Spells an identifier the one way that makes equal identifiers hash equally. */
    static String normalise(Kind kind, String identifier) {
        String t = identifier.strip();
        return switch (kind) {
            case MAC -> {
                String hex = NOT_HEX.matcher(t).replaceAll("").toLowerCase(Locale.ROOT);
                yield hex.length() == 12 ? HEX_PAIR.matcher(hex).replaceAll("$1:") : t.toLowerCase(Locale.ROOT);
            }
            case HOSTNAME -> t.toLowerCase(Locale.ROOT);
            case SERIAL, MACHINE_ID -> t;
        };
    }

    private synchronized byte[] secret() {
        if (secret == null) {
            secret = loadOrCreate();
        }
        return secret;
    }

    private byte[] loadOrCreate() {
        try {
            if (!Files.exists(secretFile)) {
                // Made once, under the home's lock: racers on a new home use the one that was made.
                HomeLock.run(secretFile.getParent().getParent(), this::createIfMissing);
            }
            byte[] s = Files.readAllBytes(secretFile);
            if (s.length != SECRET_BYTES) {
                throw new ProofModeException(Failure.BAD_DATA, secretFile + ": expected " + SECRET_BYTES
                        + " bytes, found " + s.length + "; move it away to make a new one (hashed identifiers will change)");
            }
            return s;
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, secretFile + ": " + e.getMessage(), e);
        }
    }

    private void createIfMissing() {
        byte[] fresh = new byte[SECRET_BYTES];
        try {
            if (Files.exists(secretFile)) {
                return;
            }
            AtomicFiles.ownerOnlyDirectory(secretFile.getParent());
            new SecureRandom().nextBytes(fresh);
            AtomicFiles.write(secretFile, fresh, false, true);
        } catch (FileAlreadyExistsException e) {
            // Another process without the lock made it first: use theirs.
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, secretFile + ": " + e.getMessage(), e);
        } finally {
            Arrays.fill(fresh, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "IdentifierHasher[" + secretFile + "]";
    }
}
