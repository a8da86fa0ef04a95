// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.List;
import java.util.Optional;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.bundle.ProofSet;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;

/** The signer a stored proof names: its record's {@code Proof.Signer}, else the key beside it. */
final class ProofSigner {
    private ProofSigner() {}

    static Optional<String> of(ProofSet set) {
        String sha256 = set.sha256();
        try {
            Optional<byte[]> json = set.read(ProofFiles.json(sha256));
            if (json.isPresent()) {
                Optional<String> named = ProofJson.read(json.get(), set.folder().resolve(ProofFiles.json(sha256)).toString()).get(0)
                        .get(ProofFields.PROOF_SIGNER).filter(s -> !s.isBlank());
                if (named.isPresent()) {
                    return named;
                }
            }
            Optional<byte[]> key = set.read(ProofFiles.PUBKEY);
            if (key.isPresent()) {
                List<PGPPublicKeyRing> certs = OpenPgpKeys.readCertificates(key.get(), set.folder().resolve(ProofFiles.PUBKEY).toString());
                return certs.isEmpty() ? Optional.empty() : Optional.of(OpenPgpKeys.fingerprint(certs.get(0).getPublicKey()));
            }
        } catch (ProofModeException | IndexOutOfBoundsException e) {
            // An unreadable proof names no signer; the record then names none either.
        }
        return Optional.empty();
    }
}
