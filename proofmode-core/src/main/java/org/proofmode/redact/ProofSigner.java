// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;

/** The signer a stored proof names: its record's {@code Proof.Signer}, else the key beside it. */
final class ProofSigner {
    private ProofSigner() {}

    static Optional<String> of(Path folder, String sha256) {
        try {
            if (Files.isRegularFile(folder.resolve(ProofFiles.json(sha256)))) {
                Optional<String> named = ProofJson.readStored(folder, sha256)
                        .get(ProofFields.PROOF_SIGNER).filter(s -> !s.isBlank());
                if (named.isPresent()) {
                    return named;
                }
            }
            Path key = folder.resolve(ProofFiles.PUBKEY);
            if (Files.isRegularFile(key)) {
                List<PGPPublicKeyRing> certs = OpenPgpKeys.readCertificates(Files.readAllBytes(key), key.toString());
                return certs.isEmpty() ? Optional.empty() : Optional.of(OpenPgpKeys.fingerprint(certs.get(0).getPublicKey()));
            }
        } catch (IOException | ProofModeException e) {
            // An unreadable proof names no signer; the record then names none either.
        }
        return Optional.empty();
    }
}
