// SPDX-License-Identifier: Apache-2.0
package org.proofmode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.DeviceKeys;
import org.proofmode.keys.TokenReference;
import org.proofmode.publish.PublishToken;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;

/**
 * The panic wipe of a home ({@code proofmode wipe}): erases the entries of {@link Home} marked for each
 * option. The caller stops whatever would go on writing first (the watcher, the agent).
 *
 * <p>Security: {@link #keys} overwrites each file with random bytes before deleting it; once the key
 * folder is gone, every object sealed to an encrypted store is unreadable whatever the disk keeps.
 * {@link #proofs} only deletes.
 */
public final class HomeWipe {
    /** SQLite's files beside a database, which hold its recent pages. */
    private static final List<String> DATABASE_COMPANIONS = List.of("-wal", "-shm");

    private final ProofMode pm;

    /**
     * A wipe of a home.
     *
     * @param pm the home
     */
    public HomeWipe(ProofMode pm) {
        this.pm = Objects.requireNonNull(pm, "pm");
    }

    /**
     * What {@link #keys} erased.
     *
     * @param sealedStore whether the store was encrypted, so that its proofs are unreadable from now on
     * @param token the PKCS#11 token that holds the key itself, which a wipe cannot reach
     * @param uploadToken whether an upload token was erased
     */
    public record KeysErased(boolean sealedStore, Optional<TokenReference> token, boolean uploadToken) {
        /** Validates the fields. */
        public KeysErased {
            Objects.requireNonNull(token, "token");
        }
    }

    /**
     * Overwrites and removes every entry marked {@link Home.Wipe#KEYS}: the key store (under the home's
     * lock) and the upload token.
     *
     * @return what was erased
     * @throws ProofModeException with {@link Failure#IO} if a file cannot be overwritten or removed
     */
    public KeysErased keys() {
        Optional<TokenReference> inToken = pm.keys().token();
        boolean sealedStore = pm.storeKeys().exists();
        boolean uploadToken = PublishToken.isSet(pm.home());
        pm.keys().wipe();
        for (Home entry : Home.erasedBy(Home.Wipe.KEYS)) {
            shredTree(entry.in(pm.home()));
        }
        return new KeysErased(sealedStore, inToken, uploadToken);
    }

    /**
     * Removes every entry marked {@link Home.Wipe#PROOFS}: the proof sets, the queues, where proved files
     * lie, bundles being sent, the watcher's database.
     *
     * @return the number of proof sets there were
     * @throws ProofModeException with {@link Failure#IO} if something cannot be removed
     */
    public int proofs() {
        int sets = pm.store().isEncrypted() ? pm.store().folderCount() : pm.store().list().size();
        for (Home entry : Home.erasedBy(Home.Wipe.PROOFS)) {
            Path p = entry.in(pm.home());
            delete(p);
            if (!entry.isFolder()) {
                for (String suffix : DATABASE_COMPANIONS) {
                    delete(p.resolveSibling(p.getFileName() + suffix));
                }
            }
        }
        return sets;
    }

    /**
     * Removes the whole home, whatever is in it.
     *
     * @throws ProofModeException with {@link Failure#IO} if something cannot be removed
     */
    public void all() {
        delete(pm.home());
    }

    private static void shredTree(Path p) {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> files = Files.walk(p)) {
                for (Path f : (Iterable<Path>) files.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))::iterator) {
                    DeviceKeys.shred(f);
                }
            } catch (IOException e) {
                throw new ProofModeException(Failure.IO, "cannot wipe " + p + ": " + e.getMessage(), e);
            }
            delete(p);
        } else {
            DeviceKeys.shred(p);
        }
    }

    private static void delete(Path p) {
        try {
            AtomicFiles.deleteTree(p);
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot remove " + p + ": " + e.getMessage(), e);
        }
    }
}
