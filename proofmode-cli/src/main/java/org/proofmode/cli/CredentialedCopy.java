// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.c2pa.AssetFormat;
import org.proofmode.c2pa.C2paReader;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.context.Settings;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyInfo;
import org.proofmode.proof.ProofRecord;

/** The capture context recorded in content credentials, and the copies {@code prove --c2pa} makes. */
final class CredentialedCopy {
    /**
     * What {@link #make} did.
     *
     * @param files what to prove: the credentialed copies, and the files that could not carry credentials
     * @param exit the first error's exit code, or OK
     */
    record Outcome(List<Path> files, int exit) {}

    private CredentialedCopy() {}

    /** {@code IMG.jpg} → {@code IMG.c2pa.jpg} beside it. */
    static Path copyOf(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String copy = dot > 0 ? name.substring(0, dot) + ".c2pa" + name.substring(dot) : name + ".c2pa";
        return file.resolveSibling(copy);
    }

    /**
     * Writes a credentialed copy of each JPEG, PNG, WAV, AVI and WebP; other files, and files that already carry
     * credentials, are proved as they are (with a notice).
     */
    static Outcome make(CliContext ctx, ProofMode pm, Settings s, ContextOptions context, KeyOptions keys,
            Optional<URI> tsa, boolean force, List<Path> files) {
        Map.Entry<KeyInfo, C2paSigner> unlocked = C2paAccess.unlock(ctx, pm, keys, null, null);
        Optional<TimeStamper> stamper = tsa.map(pm::c2paTimeStamper);
        List<Path> out = new ArrayList<>();
        int exit = ExitCodes.OK;
        for (Path f : files) {
            try {
                byte[] bytes = ContentCredentials.read(f);
                Optional<AssetFormat> format = AssetFormat.sniff(Arrays.copyOf(bytes, Math.min(16, bytes.length)));
                if (format.isEmpty() || !format.get().writable()) {
                    ctx.err().println("proofmode: " + f + ": not a format content credentials are written into (" + AssetFormat.writableNames()
                            + "); proved without content credentials");
                    out.add(f);
                    continue;
                }
                if (new C2paReader(List.of(), List.of()).read(bytes).isPresent()) {
                    ctx.err().println("proofmode: " + f + ": already has content credentials; proved as it is");
                    out.add(f);
                    continue;
                }
                Path copy = copyOf(f);
                ProofRecord record = pm.inspect(f, s, context.manualLocation());
                ContentCredentials.write(bytes, copy, force, ContentCredentials.capture(f.getFileName().toString(),
                        record.fields(), unlocked.getKey().fingerprint(), bytes), unlocked.getValue(), stamper);
                ctx.err().println("proofmode: content credentials: " + copy);
                out.add(copy);
            } catch (ProofModeException e) {
                ctx.err().println("proofmode: " + e.getMessage());
                exit = exit == ExitCodes.OK ? ExitCodes.of(e.failure()) : exit;
            }
        }
        return new Outcome(out, exit);
    }
}
