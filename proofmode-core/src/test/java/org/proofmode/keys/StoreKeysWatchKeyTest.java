// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/** The watcher's database key: made once, sealed with the passphrase, sealed again when the passphrase changes. */
class StoreKeysWatchKeyTest {
    @TempDir
    Path home;

    @Test
    void watchKey_madeOnceSealedWithThePassphrase_andResealedWithTheIdentity() throws Exception {
        StoreKeys keys = new StoreKeys(home, 10);
        try (Passphrase p = pass("old passphrase")) {
            assertThat(keys.openWatchKey(p)).isEmpty();
            keys.create(p).destroy();
            byte[] made = keys.watchKey(p);
            assertThat(made).hasSize(StoreKeys.WATCH_KEY_BYTES);
            assertThat(Files.readString(keys.watchKeyFile(), StandardCharsets.ISO_8859_1)).startsWith("age-encryption.org/v1\n-> scrypt ");
            assertThat(keys.watchKey(p)).isEqualTo(made);
            assertThatThrownBy(() -> keys.openWatchKey(pass("wrong")))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));

            try (Passphrase fresh = pass("new passphrase")) {
                keys.reseal(p, fresh);
                assertThat(keys.openWatchKey(fresh)).hasValueSatisfying(k -> assertThat(k).isEqualTo(made));
            }
            assertThatThrownBy(() -> keys.openWatchKey(p))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
        }
    }

    private static Passphrase pass(String s) {
        return Passphrase.adopt(s.toCharArray());
    }
}
