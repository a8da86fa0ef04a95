// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.HomeWipe;
import org.proofmode.ProofMode;
import org.proofmode.cli.agent.AgentClient;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import org.proofmode.watch.WatchLock;
import org.proofmode.watch.WatchStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode wipe}: the panic wipe of proofs and/or keys. */
@Command(name = "wipe", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Erase proof data and/or the device key from PROOFMODE_HOME, for when the device may be seized.",
            "",
            "--proofs removes every proof set, the watcher's database and the timestamp and publish queues. --keys "
                + "overwrites every file of the key store (secret key, generated passphrase, identifier secret, public keys) "
                + "and the upload token of 'publish' with random bytes, flushes them, then deletes them. --all does both and removes the whole home "
                + "(settings too). A running watcher is stopped first, and with --keys or --all a running agent.",
            "",
            "Without --yes it asks for confirmation on the terminal; without a terminal it refuses (exit 19). "
                + "Copies elsewhere (exported bundles, backups, the media themselves) are not touched, and a "
                + "file system or disk may keep old blocks: use full-disk encryption for stronger guarantees.",
            ""},
        footer = {"", "Examples:", "  proofmode wipe --keys", "  proofmode wipe --all --yes", "", ExitCodes.HELP_TABLE})
final class WipeCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Option(names = "--proofs", description = "Remove proofs, the watcher's database and the timestamp and publish queues.")
    boolean proofs;

    @Option(names = "--keys", description = "Overwrite and remove the device key store and the upload token.")
    boolean keys;

    @Option(names = "--all", description = "Both, and the whole PROOFMODE_HOME.")
    boolean all;

    @Option(names = "--yes", description = "Do not ask for confirmation.")
    boolean yes;

    @Override
    public Integer call() throws InterruptedException {
        CliContext ctx = root.ctx;
        if (!proofs && !keys && !all) {
            ctx.err().println("proofmode: say what to wipe: --proofs, --keys or --all");
            return ExitCodes.MISSING_ARGUMENT;
        }
        ProofMode pm = root.proofMode();
        Path home = pm.home();
        List<String> what = new ArrayList<>();
        if (proofs || all) {
            what.add("every proof");
        }
        if (keys || all) {
            what.add("the device key");
        }
        String summary = String.join(" and ", what) + " in " + home + (all ? " (the whole folder)" : "");
        if (!yes) {
            if (!ctx.terminal().interactive()) {
                ctx.err().println("proofmode: refusing to erase " + summary + " without confirmation: no terminal to ask on (add --yes)");
                return ExitCodes.MISSING_ARGUMENT;
            }
            Optional<String> answer = ctx.terminal().readLine("Erase " + summary + "? This cannot be undone. Type 'wipe' to confirm: ");
            if (answer.isEmpty() || !answer.get().trim().equals("wipe")) {
                ctx.err().println("proofmode: not confirmed; nothing erased");
                return ExitCodes.MISSING_ARGUMENT;
            }
        }
        stopWatcher(ctx, pm);
        if ((keys || all) && AgentClient.stop(home)) {
            ctx.err().println("proofmode: the agent holding the device key stopped");
        }
        HomeWipe wipe = new HomeWipe(pm);
        if (keys || all) {
            HomeWipe.KeysErased erased = wipe.keys();
            ctx.err().println("proofmode: device key store overwritten and removed");
            if (erased.sealedStore()) {
                ctx.err().println("proofmode: the encrypted store's identity went with it: every proof stored in " + pm.store().root()
                        + " is unreadable from now on, whatever the disk keeps of them");
            }
            erased.token().ifPresent(t -> ctx.err().println("proofmode: the key itself stays in the token \"" + SafeText.escape(t.tokenLabel())
                    + "\" (" + SafeText.escape(t.device()) + "); to delete it there: pkcs11-tool --module " + t.module()
                    + " --token-label " + SafeText.escape(t.tokenLabel()) + " --login --delete-object --type privkey --label " + t.keyId()
                    + " (and the same with --type pubkey and --type cert)"));
            if (erased.uploadToken()) {
                ctx.err().println("proofmode: upload token overwritten and removed (revoke it on the server too: 'proofmode server token revoke')");
            }
        }
        if (proofs || all) {
            int sets = wipe.proofs();
            ctx.err().println("proofmode: removed " + sets + " proof set(s), the watch database and the timestamp and publish queues");
        }
        if (all) {
            wipe.all();
            ctx.err().println("proofmode: removed " + home);
        }
        return ExitCodes.OK;
    }

    /** A watcher would go on writing proofs: ask it to stop (SIGTERM) and wait for its lock. */
    private static void stopWatcher(CliContext ctx, ProofMode pm) throws InterruptedException {
        if (!WatchLock.held(pm.home())) {
            return;
        }
        Optional<Long> pid = WatchStatus.of(pm, 0).pid();
        Optional<ProcessHandle> p = pid.filter(id -> id != ProcessHandle.current().pid()).flatMap(ProcessHandle::of);
        if (p.isEmpty()) {
            throw new ProofModeException(Failure.IO, "a watcher runs on " + pm.home() + " but its process cannot be found; stop it first");
        }
        p.get().destroy();
        for (int i = 0; i < 300 && WatchLock.held(pm.home()); i++) {
            Thread.sleep(100);
        }
        if (WatchLock.held(pm.home())) {
            throw new ProofModeException(Failure.IO, "the watcher (pid " + pid.get() + ") did not stop; nothing erased");
        }
        ctx.err().println("proofmode: stopped the watcher (pid " + pid.get() + ")");
    }
}
