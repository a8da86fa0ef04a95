// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.cli.agent.AgentInfo;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.publish.PublishQueue;
import org.proofmode.publish.PublishToken;
import org.proofmode.publish.QueuedPublish;
import org.proofmode.util.Home;
import org.proofmode.util.SafeText;
import org.proofmode.watch.FileState;
import org.proofmode.watch.ProofEntry;
import org.proofmode.watch.TrackedFile;
import org.proofmode.watch.WatchStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode status}: what the watcher watches, its queue, its last proofs and its problems. */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Show the state of the folder watcher of this PROOFMODE_HOME: whether it runs, which folders it "
                + "watches, how many files wait to be proved, its last proofs, the files it could not prove, and how "
                + "many timestamp requests and items to publish are queued. Read from PROOFMODE_HOME/watch.db; safe while it runs.",
            "",
            "With an encrypted proof store the watcher's database is sealed: the folders, last proofs and errors name "
                + "media, so they are shown only with the store's identity: held by a running agent ('proofmode agent'), "
                + "or unlocked with the passphrase from --passphrase-file or PROOFMODE_PASSPHRASE. Otherwise status never asks: "
                + "it shows the counts, queues and times, and says the details are locked.",
            "",
            "It also lists this home's agent, if one runs ('proofmode agent', started by the launcher on first use): its pid, "
                + "since when, its resident memory and its idle timeout; 'proofmode lock' ends it. Last, what the home holds: "
                + "its files and folders by kind (secret, sealed, public, config, data, cache, runtime; in --json each with "
                + "the wipe option that erases it).",
            ""},
        footer = {"", "Examples:", "  proofmode status", "  proofmode status --json --last 50", "", ExitCodes.HELP_TABLE})
final class StatusCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--last", paramLabel = "N", defaultValue = "10", description = "How many recent proofs and problems to list (default: ${DEFAULT-VALUE}).")
    int last;

    @Mixin
    UnlockOptions unlock;

    @Override
    public Integer call() {
        if (last < 0) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--last must be at least 0");
        }
        ProofMode pm = root.proofMode();
        WatchStatus s = watchStatus(pm);
        PublishQueue queue = pm.publishQueue();
        // Sealed items (an encrypted store) are counted unopened; when they are due is told once unlocked.
        List<QueuedPublish> publish = queue.canRead() ? queue.list() : List.of();
        int queued = queue.canRead() ? publish.size() : queue.count();
        Optional<AgentInfo> agent = AgentInfo.running(pm.home());
        List<Home> home = Home.presentIn(pm.home());
        if (json) {
            root.ctx.out().println(json(s, queued, agent, home));
        } else {
            text(s, root.ctx.out());
            new Lines(root.ctx.out()).println(agentLine(agent));
            Lines out = new Lines(root.ctx.out());
            out.println("publish:     " + queued + " item(s) queued"
                    + publish.stream().map(QueuedPublish::nextTry).min(Instant::compareTo).map(t -> ", next try after " + t
                            + " ('proofmode publish sync')").orElse(""));
            // told from the files alone: a sealed token is never opened here
            out.println("upload token: " + (!PublishToken.isSet(pm.home()) ? "none ('proofmode publish login URL')"
                    : PublishToken.isSealed(pm.home()) ? "set, sealed to the encrypted store" : "set, owner-only file"));
            out.println("home:        " + pm.home() + ": " + homeLine(home));
        }
        return ExitCodes.OK;
    }

    /**
     * The watcher's status; for an encrypted store, read with the identity the agent holds, or one unlocked
     * with a passphrase given (never asked for: without either, the details that name media stay locked).
     */
    private WatchStatus watchStatus(ProofMode pm) {
        CliContext ctx = root.ctx;
        if (!pm.store().isEncrypted() || !pm.storeKeys().exists()) {
            return WatchStatus.of(pm, last);
        }
        Optional<StoreIdentity> held = ctx.heldStoreIdentity().filter(i -> i.recipient().equals(pm.storeKeys().recipient()));
        if (held.isPresent()) {
            return WatchStatus.of(pm, last, held);
        }
        Optional<Passphrase> given = Passphrases.given(ctx, unlock.passphraseFile == null ? null : ctx.resolve(unlock.passphraseFile));
        if (given.isEmpty()) {
            return WatchStatus.of(pm, last);
        }
        StoreIdentity id;
        try (Passphrase p = given.get()) {
            id = pm.storeKeys().unlock(p);
        }
        try {
            return WatchStatus.of(pm, last, Optional.of(id));
        } finally {
            id.destroy();
        }
    }

    /** The agent that holds this home's key unlocked, if one runs: for people. */
    static String agentLine(Optional<AgentInfo> agent) {
        if (agent.isEmpty()) {
            return "agent:       not running";
        }
        AgentInfo a = agent.get();
        OptionalLong rss = a.residentBytes();
        return "agent:       running (pid " + a.pid() + ", since " + a.since()
                + (rss.isPresent() ? String.format(Locale.ROOT, ", %.0f MiB resident", rss.getAsLong() / (double) (1 << 20)) : "")
                + (a.idle().isZero() ? ", no idle timeout" : ", stops after " + human(a.idle()) + " unused")
                + "): it keeps the key unlocked; 'proofmode lock' ends it";
    }

    private static String human(Duration d) {
        long sec = d.toSeconds();
        return sec % 3600 == 0 ? sec / 3600 + " h" : sec % 60 == 0 ? sec / 60 + " min" : sec + " s";
    }

    /** What the home holds, by kind, as {@code util.Home} classifies its files and folders. */
    static String homeLine(List<Home> present) {
        Map<Home.Kind, Long> kinds = present.stream().collect(Collectors.groupingBy(Home::kind, () -> new EnumMap<>(Home.Kind.class),
                Collectors.counting()));
        return present.size() + " of its " + Home.values().length + " files and folders (" + kinds.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey().word()).collect(Collectors.joining(", "))
                + "; 'proofmode wipe --help' says which option erases which)";
    }

    private static String json(WatchStatus s, int publishes, Optional<AgentInfo> agent, List<Home> home) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode n = m.createObjectNode();
        ArrayNode entries = n.putArray("home");
        home.forEach(e -> entries.addObject().put("path", e.path()).put("kind", e.kind().word())
                .put("erasedBy", e.wipe().option()));
        ObjectNode a = n.putObject("agent");
        a.put("running", agent.isPresent());
        agent.ifPresent(i -> {
            a.put("pid", i.pid()).put("since", i.since().toString()).put("idleTimeoutSeconds", i.idle().toSeconds());
            i.residentBytes().ifPresent(b -> a.put("residentBytes", b));
        });
        n.put("running", s.running());
        s.pid().ifPresent(p -> n.put("pid", p));
        s.startedAt().ifPresent(t -> n.put("startedAt", t.toString()));
        s.heartbeat().ifPresent(t -> n.put("heartbeat", t.toString()));
        ArrayNode folders = n.putArray("folders");
        s.folders().forEach(folders::add);
        n.put("queueLength", s.queueLength());
        ObjectNode counts = n.putObject("files");
        for (FileState st : FileState.values()) {
            counts.put(st.name().toLowerCase(Locale.ROOT), s.counts().getOrDefault(st, 0L));
        }
        n.put("pendingTimestamps", s.pendingTimestamps());
        n.put("pendingPublishes", publishes);
        s.freeBytes().ifPresent(b -> n.put("homeFreeBytes", b));
        n.put("diskFull", s.diskFull());
        n.put("locked", s.locked());
        ArrayNode proofs = n.putArray("lastProofs");
        for (ProofEntry p : s.lastProofs()) {
            proofs.addObject().put("sha256", p.sha256()).put("path", p.path()).put("detectedAt", p.detectedAt().toString())
                    .put("provedAt", p.provedAt().toString()).put("latencyMs", p.latencyMillis());
        }
        ArrayNode errors = n.putArray("errors");
        for (TrackedFile f : s.problems()) {
            errors.addObject().put("path", f.path()).put("state", f.state().name().toLowerCase(Locale.ROOT))
                    .put("attempts", f.attempts()).put("error", f.lastError().orElse(""));
        }
        try {
            return m.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Prints the status for people; paths and error messages are escaped, so each stays on its line. */
    static void text(WatchStatus s, PrintWriter raw) {
        Lines out = new Lines(raw);
        if (s.running()) {
            out.println("watcher:     running" + s.pid().map(p -> " (pid " + p + ")").orElse("")
                    + s.startedAt().map(t -> ", since " + t).orElse("")
                    + s.heartbeat().map(t -> ", last heartbeat " + ago(t)).orElse(""));
        } else {
            out.println("watcher:     not running" + (s.startedAt().isPresent() ? " (last started " + s.startedAt().get() + ")"
                    : " (never started on this home)"));
        }
        out.println("folders:     " + (s.locked() ? LOCKED : s.folders().isEmpty() ? "-" : String.join(", ", s.folders())));
        out.println("queue:       " + s.queueLength() + " file(s) waiting to be proved");
        out.println("files:       " + s.counts().getOrDefault(FileState.DONE, 0L) + " proved, "
                + s.counts().getOrDefault(FileState.SKIPPED, 0L) + " not media, "
                + s.counts().getOrDefault(FileState.FAILED, 0L) + " failed");
        out.println("timestamps:  " + s.pendingTimestamps() + " request(s) queued");
        s.freeBytes().ifPresent(b -> out.println("disk:        " + (s.diskFull()
                ? "FULL (" + b + " bytes free where PROOFMODE_HOME is): no proof can be stored, and this status may be "
                        + "out of date, until space is freed"
                : String.format(Locale.ROOT, "%.1f GiB free where PROOFMODE_HOME is", b / (double) (1L << 30)))));
        out.println("last proofs:" + (s.locked() ? " " + LOCKED : s.lastProofs().isEmpty() ? " -" : ""));
        for (ProofEntry p : s.lastProofs()) {
            out.println("  " + p.provedAt() + "  " + p.sha256() + "  " + p.path() + "  (" + p.latencyMillis() + " ms after detection)");
        }
        out.println("errors:" + (s.locked() ? "      " + LOCKED : s.problems().isEmpty() ? "      -" : ""));
        for (TrackedFile f : s.problems()) {
            out.println("  " + f.path() + ": " + f.lastError().orElse("") + " (" + f.attempts() + " attempt(s)"
                    + (f.state() == FileState.FAILED ? ", gave up" : ", will retry") + ")");
        }
    }

    /** What stands for details a locked status leaves out. */
    static final String LOCKED = "locked (the store is encrypted: run 'proofmode agent', or give the passphrase, to see them)";

    /** Prints lines escaped with {@link SafeText}. */
    private record Lines(PrintWriter out) {
        void println(String line) {
            out.println(SafeText.escape(line));
        }
    }

    private static String ago(Instant t) {
        return Math.max(0, Duration.between(t, Instant.now()).toSeconds()) + " s ago";
    }
}
