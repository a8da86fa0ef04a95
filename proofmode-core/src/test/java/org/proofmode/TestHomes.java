package org.proofmode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;

/** Helpers shared by core tests. */
public final class TestHomes {
    private TestHomes() {}

    /** The external sample folder, which must exist (tests fail rather than skip without it). */
    public static Path samples() {
        String p = System.getProperty("proofmode.samples");
        if (p == null) {
            throw new IllegalStateException("system property proofmode.samples is not set");
        }
        Path dir = Path.of(p).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("sample folder missing: " + dir);
        }
        return dir;
    }

    /** A passphrase for tests. */
    public static Passphrase passphrase() {
        return Passphrase.adopt("correct horse battery staple".toCharArray());
    }

    /** Creates a home with a device key of the given type and returns it unlocked. */
    public static SigningKey keyIn(ProofMode pm, KeyType type) {
        pm.keys().create(type, Optional.of(passphrase()));
        return pm.keys().unlock(passphrase());
    }
}
