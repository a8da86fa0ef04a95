// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.SigningKey;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofTimes;
import org.proofmode.prove.Notarization;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode notarize}: the app's "Notarize Only" text. */
@Command(name = "notarize", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Print a one-SMS text that commits to a media file and its proof.",
            "",
            "The text (at most 160 characters) holds the media's SHA-256, the device key fingerprint and "
                + "the proof time. Send it at once over any channel; when the media and its proof arrive "
                + "later, the recipient can match them to it. The file is proved first if needed.",
            ""},
        footer = {"", "Examples:", "  proofmode notarize IMG_0001.jpg", "  proofmode notarize --json IMG_0001.jpg   the text, hash, signer and time as JSON",
            "", ExitCodes.HELP_TABLE})
final class NotarizeCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Mixin
    KeyOptions keyOptions;

    @Option(names = "--json", description = "Print one JSON object: {\"path\", \"sha256\", \"signer\", \"proofTime\", \"text\"}.")
    boolean json;

    @Parameters(paramLabel = "PATH", description = "The media file.")
    Path path;

    @Override
    public Integer call() {
        ProofMode pm = StoreAccess.reading(root.ctx, root.proofMode(), keyOptions.passphraseFile);
        SigningKey key = DeviceKeyAccess.unlockOrCreate(root.ctx, pm, keyOptions);
        ProveResult r = pm.prover(key, pm.store(), ProofMode.defaultSources())
                .prove(path, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
        if (r.outcome() == ProveResult.Outcome.SKIPPED) {
            throw new ProofModeException(Failure.UNSUPPORTED, path + ": " + r.reason().orElse("not media"));
        }
        String h = r.sha256().orElseThrow();
        var record = ProofJson.readStored(pm.store(), r.proofFolder().orElseThrow(), h);
        Instant when = record.get(ProofFields.PROOF_GENERATED).flatMap(ProofTimes::parse).orElseGet(Instant::now);
        String signer = record.get(ProofFields.PROOF_SIGNER).orElse(key.info().fingerprint());
        if (json) {
            JsonOut.println(root.ctx.out(), JsonOut.object().put("path", path.toString()).put("sha256", h).put("signer", signer)
                    .put("proofTime", when.toString()).put("text", Notarization.text(h, signer, when)));
            return ExitCodes.OK;
        }
        root.ctx.out().println(Notarization.text(h, signer, when));
        return ExitCodes.OK;
    }
}
