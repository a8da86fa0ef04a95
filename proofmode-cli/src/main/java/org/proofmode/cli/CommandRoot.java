// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import org.proofmode.ProofMode;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command line a subcommand in a file of its own runs in ({@link Main}), reached from the subcommand's
 * {@code @Spec}: its context and its home, without a field of its parent command's type.
 */
final class CommandRoot {
    private CommandRoot() {}

    /** The streams, environment and terminal of this run. */
    static CliContext ctx(CommandSpec spec) {
        return main(spec).ctx;
    }

    /** The home this run works on. */
    static ProofMode proofMode(CommandSpec spec) {
        return main(spec).proofMode();
    }

    private static Main main(CommandSpec spec) {
        return (Main) spec.root().userObject();
    }
}
