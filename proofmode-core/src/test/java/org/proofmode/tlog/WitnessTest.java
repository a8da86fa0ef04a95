// SPDX-License-Identifier: Apache-2.0
package org.proofmode.tlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The C2SP tlog-witness add-checkpoint rules, and tlog-cosignature v1 lines. */
class WitnessTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_764_800_000L), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    private SignedNote.Signer log;
    private SignedNote.Signer witnessKey;
    private KeyPair witnessPair;
    private Witness witness;
    private final List<byte[]> leaves = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        KeyPair lp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        log = new SignedNote.Signer(NoteKey.of("desk.example/log", lp.getPublic()), lp.getPrivate());
        witnessPair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        witnessKey = new SignedNote.Signer(NoteKey.cosigner("witness.example/w1", witnessPair.getPublic()), witnessPair.getPrivate());
        witness = new Witness(witnessKey, List.of(log.key()), tmp.resolve("state"), CLOCK);
        for (int i = 0; i < 40; i++) {
            leaves.add(Merkle.leafHash(("entry " + i).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private Merkle.LeafHashes tree() {
        return i -> leaves.get((int) i);
    }

    private String checkpoint(long size, SignedNote.Signer by) {
        return SignedNote.sign(new Checkpoint(by.key().name(), size, Merkle.root(size, tree())).text(), List.of(by));
    }

    private Witness.Answer add(long old, long size) {
        StringBuilder b = new StringBuilder("old " + old + "\n");
        if (old > 0 && old < size) {
            Merkle.consistencyProof(old, size, tree()).forEach(h -> b.append(Base64.getEncoder().encodeToString(h)).append('\n'));
        }
        return witness.addCheckpoint(b.append('\n').append(checkpoint(size, log)).toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void cosignsAConsistentlyGrowingLog_andRemembersItAcrossRestarts() throws Exception {
        Witness.Answer first = add(0, 10);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        String note = checkpoint(10, log);
        SignedNote.Opened opened = SignedNote.open((note + first.body()).getBytes(StandardCharsets.UTF_8), List.of(log.key(), witnessKey.key()));
        assertThat(opened.cosigners()).containsExactly(witnessKey.key());
        assertThat(opened.invalid()).isEmpty();
        assertThat(SignedNote.cosigners(note + first.body(), List.of(witnessKey.key()))).containsExactly(witnessKey.key());
        assertThat(SignedNote.cosigners(note + first.body().replace("\u2014 witness.example/w1 ", "\u2014 witness.example/w1 A"),
                List.of(witnessKey.key()))).isEmpty();
        assertThat(SignedNote.cosigners(note, List.of(witnessKey.key()))).isEmpty();
        assertThat(SignedNote.text(note + first.body())).isEqualTo(new Checkpoint("desk.example/log", 10, Merkle.root(10, tree())).text());

        assertThat(add(10, 25).status()).isEqualTo(200);
        assertThat(add(25, 25).status()).isEqualTo(200);
        witness = new Witness(witnessKey, List.of(log.key()), tmp.resolve("state"), CLOCK);
        assertThat(witness.latest("desk.example/log")).map(Checkpoint::size).contains(25L);
        Witness.Answer stale = add(10, 30);
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.contentType()).isEqualTo("text/x.tlog.size");
        assertThat(stale.body()).isEqualTo("25\n");
        assertThat(add(25, 40).status()).isEqualTo(200);
    }

    @Test
    void refusesWhatTheSpecificationRefuses() throws Exception {
        assertThat(add(0, 20).status()).isEqualTo(200);
        // A fork: another entry 5, signed by the real log key.
        leaves.set(5, Merkle.leafHash("rewritten".getBytes(StandardCharsets.UTF_8)));
        assertThat(add(20, 30).status()).isEqualTo(422);
        assertThat(add(20, 20).status()).isEqualTo(422);
        assertThat(witness.latest("desk.example/log")).map(Checkpoint::size).contains(20L);

        KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        SignedNote.Signer stranger = new SignedNote.Signer(NoteKey.of("other.example/log", other.getPublic()), other.getPrivate());
        SignedNote.Signer impostor = new SignedNote.Signer(NoteKey.of("desk.example/log", other.getPublic()), other.getPrivate());
        assertThat(witness.addCheckpoint(("old 0\n\n" + checkpoint(3, stranger)).getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(404);
        assertThat(witness.addCheckpoint(("old 0\n\n" + checkpoint(3, impostor)).getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(403);
        String forged = checkpoint(3, log).replace("\n3\n", "\n4\n");
        assertThat(witness.addCheckpoint(("old 0\n\n" + forged).getBytes(StandardCharsets.UTF_8)).status()).isIn(400, 403);
        assertThat(add(25, 20).status()).isEqualTo(400);
        for (String bad : List.of("", "old 1", "old 01\n\n" + checkpoint(3, log), "old x\n\n" + checkpoint(3, log),
                "old 20\nnot base64!\n\n" + checkpoint(30, log))) {
            assertThat(witness.addCheckpoint(bad.getBytes(StandardCharsets.UTF_8)).status()).as(bad).isEqualTo(400);
        }
        String empty = SignedNote.sign(new Checkpoint("desk.example/log", 0, new byte[32]).text(), List.of(log));
        Witness fresh = new Witness(witnessKey, List.of(log.key()), tmp.resolve("fresh"), CLOCK);
        assertThat(fresh.addCheckpoint(("old 0\n\n" + empty).getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(422);
        String proofWithZero = "old 0\n" + Base64.getEncoder().encodeToString(new byte[32]) + "\n\n" + checkpoint(3, log);
        assertThat(fresh.addCheckpoint(proofWithZero.getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(422);
    }

    /** The cosignature, checked by OpenSSL over the message as the specification spells it. */
    @Test
    void cosignature_isEd25519OverTheSpecifiedMessage_checkedByOpenssl() throws Exception {
        Witness.Answer a = add(0, 7);
        String line = a.body().strip();
        assertThat(line).startsWith("\u2014 witness.example/w1 ");
        byte[] value = Base64.getDecoder().decode(line.substring(line.lastIndexOf(' ') + 1));
        assertThat(value).hasSize(4 + 8 + 64);
        assertThat(ByteBuffer.wrap(value, 0, 4).getInt()).isEqualTo(witnessKey.key().keyHash());
        assertThat(ByteBuffer.wrap(value, 4, 8).getLong()).isEqualTo(1_764_800_000L);
        String text = new Checkpoint("desk.example/log", 7, Merkle.root(7, tree())).text();
        Path msg = Files.writeString(tmp.resolve("msg"), "cosignature/v1\ntime 1764800000\n" + text);
        Path sig = Files.write(tmp.resolve("sig"), java.util.Arrays.copyOfRange(value, 12, 76));
        Path pub = Files.writeString(tmp.resolve("pub.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getEncoder().encodeToString(witnessPair.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        Process p = new ProcessBuilder("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub.toString(), "-rawin",
                "-in", msg.toString(), "-sigfile", sig.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // The key ID: SHA-256(name || "\n" || 0x04 || key)[:4], and the verifier key carries type 4.
        assertThat(witnessKey.key().verifierKey()).startsWith("witness.example/w1+");
        assertThat(Base64.getDecoder().decode(witnessKey.key().verifierKey().split("\\+", 3)[2])[0]).isEqualTo((byte) 4);
        assertThat(NoteKey.parse(witnessKey.key().verifierKey())).isEqualTo(witnessKey.key());
    }
}
