// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.age.StoreIdentity;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.Passphrase;
import org.proofmode.util.AtomicFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code proofmode keys export-identity}: write the encrypted store's age identity. */
@Command(name = "export-identity", mixinStandardHelpOptions = true, description = {"Write the encrypted store's age identity.", "",
    "By default it is written sealed with the device key's passphrase: an age file that 'age -d' opens with that "
        + "passphrase, giving an identity file for 'age -d -i'. With --plain it is written as age-keygen writes it, "
        + "in the clear: anyone who has the file reads every stored proof.", ""},
    footer = {"", "Examples:", "  proofmode keys export-identity -o store-identity.age",
        "  age -d store-identity.age > identity.txt      (asks for the passphrase)",
        "  age -d -i identity.txt PROOFMODE_HOME/proofs/<folder>/0.age", "", ExitCodes.HELP_TABLE})
final class KeysExportIdentityCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The file to write (readable by you only).")
    Path output;

    @Option(names = "--plain", description = "Write the identity in the clear (age-keygen's form).")
    boolean plain;

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--force", description = "Replace FILE if it exists.")
    boolean force;

    @Override
    public Integer call() throws IOException {
        CliContext ctx = CommandRoot.ctx(spec);
        ProofMode pm = CommandRoot.proofMode(spec);
        byte[] content;
        if (plain) {
            try (Passphrase p = StoreAccess.passphrase(ctx, pm.keys(), unlock.passphraseFile)) {
                StoreIdentity id = pm.storeKeys().unlock(p);
                content = id.text(Instant.now());
                id.destroy();
            }
        } else {
            content = pm.storeKeys().sealedIdentity();
        }
        try {
            AtomicFiles.write(ctx.resolve(output), content, force, true);
        } catch (FileAlreadyExistsException e) {
            throw new ProofModeException(Failure.OUTPUT_EXISTS, output + ": exists already (use --force)");
        } finally {
            Arrays.fill(content, (byte) 0);
        }
        if (plain) {
            ctx.err().println("proofmode: WARNING: " + output + " holds the store's identity in the clear: whoever has it reads "
                    + "every stored proof; keep it offline and delete it when done");
        }
        ctx.out().println(output);
        return ExitCodes.OK;
    }
}
