// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.nio.file.Path;
import java.util.List;
import org.proofmode.verify.Trust;

/** The trust options {@code verify} and {@code report} share, as the {@link Trust} their verifier is made with. */
final class TrustArguments {
    private TrustArguments() {}

    /**
     * What {@code --trust}, {@code --tsa-trust}, {@code --c2pa-trust} and {@code --log-key} add to the home's
     * own trust: the files are opened against the caller's folder and read.
     *
     * @throws org.proofmode.failure.ProofModeException as the {@code Trust} readers throw
     */
    static Trust trust(CliContext ctx, ShownPaths shown, List<Path> keys, List<Path> tsaRoots, List<Path> c2paAnchors,
            List<String> logKeys) {
        return Trust.HOME.withKeyFiles(keys.stream().map(shown::open).toList())
                .withTsaRootFiles(tsaRoots.stream().map(shown::open).toList())
                .withC2paAnchorFiles(c2paAnchors.stream().map(shown::open).toList())
                .withLogKeys(logKeys.stream().map(k -> Trust.logKey(k, ctx.resolve(Path.of(k)))).toList());
    }

    /**
     * {@code trust} with what {@code --integrity-roots} and {@code --attestation-status} name (either may be null:
     * not given), the files opened against the caller's folder.
     *
     * @throws org.proofmode.failure.ProofModeException as the {@code Trust} readers throw
     */
    static Trust withIntegrity(Trust trust, ShownPaths shown, Path roots, Path status) {
        Trust t = roots == null ? trust : trust.withIntegrityRootsFile(shown.open(roots));
        return status == null ? t : t.withAttestationStatusFile(shown.open(status));
    }
}
