// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.tlog.Checkpoint;
import org.proofmode.tlog.Merkle;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.SignedNote;
import org.proofmode.tlog.Tiles;

/**
 * Our transparency-log formats read by Go's reference implementation ({@code golang.org/x/mod/sumdb/note}
 * and {@code .../tlog}, Debian's golang-golang-x-mod-dev), through {@code proofmode-testkit/tlog-check}:
 * a signed checkpoint, the tree of its entries, inclusion proofs of every entry and a consistency proof
 * from an older tree. Each kind of damage must make the reference refuse.
 */
class TlogGoInteropTest {
    private static final int SIZE = 37;
    private static final int OLD_SIZE = 20;
    /** A tree with tiles on three levels: 273 subtrees of 256 leaves, and one of 65,536. */
    private static final int LARGE = 70_000;

    @TempDir
    static Path dir;

    private static GoTlogCheck checker;
    private static SignedNote.Signer signer;
    private static List<byte[]> entries;

    @BeforeAll
    static void build() throws Exception {
        checker = GoTlogCheck.build(dir);

        KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        signer = new SignedNote.Signer(NoteKey.of("proofmode.test/log", kp.getPublic()), kp.getPrivate());
        entries = new ArrayList<>();
        for (int i = 0; i < LARGE; i++) {
            entries.add(("{\"v\":1,\"kind\":\"evidence\",\"n\":" + i + "}\n").repeat(1 + i % 3).getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /** The entries' leaf hashes, each computed once. */
    private static Merkle.LeafHashes cached(List<byte[]> es) {
        byte[][] h = new byte[es.size()][];
        return i -> {
            if (h[(int) i] == null) {
                h[(int) i] = Merkle.leafHash(es.get((int) i));
            }
            return h[(int) i];
        };
    }

    /** The checker's input for our log of the first {@link #SIZE} entries, then changed by {@code damage}. */
    private static ProcessResult check(UnaryOperator<ObjectNode> damage) throws Exception {
        return check(SIZE, OLD_SIZE, 1, damage);
    }

    /**
     * The checker's input for our log of the first {@code size} entries: its signed checkpoint, every
     * {@code step}th entry's inclusion proof, a consistency proof from {@code oldSize}, every tile and entry
     * bundle; then changed by {@code damage}.
     */
    private static ProcessResult check(int size, int oldSize, int step, UnaryOperator<ObjectNode> damage) throws Exception {
        List<byte[]> log = entries.subList(0, size);
        Merkle.LeafHashes hashes = cached(log);
        byte[] root = Merkle.root(size, hashes);
        String note = SignedNote.sign(new Checkpoint("proofmode.test/log", size, root).text(), List.of(signer));
        ObjectMapper json = new ObjectMapper();
        ObjectNode in = json.createObjectNode();
        in.put("verifierKey", signer.key().verifierKey());
        in.put("note", note);
        ArrayNode es = in.putArray("entries");
        log.forEach(e -> es.add(b64(e)));
        ArrayNode inclusion = in.putArray("inclusion");
        for (int i = 0; i < size; i += step) {
            ObjectNode p = inclusion.addObject();
            p.put("index", i);
            ArrayNode proof = p.putArray("proof");
            Merkle.inclusionProof(i, size, hashes).forEach(h -> proof.add(b64(h)));
        }
        in.put("oldSize", oldSize);
        in.put("oldRoot", b64(Merkle.root(oldSize, hashes)));
        ArrayNode consistency = in.putArray("consistency");
        Merkle.consistencyProof(oldSize, size, hashes).forEach(h -> consistency.add(b64(h)));
        // The log as it grows: the nodes each append stores, which the tiles below are read from.
        Map<String, byte[]> nodes = new HashMap<>();
        Merkle.Nodes stored = (level, index) -> nodes.get(level + "/" + index);
        ArrayNode appended = in.putArray("stored");
        for (int i = 0; i < size; i++) {
            List<byte[]> add = Merkle.appended(i, hashes.leaf(i), stored);
            ArrayNode a = appended.addArray();
            for (int level = 0; level < add.size(); level++) {
                nodes.put(level + "/" + (i >> level), add.get(level));
                a.add(b64(add.get(level)));
            }
        }
        ObjectNode tiles = in.putObject("tiles");
        ObjectNode bundles = in.putObject("entryBundles");
        for (Tiles.Tile t : Tiles.of(size)) {
            tiles.put(t.path(), b64(Tiles.data(t, stored)));
            if (t.level() == 0) {
                int from = (int) t.index() * Tiles.WIDTH;
                bundles.put(t.entriesPath(), b64(Tiles.entryBundle(log.subList(from, from + t.width()))));
            }
        }
        Path file = Files.createTempFile(dir, "input", ".json");
        json.writeValue(file.toFile(), damage.apply(in));
        return checker.input(file);
    }

    private static String flippedHash(String b64) {
        byte[] h = Base64.getDecoder().decode(b64);
        h[3] ^= 0x10;
        return b64(h);
    }

    @Test
    void referenceAccepts_checkpointTreeAndEveryProof() throws Exception {
        ProcessResult r = check(in -> in);

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).isEqualTo("ok\n");
    }

    @Test
    void referenceAccepts_tilesOfThreeLevels() throws Exception {
        ProcessResult r = check(LARGE, 65_537, 997, in -> in);

        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).isEqualTo("ok\n");
    }

    @Test
    void referenceRefuses_tileChanged() throws Exception {
        ProcessResult r = check(LARGE, 65_537, 9_973, in -> {
            ObjectNode tiles = (ObjectNode) in.get("tiles");
            tiles.put("tile/1/000", flippedHash(tiles.get("tile/1/000").asText()));
            return in;
        });

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL tile tile/1/000 differs");
    }

    @Test
    void referenceRefuses_entryBundleChanged() throws Exception {
        ProcessResult r = check(in -> {
            ObjectNode bundles = (ObjectNode) in.get("entryBundles");
            byte[] b = Base64.getDecoder().decode(bundles.get("tile/entries/000.p/37").asText());
            b[100] ^= 1;
            bundles.put("tile/entries/000.p/37", b64(b));
            return in;
        });

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL entry bundle tile/entries/000.p/37");
    }

    @Test
    void referenceRefuses_storedHashChanged() throws Exception {
        ProcessResult r = check(in -> {
            ArrayNode stored = (ArrayNode) in.get("stored").get(31);
            stored.set(3, flippedHash(stored.get(3).asText()));
            return in;
        });

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL entry 31: stored hash 3 differs");
    }

    @Test
    void referenceRefuses_entryChanged() throws Exception {
        ProcessResult r = check(in -> {
            ((ArrayNode) in.get("entries")).set(5, b64("{\"v\":1,\"kind\":\"evidence\",\"n\":55}\n".getBytes(StandardCharsets.UTF_8)));
            return in;
        });

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).as("the entry no longer hashes to the leaf the log stored").startsWith("FAIL entry 5: stored hash 0 differs");
        ProcessResult rebuilt = check(in -> {
            ((ArrayNode) in.get("entries")).set(5, b64("{\"v\":1,\"kind\":\"evidence\",\"n\":55}\n".getBytes(StandardCharsets.UTF_8)));
            in.remove("stored");
            return in;
        });
        assertThat(rebuilt.exitCode()).as(rebuilt.describe()).isEqualTo(1);
        assertThat(rebuilt.stdout()).as("the tree of the entries is not the one the checkpoint signed").startsWith("FAIL the entries hash to");
    }

    @Test
    void referenceRefuses_checkpointSignedByAnotherKey() throws Exception {
        KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String otherKey = NoteKey.of("proofmode.test/log", other.getPublic()).verifierKey();

        ProcessResult r = check(in -> in.put("verifierKey", otherKey));

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL checkpoint note");
    }

    @Test
    void referenceRefuses_checkpointTextChanged() throws Exception {
        ProcessResult r = check(in -> in.put("note", in.get("note").asText().replaceFirst("\n37\n", "\n36\n")));

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL checkpoint note");
    }

    @Test
    void referenceRefuses_inclusionProofChanged() throws Exception {
        ProcessResult r = check(in -> {
            ArrayNode proof = (ArrayNode) in.get("inclusion").get(11).get("proof");
            proof.set(1, flippedHash(proof.get(1).asText()));
            return in;
        });

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL inclusion of entry 11");
    }

    @Test
    void referenceRefuses_olderTreeRewritten() throws Exception {
        ProcessResult r = check(in -> in.put("oldRoot", flippedHash(in.get("oldRoot").asText())));

        assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("FAIL consistency from 20 to 37");
    }
}
