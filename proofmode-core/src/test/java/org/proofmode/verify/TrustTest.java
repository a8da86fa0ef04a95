// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.tlog.NoteKey;

class TrustTest {
    private static final String KEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";

    @TempDir
    Path dir;

    @Test
    void withKeyFiles_throwsInputMissing_forAFileThatIsNotThere() {
        Path missing = dir.resolve("alice.asc");
        assertThatThrownBy(() -> Trust.HOME.withKeyFiles(List.of(missing))).isInstanceOf(ProofModeException.class)
                .hasMessage(missing + ": no such key file")
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.INPUT_MISSING));
    }

    @Test
    void withKeyFiles_throwsBadData_forAFileWithNoCertificate() throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.asc"), "not a key");
        assertThatThrownBy(() -> Trust.HOME.withKeyFiles(List.of(junk))).isInstanceOf(ProofModeException.class)
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.BAD_DATA));
    }

    @Test
    void constructor_throws_forANegativeNumberOfWitnesses() {
        assertThatThrownBy(() -> Trust.HOME.withRequiredWitnesses(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Trust(List.of(), List.of(), List.of(), List.of(), Optional.empty(), AttestationStatus.empty(), -1, BundleLimits.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withers_addToWhatIsTrusted_andLeaveTheOriginalAlone() throws Exception {
        NoteKey key = NoteKey.parse(KEY);
        BundleLimits small = new BundleLimits(10, 1000, 10);
        Trust t = Trust.HOME.withLogKeys(List.of(key)).withLogKeys(List.of(key)).withRequiredWitnesses(2).withLimits(small);
        assertThat(t.logKeys()).containsExactly(key, key);
        assertThat(t.requiredWitnesses()).isEqualTo(2);
        assertThat(t.limits()).isEqualTo(small);
        assertThat(Trust.HOME.logKeys()).isEmpty();
        assertThat(Trust.HOME.limits()).isEqualTo(BundleLimits.DEFAULT);
    }

    @Test
    void logKey_readsTheKey_fromTheValueOrTheFileHoldingIt() throws Exception {
        Path file = Files.writeString(dir.resolve("log.key"), KEY + "\n", StandardCharsets.UTF_8);
        assertThat(Trust.logKey(KEY, dir.resolve(KEY))).isEqualTo(NoteKey.parse(KEY));
        assertThat(Trust.logKey("log.key", file)).isEqualTo(NoteKey.parse(KEY));
    }

    @Test
    void logKey_throwsBadArgument_forAValueThatIsNeitherKeyNorFile() {
        assertThatThrownBy(() -> Trust.logKey("a+b", dir.resolve("a+b"))).isInstanceOf(ProofModeException.class)
                .hasMessageContaining("--log-key a+b: not a verifier key")
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.BAD_ARGUMENT));
    }

    @Test
    void logKeysIn_readsEveryFileOfTheHomesLogKeysFolder_inNameOrder() throws Exception {
        assertThat(Trust.logKeysIn(dir)).isEmpty();
        Files.createDirectories(dir.resolve("log-keys"));
        Files.writeString(dir.resolve("log-keys/b"), KEY);
        Files.writeString(dir.resolve("log-keys/a"), KEY);
        assertThat(Trust.logKeysIn(dir)).containsExactly(NoteKey.parse(KEY), NoteKey.parse(KEY));
        Files.writeString(dir.resolve("log-keys/c"), "no key");
        assertThatThrownBy(() -> Trust.logKeysIn(dir)).isInstanceOf(ProofModeException.class)
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.BAD_DATA));
    }
}
