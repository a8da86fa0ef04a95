// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code proofmode watch} from the shaded jar in a home whose store is encrypted, over photos whose names
 * say what they show: the watcher's database files (with the write-ahead log and its index) hold no file
 * name, folder name or media hash, while it runs and after; the proofs verify; a restart proves nothing
 * again; {@code status} counts without the passphrase and lists with it or through the agent. And a plain
 * home's database is sealed by {@code keys encrypt-store}, which a running watcher holds off.
 */
class EncryptedWatchIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final List<String> NAMES = List.of("protest-2026-kyiv.jpg", "checkpoint-alpha-7.jpg", "witness-olena-face.jpg");

    @TempDir
    Path dir;

    private final Map<Path, String> hashes = new LinkedHashMap<>();

    @Test
    void watch_keepsNoNameOrHashInItsDatabase_encryptedHome() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = ProofModeJar.at(home);
        ProofModeJar locked = ProofModeJar.withoutPassphrase(home);
        ProcessResult created = jar.run("keys", "create", "--encrypt-store");
        assertThat(created.exitCode()).as(created.describe()).isZero();
        Path folder = photos();

        Path log = dir.resolve("watch-1.log");
        Process watch = Daemon.start(home, log, List.of(), "watch", "--recursive", "--settle-ms", "200", folder.toString());
        awaitLines(log, "proved", NAMES.size());
        assertThat(home.resolve("watch.db-wal")).exists();
        assertNothingNamesMedia(home);

        // Locked: counts and times, no folder, path or hash.
        ProcessResult status = locked.run("status");
        assertThat(status.exitCode()).as(status.describe()).isZero();
        assertThat(status.stdout()).contains("watcher:     running").contains("files:       3 proved, 1 not media, 0 failed")
                .contains("folders:     locked (the store is encrypted").doesNotContain("kyiv").doesNotContain(hashes.values().iterator().next());
        JsonNode json = new ObjectMapper().readTree(locked.run("status", "--json").stdout());
        assertThat(json.path("locked").asBoolean()).isTrue();
        assertThat(json.path("files").path("done").asLong()).isEqualTo(NAMES.size());
        assertThat(json.path("lastProofs")).isEmpty();
        // With the passphrase: the details.
        ProcessResult open = jar.run("status");
        assertThat(open.exitCode()).as(open.describe()).isZero();
        assertThat(open.stdout()).contains("folders:     " + folder);
        for (Map.Entry<Path, String> e : hashes.entrySet()) {
            assertThat(open.stdout()).contains(e.getValue() + "  " + e.getKey());
        }

        watch.destroy();
        assertThat(watch.waitFor(60, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        assertThat(Files.readString(log)).containsPattern(event("stopped"));
        assertNothingNamesMedia(home);
        for (Path photo : hashes.keySet()) {
            ProcessResult verified = jar.run("verify", photo.toString());
            assertThat(verified.exitCode()).as(verified.describe()).isZero();
            assertThat(verified.stdout()).contains("TRUSTED");
        }
        long sets = setFolders(home);
        assertThat(sets).isEqualTo(NAMES.size());

        // A restart finds every unchanged file in its sealed rows: nothing is detected or proved again.
        Path log2 = dir.resolve("watch-2.log");
        Process again = Daemon.start(home, log2, List.of(), "watch", "--recursive", "--settle-ms", "200", folder.toString());
        Daemon.await(log2, " started ");
        assertThat(Files.readString(log2)).contains("known=4");
        Thread.sleep(2000);
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(log2)).doesNotContainPattern(event("detected")).doesNotContainPattern(event("proved"))
                .containsPattern(event("stopped"));
        assertThat(setFolders(home)).isEqualTo(sets);
        assertNothingNamesMedia(home);

        // Through the agent, which holds the store's identity: the details without a passphrase, until 'lock'.
        Path agentLog = dir.resolve("agent.log");
        Process agent = Daemon.start(home, agentLog, List.of(), "agent", "--idle", "5m");
        Daemon.await(agentLog, "agent ready for " + home);
        ProcessResult viaAgent = client(home, "status");
        assertThat(viaAgent.exitCode()).as(viaAgent.describe()).isZero();
        assertThat(viaAgent.stdout()).contains("folders:     " + folder).contains(hashes.values().iterator().next());
        assertThat(client(home, "lock").exitCode()).isZero();
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(client(home, "status").stdout()).contains("folders:     locked");
    }

    @Test
    void encryptStore_sealsThePlainWatchDatabase_afterTheWatcherStops() throws Exception {
        Path home = dir.resolve("home");
        ProofModeJar jar = ProofModeJar.at(home);
        assertThat(jar.run("keys", "create").exitCode()).isZero();
        Path folder = photos();
        Path log = dir.resolve("watch.log");
        Process watch = Daemon.start(home, log, List.of(), "watch", "--recursive", "--settle-ms", "200", folder.toString());
        awaitLines(log, "proved", NAMES.size());

        ProcessResult refused = jar.run("keys", "encrypt-store");
        assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.stderr()).contains("a watcher is running on " + home + ": stop it first");
        assertThat(home.resolve("keys").resolve("store-recipient.txt")).doesNotExist();
        watch.destroy();
        assertThat(watch.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // The search finds what a plain database holds.
        assertThat(found(home, NAMES.get(0))).isTrue();
        assertThat(found(home, hashes.values().iterator().next())).isTrue();

        ProcessResult encrypted = jar.run("keys", "encrypt-store");
        assertThat(encrypted.exitCode()).as(encrypted.describe()).isZero();
        assertNothingNamesMedia(home);
        assertThat(ProofModeJar.withoutPassphrase(home).run("status").stdout()).contains("files:       3 proved")
                .contains("last proofs: locked");
        ProcessResult open = jar.run("status");
        for (Map.Entry<Path, String> e : hashes.entrySet()) {
            assertThat(open.stdout()).contains(e.getValue() + "  " + e.getKey());
        }

        // A new passphrase seals the watch key again: the watcher starts with it and reads its rows.
        Path fresh = Files.writeString(dir.resolve("new-passphrase.txt"), "a new passphrase\n");
        ProcessResult protect = jar.run("keys", "protect", "--new-passphrase-file", fresh.toString());
        assertThat(protect.exitCode()).as(protect.describe()).isZero();
        assertThat(protect.stderr()).contains("the encrypted store's identity and the watcher's key are sealed with the new passphrase too");
        Path log2 = dir.resolve("watch-2.log");
        Process again = Daemon.start(home, log2, List.of(), Map.of("PROOFMODE_PASSPHRASE", "a new passphrase"),
                "watch", "--recursive", "--settle-ms", "200", folder.toString());
        Daemon.await(log2, " started ");
        assertThat(Files.readString(log2)).contains("known=4");
        Thread.sleep(2000);
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(log2)).doesNotContainPattern(event("proved")).containsPattern(event("stopped"));
        assertNothingNamesMedia(home);
    }

    /** Photos named for what they show, in folders named for where, and a note that is not media. */
    private Path photos() throws IOException {
        Path folder = dir.resolve("kyiv-march-2026");
        Path media = folder.resolve("evening-unit");
        for (int i = 0; i < NAMES.size(); i++) {
            Path f = TestMedia.jpeg(media, NAMES.get(i), 7100 + i);
            hashes.put(f, TestMedia.sha256(f));
        }
        Files.writeString(media.resolve("notes-for-editor.txt"), "not media: meet at six\n");
        return folder;
    }

    /**
     * A log line of this event: its time, then the event's word, then its fields or the line's end (an encrypted
     * home's lines may carry no field after the word).
     */
    private static String event(String word) {
        return "(?m)^\\S+ " + word + "( |$)";
    }

    private static void awaitLines(Path log, String word, int n) throws Exception {
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(event(word));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            if (Files.exists(log) && line.matcher(Files.readString(log)).results().count() >= n) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not " + n + " '" + word + "' lines in the log:\n" + Files.readString(log));
    }

    private static long setFolders(Path home) throws IOException {
        try (Stream<Path> s = Files.list(home.resolve("proofs"))) {
            return s.filter(p -> p.getFileName().toString().matches("[0-9a-f]{32}")).count();
        }
    }

    /** No file name, name without extension, folder name, path or media hash in any of the database's files. */
    private void assertNothingNamesMedia(Path home) throws IOException {
        List<String> needles = new ArrayList<>(List.of("notes-for-editor", "kyiv-march-2026", "evening-unit", dir.getFileName().toString()));
        for (Map.Entry<Path, String> e : hashes.entrySet()) {
            String name = e.getKey().getFileName().toString();
            needles.addAll(List.of(name, name.substring(0, name.lastIndexOf('.')), e.getKey().toString(), e.getValue(),
                    e.getValue().toUpperCase(Locale.ROOT)));
        }
        assertThat(home.resolve("watch.db")).exists();
        for (String n : needles) {
            assertThat(found(home, n)).as("'%s' in the watch database's files", n).isFalse();
        }
    }

    private static boolean found(Path home, String needle) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String suffix : List.of("", "-wal", "-shm")) {
            Path f = home.resolve("watch.db" + suffix);
            if (Files.exists(f)) {
                all.write(Files.readAllBytes(f));
                all.write(0);
            }
        }
        // Byte for byte: ISO-8859-1 maps each byte to one char.
        return all.toString(StandardCharsets.ISO_8859_1).contains(new String(needle.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }

    /** {@code proofmode ARGS} without a passphrase. */
    private ProcessResult client(Path home, String... args) {
        return ExternalTool.run(Daemon.command(List.of(), args), Map.of("PROOFMODE_HOME", home.toString()), TIMEOUT, dir);
    }
}
