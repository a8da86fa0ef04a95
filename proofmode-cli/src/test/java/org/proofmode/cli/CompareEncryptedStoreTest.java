// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.verify.CheckCodes;

/**
 * {@code proofmode compare} in a home whose proof store is encrypted ({@code keys create --encrypt-store}):
 * a stored proof named by its hash is read with the store's identity, unlocked with {@code --passphrase-file},
 * and gives the outcome it gives in a plain home; without the passphrase, or with a wrong one, the store is
 * locked (exit 67, the one-line message {@code verify} gives). Two files need no store and no passphrase.
 */
class CompareEncryptedStoreTest {
    private static final String PASSPHRASE = "compare sealed";

    @TempDir
    static Path dir;

    static Path original;
    static Path excerpt;
    static Path copy;
    static String hash;
    static Path pass;
    static Path wrong;
    /** The encrypted home, without PROOFMODE_PASSPHRASE. */
    static Cli sealed;
    /** A plain home with a proof of the same video. */
    static Cli plain;

    @BeforeAll
    static void proveInBothHomes() throws Exception {
        ExternalTool.require("ffprobe");
        // 4 s at 25 fps, a key frame every 10 frames: 100 frames, no sound.
        original = Ffmpeg.make(dir.resolve("original.mp4"), "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=4", "-c:v",
                "libx264", "-g", "10", "-pix_fmt", "yuv420p");
        excerpt = Ffmpeg.make(dir.resolve("excerpt.mkv"), "-ss", "2", "-i", original.toString(), "-t", "1", "-c", "copy");
        copy = Ffmpeg.make(dir.resolve("forwarded.mov"), "-i", original.toString(), "-c", "copy", "-metadata", "title=forwarded");
        pass = Files.writeString(dir.resolve("pass.txt"), PASSPHRASE + "\n");
        wrong = Files.writeString(dir.resolve("wrong.txt"), "not it\n");

        Cli making = new Cli(dir.resolve("sealed-home")).env("PROOFMODE_PASSPHRASE", PASSPHRASE);
        Cli.Result created = making.run("keys", "create", "--encrypt-store");
        assertThat(created.exit()).as(created.err()).isZero();
        Cli.Result proved = making.run("prove", original.toString());
        assertThat(proved.exit()).as(proved.err()).isZero();
        hash = proved.out().strip().split("\\s+")[0];
        sealed = new Cli(dir.resolve("sealed-home")).env("PROOFMODE_PASSPHRASE", null);
        // The proof is sealed: no folder of the store is named by its hash.
        assertThat(dir.resolve("sealed-home/proofs")).isDirectory();
        try (var names = Files.list(dir.resolve("sealed-home/proofs"))) {
            assertThat(names.map(p -> p.getFileName().toString())).doesNotContain(hash);
        }

        plain = new Cli(dir.resolve("plain-home")).env("PROOFMODE_PASSPHRASE", "compare plain");
        Cli.Result plainProved = plain.run("prove", original.toString());
        assertThat(plainProved.exit()).as(plainProved.err()).isZero();
        assertThat(plainProved.out()).startsWith(hash);
    }

    /** The last line: the outcome, with its status. */
    private static String outcome(Cli.Result r) {
        String[] lines = r.out().strip().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void storedProofByHash_sameOutcomeAsPlainHome_withPassphraseFile() {
        Cli.Result inPlain = plain.run("compare", hash, excerpt.toString());
        assertThat(inPlain.exit()).as(inPlain.out() + inPlain.err()).isZero();

        Cli.Result r = sealed.run("compare", "--passphrase-file", pass.toString(), hash, excerpt.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(outcome(r)).isEqualTo(outcome(inPlain)).startsWith("PASS  excerpt");
        // Found from the sealed frame list alone, as in the plain home.
        assertThat(r.out()).contains("A: " + hash + " (proof, TRUSTED").contains(CheckCodes.COMPARE_FRAMES_EXCERPT)
                .containsPattern("are frames 5[0-9] to [0-9]+ of the media of " + hash.substring(0, 8) + "…" + hash.substring(56)
                        + "'s proof \\([0-9.]+ s to [0-9.]+ s, of 100 frames\\)");

        // Both sides stored proofs, the store unlocked once; --json the same as well.
        Cli.Result both = sealed.run("compare", "--json", "--passphrase-file", pass.toString(), hash, hash.toUpperCase(Locale.ROOT));
        assertThat(both.exit()).as(both.out() + both.err()).isZero();
        assertThat(both.out()).contains("\"relation\":\"SAME_BYTES\"").contains("\"exitCode\":0");

        Cli.Result copied = sealed.run("compare", "--passphrase-file", pass.toString(), copy.toString(), hash);
        assertThat(copied.exit()).as(copied.out() + copied.err()).isZero();
        assertThat(outcome(copied)).isEqualTo(outcome(plain.run("compare", copy.toString(), hash))).startsWith("PASS  same content");
    }

    @Test
    void storedProofByHash_keyLocked_withWrongPassphraseFile() {
        Cli.Result r = sealed.run("compare", "--passphrase-file", wrong.toString(), hash, excerpt.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("proofmode: ").hasLineCount(1);
        assertThat(r.err()).isEqualTo(sealed.run("verify", "--passphrase-file", wrong.toString(), original.toString()).err());
    }

    @Test
    void storedProofByHash_keyLocked_withoutPassphrase() {
        Cli.Result r = sealed.run("compare", excerpt.toString(), hash);
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.KEY_LOCKED);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("proofmode: ").contains("PROOFMODE_PASSPHRASE").hasLineCount(1);
        // The message verify gives for the same locked store.
        assertThat(r.err()).isEqualTo(sealed.run("verify", original.toString()).err());
    }

    @Test
    void storedProofByHash_inputMissing_whenNotInTheUnlockedStore() {
        String none = "0".repeat(64);
        Cli.Result r = sealed.run("compare", "--passphrase-file", pass.toString(), none, excerpt.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.INPUT_MISSING);
        assertThat(r.err()).contains("no proof with hash " + none).hasLineCount(1);
    }

    @Test
    void mediaFileAndItsCopy_sameOutcomeAsPlainHome_withOrWithoutPassphrase() {
        String inPlain = outcome(plain.run("compare", original.toString(), copy.toString()));
        assertThat(inPlain).startsWith("PASS  same content");
        // Two files: nothing is read from the store, so nothing is unlocked (nor a passphrase file read).
        Cli.Result without = sealed.run("compare", original.toString(), copy.toString());
        assertThat(without.exit()).as(without.out() + without.err()).isZero();
        assertThat(outcome(without)).isEqualTo(inPlain);
        Cli.Result with = sealed.run("compare", "--passphrase-file", pass.toString(), original.toString(), copy.toString());
        assertThat(with.exit()).as(with.out() + with.err()).isZero();
        assertThat(outcome(with)).isEqualTo(inPlain);
    }
}
