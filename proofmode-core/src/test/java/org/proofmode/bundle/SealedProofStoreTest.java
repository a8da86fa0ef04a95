// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.age.StoreIdentity;

class SealedProofStoreTest {
    private static final String H = "0b8d8b5f15046343fd32f451df93acc2bdd9e6373be478b968e4cad6b6647351";
    private static final String OTHER = "9648aacd684e20540379b9a79a4d4d2bbc761295ddc2e1f1dac87f1468f2e092";
    private static final StoreIdentity ID = StoreIdentity.generate();

    @TempDir
    Path root;

    private ProofStore unlocked() {
        return ProofStore.encrypted(root, StoreIdentity.sealer(ID.recipient()), Optional.of(ID.opener()));
    }

    private ProofStore locked() {
        return ProofStore.encrypted(root, StoreIdentity.sealer(ID.recipient()), Optional.empty());
    }

    private static Map<String, byte[]> set(String h, String secret) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(h + ".asc", ("signature of " + secret).getBytes(StandardCharsets.UTF_8));
        files.put(h + ".json", ("{\"File Hash SHA256\":\"" + h + "\",\"Location.Latitude\":\"" + secret + "\"}").getBytes(StandardCharsets.UTF_8));
        files.put("pubkey.asc", "key".getBytes(StandardCharsets.UTF_8));
        return files;
    }

    @Test
    void writtenWithoutTheIdentity_readWithIt_sameFiles() {
        ProofStore.Written w = locked().write(H, set(H, "52.5200"), false);

        assertThat(w.existing()).isFalse();
        assertThat(unlocked().list()).containsExactly(H);
        assertThat(unlocked().find(H)).contains(w.folder());
        Map<String, byte[]> back = unlocked().files(H).orElseThrow();
        assertThat(back.keySet()).containsExactly(H + ".asc", H + ".json", "pubkey.asc");
        assertThat(new String(back.get(H + ".json"), StandardCharsets.UTF_8)).contains("52.5200");
    }

    @Test
    void noNameAndNoByteInTheStore_carriesTheHashOrTheContent() throws IOException {
        locked().write(H, set(H, "52.5200"), false);
        unlocked().write(OTHER, set(OTHER, "13.4050"), false);

        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.forEach(all::add);
        }
        assertThat(all).hasSizeGreaterThan(6);
        for (Path p : all) {
            assertThat(p.getFileName().toString()).doesNotContain(H.substring(0, 16)).doesNotContain(OTHER.substring(0, 16))
                    .doesNotContain("json").doesNotContain("pubkey");
            if (p.getFileName().toString().equals(ProofStore.ENCRYPTED_MARKER)) {
                assertThat(p).isEmptyFile();
            } else if (Files.isRegularFile(p)) {
                String raw = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                assertThat(raw).startsWith("age-encryption.org/v1\n-> X25519 ").doesNotContain(H).doesNotContain(OTHER)
                        .doesNotContain("52.5200").doesNotContain("13.4050").doesNotContain("signature");
            }
        }
    }

    @Test
    void locked_writesButFindsNothing_andRefusesToRead() {
        locked().write(H, set(H, "1"), false);

        assertThat(locked().find(H)).isEmpty();
        assertThat(locked().canRead()).isFalse();
        assertThatThrownBy(() -> locked().files(H))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
        assertThatThrownBy(() -> locked().list())
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
    }

    @Test
    void unlocked_keepsAnExistingSet_orReplacesIt_leavingOne() {
        ProofStore store = unlocked();
        Path first = store.write(H, set(H, "first"), false).folder();

        ProofStore.Written kept = store.write(H, set(H, "second"), false);
        assertThat(kept.existing()).isTrue();
        assertThat(kept.folder()).isEqualTo(first);

        Path replaced = unlocked().write(H, set(H, "third"), true).folder();
        assertThat(first).doesNotExist();
        assertThat(new String(unlocked().files(H).orElseThrow().get(H + ".json"), StandardCharsets.UTF_8)).contains("third");
        assertThat(unlocked().find(H)).contains(replaced);
    }

    @Test
    void twoSetsOfOneHash_writtenLocked_theNewestIsRead() {
        locked().write(H, set(H, "older"), false);
        locked().write(H, set(H, "newer"), false);

        assertThat(new String(unlocked().files(H).orElseThrow().get(H + ".json"), StandardCharsets.UTF_8)).contains("newer");
    }

    @Test
    void damagedObject_isItsOwnError_andTheRestOfTheStoreReads() throws IOException {
        Path damaged = locked().write(H, set(H, "a"), false).folder();
        locked().write(OTHER, set(OTHER, "b"), false);
        Path object = damaged.resolve("1.age");
        byte[] b = Files.readAllBytes(object);
        b[b.length - 5] ^= 1;
        Files.write(object, b);

        assertThatThrownBy(() -> unlocked().files(H))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageStartingWith(object + ": damaged age object");
        assertThat(unlocked().files(OTHER)).isPresent();
        assertThat(unlocked().list()).containsExactly(H, OTHER);
    }

    @Test
    void bundle_opensObjectsAsTheVerifierReadsThem() throws IOException {
        locked().write(H, set(H, "x"), false);

        try (Bundle b = unlocked().bundle(H, BundleLimits.DEFAULT).orElseThrow()) {
            assertThat(b.entries()).extracting(BundleEntry::name).containsExactly(H + ".asc", H + ".json", "pubkey.asc");
            assertThat(b.entries().get(2).readSmall(100)).isEqualTo("key".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void growing_aSetWrittenHere_needsNoIdentity_andReadersSeeOneWholeSet() throws IOException {
        ProofStore store = locked();
        Path first = store.write(H, set(H, "52.5200"), false).folder();
        Map<String, byte[]> objectsBefore = objects(first);
        ProofSet s = store.set(first, H);

        assertThat(s.read(H + ".asc")).hasValueSatisfying(b -> assertThat(b).isEqualTo(set(H, "52.5200").get(H + ".asc")));
        assertThat(s.add(H + ".tsr", "token".getBytes(StandardCharsets.UTF_8), false)).isTrue();
        assertThat(s.add(H + ".tsr", "other token".getBytes(StandardCharsets.UTF_8), false)).isFalse();
        assertThat(s.add(H + ".ots", "ots".getBytes(StandardCharsets.UTF_8), false)).isTrue();

        assertThat(first).doesNotExist();
        assertThat(s.folder()).isNotEqualTo(first).exists();
        assertThat(setFolders()).containsExactly(s.folder());
        // The objects already there are kept byte for byte; only the new ones and the index are new.
        Map<String, byte[]> after = objects(s.folder());
        objectsBefore.remove(SealedSets.INDEX);
        objectsBefore.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
        Map<String, byte[]> files = unlocked().files(H).orElseThrow();
        assertThat(files.keySet()).containsExactly(H + ".asc", H + ".json", "pubkey.asc", H + ".tsr", H + ".ots");
        assertThat(new String(files.get(H + ".tsr"), StandardCharsets.UTF_8)).isEqualTo("token");
    }

    @Test
    void growing_aSetWrittenElsewhere_needsTheIdentity_andReplacesAFile() {
        Path folder = locked().write(H, set(H, "a"), false).folder();

        assertThatThrownBy(() -> locked().set(folder, H).add(H + ".tlog", new byte[] {1}, true))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
        assertThat(folder).exists();

        ProofSet s = unlocked().set(H).orElseThrow();
        assertThat(s.add(H + ".tlog", "one".getBytes(StandardCharsets.UTF_8), true)).isTrue();
        assertThat(s.add(H + ".tlog", "two".getBytes(StandardCharsets.UTF_8), true)).isTrue();
        // A handle to the set's old folder follows it to the new one.
        assertThat(unlocked().set(folder, H).read(H + ".tlog")).hasValueSatisfying(b -> assertThat(new String(b, StandardCharsets.UTF_8))
                .isEqualTo("two"));
        assertThat(unlocked().files(H).orElseThrow().keySet()).containsExactly(H + ".asc", H + ".json", "pubkey.asc", H + ".tlog");
    }

    @Test
    void growing_cutShortBeforeTheOldFolderWentAway_readersTakeTheNewest_andTheNextAdditionClearsTheOld() throws IOException {
        ProofStore store = unlocked();
        Path first = store.write(H, set(H, "a"), false).folder();
        Path copy = root.resolve(".saved");
        Files.createDirectories(copy);
        for (Map.Entry<String, byte[]> e : objects(first).entrySet()) {
            Files.write(copy.resolve(e.getKey()), e.getValue());
        }
        ProofSet s = store.set(H).orElseThrow();
        s.add(H + ".tsr", new byte[] {7}, false);
        Files.move(copy, first); // as if the process died after the grown set was in place

        assertThat(setFolders()).hasSize(2);
        assertThat(unlocked().files(H).orElseThrow()).containsKey(H + ".tsr");
        assertThat(unlocked().set(H).orElseThrow().add(H + ".ots", new byte[] {8}, false)).isTrue();
        assertThat(setFolders()).hasSize(1);
        assertThat(unlocked().files(H).orElseThrow()).containsKeys(H + ".tsr", H + ".ots");
    }

    private List<Path> setFolders() throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> SealedSets.isSetName(p.getFileName().toString())).toList();
        }
    }

    private static Map<String, byte[]> objects(Path folder) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (Stream<Path> s = Files.list(folder)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                out.put(p.getFileName().toString(), Files.readAllBytes(p));
            }
        }
        return out;
    }
}
