// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.proofmode.cli.agent.AgentClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode lock}: end the agent's session, so that reading the encrypted store asks for the passphrase again. */
@Command(name = "lock", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "End the session of this PROOFMODE_HOME's agent: it clears the store's identity it holds, drops the "
                + "unlocked device key and stops. The next command that signs or reads the encrypted store asks for "
                + "the passphrase again. Nothing to lock (no agent runs) is not an error.",
            ""},
        footer = {"", "Examples:", "  proofmode lock", "", ExitCodes.HELP_TABLE})
final class LockCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Override
    public Integer call() {
        Path home = root.ctx.home();
        if (AgentClient.stop(home)) {
            root.ctx.err().println("proofmode: locked: the agent for " + home
                    + " dropped the device key and the store's identity and stopped");
        } else {
            root.ctx.err().println("proofmode: nothing to lock: no agent runs for " + home);
        }
        return ExitCodes.OK;
    }
}
