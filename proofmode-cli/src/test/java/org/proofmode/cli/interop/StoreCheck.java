// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.proofmode.ProofMode;
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
}
