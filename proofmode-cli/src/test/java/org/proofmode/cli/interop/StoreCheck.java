// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.proofmode.ProofMode;
import org.proofmode.age.AgeObjects;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.Bundle;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.keys.Passphrase;
import org.proofmode.media.Digests;
import org.proofmode.verify.Trust;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Checks a store after a crash: the key still unlocks, and every proof in it is whole, of a known file, and valid.
 *
 * <p>A crash test checks its store after every kill, and most of what it finds was there, unchanged, at the
 * check before. Each expensive, deterministic check is therefore remembered by a digest of the exact bytes it
 * read ({@link #PASSED}): the key files a passphrase unlocked, a sealed object that opened, and a set that
 * verified TRUSTED together with its media file and everything in the home outside the store (the keys and
 * trusted roots the verifier reads). Bytes that passed once cannot fail now, so only what changed in any
 * byte, or is new, is checked again; what is checked, and what must hold, is the same.
 */
final class StoreCheck {
    private StoreCheck() {}

    /** Digests (see {@link #digest}) of the inputs of checks that passed: key unlocks, sealed objects opened, sets TRUSTED. */
    private static final Set<String> PASSED = ConcurrentHashMap.newKeySet();

    /**
     * Fails unless each proof folder in the home's store is a complete set, of one of {@code byHash}'s
     * files, and verifies as TRUSTED against it; hidden temporary folders are ignored.
     */
    static void onlyWholeValidProofs(Path home, Map<String, Path> byHash, String when) throws IOException {
        ProofMode pm = ProofMode.at(home);
        keyUnlocks(pm, when);
        Verifier verifier = pm.verifier(Trust.HOME);
        String outside = outsideStore(home);
        for (String h : pm.store().list()) {
            Optional<Path> folder = pm.store().find(h);
            assertThat(folder).as("proof " + h + " listed but not whole " + when).isPresent();
            assertThat(byHash).as("proof of an unknown file " + when).containsKey(h);
            String verified = setDigest(outside, h, byHash.get(h), folder.get());
            if (!PASSED.contains(verified)) {
                VerificationReport r = verifier.verify(folder.get(), Optional.of(byHash.get(h)));
                assertThat(r.verdict()).as("proof " + h + " " + when + ": " + r.allChecks()).isEqualTo(Verdict.TRUSTED);
                PASSED.add(verified);
            }
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
        keyUnlocks(pm, when);
        StoreIdentity id;
        try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
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
                        byte[] sealed = Files.readAllBytes(object);
                        String opened = digest("opens", id.recipient(), sealed);
                        if (!PASSED.contains(opened)) {
                            assertThat(AgeObjects.open(new ByteArrayInputStream(sealed), identity, object.toString()))
                                    .as("object " + object + " opens " + when).isNotNull();
                            PASSED.add(opened);
                        }
                    }
                }
            }
        }
        Verifier verifier = pm.verifier(Trust.HOME);
        String outside = outsideStore(home);
        List<String> hashes = reading.store().list();
        for (String h : hashes) {
            assertThat(byHash).as("sealed proof of an unknown file " + when).containsKey(h);
            // The newest set of the hash, the one bundle() reads.
            String verified = setDigest(outside, h, byHash.get(h), reading.store().find(h).orElseThrow());
            if (PASSED.contains(verified)) {
                continue;
            }
            try (Bundle b = reading.store().bundle(h, BundleLimits.DEFAULT).orElseThrow()) {
                VerificationReport r = verifier.verify(b, Optional.of(byHash.get(h)));
                assertThat(r.verdict()).as("sealed proof " + h + " " + when + ": " + r.allChecks()).isEqualTo(Verdict.TRUSTED);
            }
            PASSED.add(verified);
        }
        return hashes;
    }

    /** Fails unless the device key unlocks with the tests' passphrase (checked once per content of the keys folder). */
    private static void keyUnlocks(ProofMode pm, String when) throws IOException {
        Path keys = pm.home().resolve("keys");
        String unlocked = digest("unlocks", ProofModeJar.PASSPHRASE, tree(keys, null).getBytes(StandardCharsets.US_ASCII));
        if (PASSED.contains(unlocked)) {
            return;
        }
        try (Passphrase p = Passphrase.adopt(ProofModeJar.PASSPHRASE.toCharArray())) {
            assertThat(pm.keys().unlock(p).info().fingerprint()).as("key unlocks " + when).isNotEmpty();
        }
        PASSED.add(unlocked);
    }

    /** The digest of everything in the home but its store: the keys, trusted roots and settings a verifier reads. */
    private static String outsideStore(Path home) throws IOException {
        return tree(home, home.resolve("proofs"));
    }

    /**
     * The digest of what verifying a set reads: the home outside the store, the hash, the set's folder and
     * its files, and the media file.
     */
    private static String setDigest(String outside, String h, Path media, Path folder) throws IOException {
        return digest("trusted", String.join(" ", outside, h, folder.toString(), tree(folder, null)), Files.readAllBytes(media));
    }

    /**
     * SHA-256, as hex, of the names and contents of every regular file under {@code dir} (none if it is
     * missing), in sorted order, leaving out {@code skip} and what is under it.
     */
    private static String tree(Path dir, Path skip) throws IOException {
        MessageDigest md = Digests.newSha256();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) s.filter(f -> skip == null || !f.startsWith(skip)).sorted()::iterator) {
                    if (Files.isRegularFile(f)) {
                        update(md, dir.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                        update(md, Files.readAllBytes(f));
                    }
                }
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** SHA-256, as hex, of a kind of check, a text and bytes, each length-prefixed so that no two inputs run together. */
    private static String digest(String kind, String text, byte[] bytes) {
        MessageDigest md = Digests.newSha256();
        update(md, kind.getBytes(StandardCharsets.UTF_8));
        update(md, text.getBytes(StandardCharsets.UTF_8));
        update(md, bytes);
        return HexFormat.of().formatHex(md.digest());
    }

    private static void update(MessageDigest md, byte[] bytes) {
        md.update(ByteBuffer.allocate(Long.BYTES).putLong(bytes.length).array());
        md.update(bytes);
    }
}
