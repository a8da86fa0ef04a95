// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.cli.agent.AgentClient;
import org.proofmode.cli.agent.AgentServer;
import org.proofmode.cli.agent.UnlockCheck;
import org.proofmode.cli.print.Terminal;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.SigningKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode agent}: keep the device key unlocked and the prover warm for this user's prove commands. */
@Command(name = "agent", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Unlock the device key once and run this user's 'proofmode prove' commands in this process, until stopped.",
            "",
            "Like gpg-agent: while it runs, 'proofmode prove' of the same user and PROOFMODE_HOME hands its work "
                + "to the agent over a socket in PROOFMODE_HOME/agent/ (owner-only; the agent also checks the "
                + "caller's user id). Such commands ask for no passphrase and run in a process whose code is already "
                + "compiled, so they start fast: worth it for scripts that prove one file at a time, large files and "
                + "big batches. Output, exit codes and proofs are the same as without the agent. Set PROOFMODE_AGENT=off "
                + "to run a command by itself anyway. 'prove --c2pa' always runs by itself (it needs another key).",
            "",
            "For an encrypted proof store, the agent also unlocks the store's identity (the same passphrase), so "
                + "'proofmode verify' of a proved file, 'proofmode compare' of a stored proof, 'proofmode export' and "
                + "'proofmode status' (the watcher's sealed details) ask for none while it runs; 'proofmode lock' ends that session.",
            "",
            "The agent stops after --idle without commands, on 'proofmode agent --stop' or 'proofmode lock', Ctrl-C or SIGTERM, and "
                + "as soon as the key file changes (keys rotate, import, protect, wipe): the next command then runs by "
                + "itself. While it runs, any process of your user can sign with the device key, as with gpg-agent; "
                + "see docs/threat-model.md.",
            ""},
        footer = {"", "Examples:", "  proofmode agent &                     start it in the background, for 10 minutes unused",
            "  proofmode agent --idle 2h &", "  proofmode prove IMG_0001.jpg          runs in the agent",
            "  proofmode agent --stop", "", ExitCodes.HELP_TABLE})
final class AgentCommand implements Callable<Integer> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})([smh]?)");

    @ParentCommand
    Main root;

    @Option(names = "--idle", paramLabel = "TIME", defaultValue = "10m",
            description = "Stop after this long without a command: seconds, or a number with s, m or h; 0 never stops (default: ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--stop", description = "Stop the agent of this PROOFMODE_HOME, if one runs.")
    boolean stop;

    @Mixin
    KeyOptions keyOptions;

    @Override
    public Integer call() {
        CliContext ctx = root.ctx;
        ProofMode pm = root.proofMode();
        if (stop) {
            boolean stopped = AgentClient.stop(pm.home());
            ctx.err().println(stopped ? "proofmode: agent stopped" : "proofmode: no agent runs for " + pm.home());
            return ExitCodes.OK;
        }
        Duration unused = parse(idle);
        AgentServer.checkNoneRuns(pm.home());
        if (keyOptions.passphraseFile != null) {
            keyOptions.passphraseFile = ctx.resolve(keyOptions.passphraseFile);
        }
        if (keyOptions.pinFile != null) {
            keyOptions.pinFile = ctx.resolve(keyOptions.pinFile);
        }
        DeviceKeyAccess.createIfMissing(ctx, pm.keys(), keyOptions);
        SigningKey key;
        Optional<StoreIdentity> identity;
        UnlockCheck unlockedWith;
        try (Passphrase p = Passphrases.unlocking(ctx, keyOptions.passphraseFile, keyOptions.pinFile, pm.keys())) {
            key = pm.keys().unlock(p);
            identity = storeIdentity(pm, p);
            unlockedWith = UnlockCheck.unlockedWith(p.chars(), pm.keys().token().isPresent());
        }
        try (AgentServer server = AgentServer.open(pm.home(), pm.keys().keyFile(), unused, runner(key, identity), Optional.of(unlockedWith))) {
            Thread hook = new Thread(server::close, "proofmode-agent-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            ctx.err().println("proofmode: agent ready for " + pm.home() + " with key " + key.info().fingerprint()
                    + (identity.isPresent() ? " and the store's identity" : "")
                    + "; 'proofmode prove' of this user now runs here; it stops "
                    + (unused.isZero() ? "" : "after " + idle + " unused, ") + "on 'proofmode agent --stop', or Ctrl-C");
            ctx.err().flush();
            server.serve();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already
            }
        } finally {
            identity.ifPresent(StoreIdentity::destroy);
        }
        ctx.err().println("proofmode: agent stopped");
        return ExitCodes.OK;
    }

    /**
     * The encrypted store's identity, opened with the device key's passphrase, for a home whose store has
     * one; none for a plain store, a wiped one, or a key in a token (whose PIN does not seal the identity).
     */
    private static Optional<StoreIdentity> storeIdentity(ProofMode pm, Passphrase passphrase) {
        if (pm.keys().token().isPresent() || !pm.store().isEncrypted() || !pm.storeKeys().exists()) {
            return Optional.empty();
        }
        return Optional.of(pm.storeKeys().unlock(passphrase));
    }

    /**
     * Runs the commands sent to the agent here, as this program would, with the key (and the store's
     * identity, if any) held unlocked.
     */
    static AgentServer.Runner runner(SigningKey key, Optional<StoreIdentity> identity) {
        return (args, env, cwd, interactive, out, err) -> Main.execute(args.toArray(String[]::new),
                new CliContext(out, err, env, interactive ? Terminal.WATCHED : Terminal.NONE, cwd, Optional.of(key), identity));
    }

    /** Reads {@code --idle}: seconds, or a number with s, m or h. */
    static Duration parse(String text) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--idle: " + text + " is not a time like 90, 30s, 10m or 2h");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
