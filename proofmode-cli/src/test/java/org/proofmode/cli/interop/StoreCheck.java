// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.proofmode.ProofMode;
import org.proofmode.age.AgeObjects;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.keys.Passphrase;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/** Checks a store after a crash: the key still unlocks, and every proof in it is whole, of a known file, and valid. */
final class StoreCheck {
    private StoreCheck() {}

    /**
     * Fails unless each proof folder in the home's store is a complete set, of one of {@code byHash}'s
     * files, and verifies as TRUSTED against it; hidden temporary folders are ignored.
     */
    static void onlyWholeValidProofs(Path home, Map<String, Path> byHash, String when) throws IOException {
        ProofMode pm = ProofMode.at(home);
        try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
            assertThat(pm.keys().unlock(p).info().fingerprint()).as("key unlocks " + when).isNotEmpty();
        }
        Verifier verifier = pm.verifier(List.of());
        for (String h : pm.store().list()) {
            Optional<Path> folder = pm.store().find(h);
            assertThat(folder).as("proof " + h + " listed but not whole " + when).isPresent();
            assertThat(byHash).as("proof of an unknown file " + when).containsKey(h);
            VerificationReport r = verifier.verify(folder.get(), Optional.of(byHash.get(h)));
            assertThat(r.verdict()).as("proof " + h + " " + when + ": " + r.allChecks()).isEqualTo(Verdict.TRUSTED);
        }
        try (Stream<Path> s = Files.list(home.resolve("proofs"))) {
            for (Path entry : (Iterable<Path>) s::iterator) {
                String name = entry.getFileName().toString();
                if (!name.startsWith(".")) {
                    assertThat(pm.store().find(name)).as("folder " + name + " is a whole proof " + when).isPresent();
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // killed before the store was made: nothing to check
        }
    }

    /** Identities unlocked, by the sealed file's bytes: a check after each kill pays scrypt again only if the file changed. */
    private static final Map<String, StoreIdentity> UNLOCKED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The store's identity, unlocked (scrypt, about a second) once per content of its sealed file. */
    static StoreIdentity identity(ProofMode pm, Passphrase p) throws IOException {
        String sealed = java.util.HexFormat.of().formatHex(Files.readAllBytes(pm.storeKeys().identityFile()));
        StoreIdentity cached = UNLOCKED.get(sealed);
        if (cached != null) {
            return cached;
        }
        StoreIdentity id = pm.storeKeys().unlock(p);
        UNLOCKED.put(sealed, id);
        return id;
    }

    /**
     * As {@link #onlyWholeValidProofs} for an encrypted store: the key and the store's identity unlock;
     * every folder a reader sees (not hidden) holds a sealed index and objects that each open whole with the
     * identity; and the newest set of each hash is of one of {@code byHash}'s files and verifies as TRUSTED
     * against it. Hidden temporary folders (a write cut short) are ignored, as readers do.
     *
     * @return the hashes of the sets
     */
    static List<String> onlyWholeValidSealedSets(Path home, Map<String, Path> byHash, String when) throws IOException {
        ProofMode pm = ProofMode.at(home);
        StoreIdentity id;
        try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
            assertThat(pm.keys().unlock(p).info().fingerprint()).as("key unlocks " + when).isNotEmpty();
            id = identity(pm, p);
        }
        ProofMode reading = pm.withStoreIdentity(id);
        assertThat(reading.store().isEncrypted()).as("store encrypted " + when).isTrue();
        RecipientStanzaReader identity = id.opener();
        try (Stream<Path> s = Files.list(home.resolve("proofs"))) {
            for (Path folder : (Iterable<Path>) s::iterator) {
                if (folder.getFileName().toString().startsWith(".")) {
                    continue;
                }
                assertThat(folder.resolve("index.age")).as("sealed set " + folder.getFileName() + " has its index " + when).isRegularFile();
                try (Stream<Path> objects = Files.list(folder)) {
                    for (Path object : (Iterable<Path>) objects::iterator) {
                        try (InputStream in = Files.newInputStream(object)) {
                            assertThat(AgeObjects.open(in, identity, object.toString())).as("object " + object + " opens " + when).isNotNull();
                        }
                    }
                }
            }
        }
        Verifier verifier = pm.verifier(List.of());
        List<String> hashes = reading.store().list();
        for (String h : hashes) {
            assertThat(byHash).as("sealed proof of an unknown file " + when).containsKey(h);
            try (Bundle b = reading.store().bundle(h, BundleLimits.DEFAULT).orElseThrow()) {
                VerificationReport r = verifier.verify(b, Optional.of(byHash.get(h)));
                assertThat(r.verdict()).as("sealed proof " + h + " " + when + ": " + r.allChecks()).isEqualTo(Verdict.TRUSTED);
            }
        }
        return hashes;
    }
}
