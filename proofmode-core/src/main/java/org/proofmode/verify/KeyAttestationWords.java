// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.verify.KeyDescription.BootState;
import org.proofmode.verify.KeyDescription.RootOfTrust;
import org.proofmode.verify.KeyDescription.SecurityLevel;

/**
 * What a genuine key attestation says, in plain words that claim no more than it does: where the key was
 * made, the boot state (as the hardware, or only the software, reports it), and which app asked.
 */
final class KeyAttestationWords {
    private KeyAttestationWords() {
    }

    /** The passing check and its warnings, for an attestation whose chain and challenge hold. */
    static List<Check> results(String name, KeyDescription kd, Instant at, List<DeviceIntegrityChecks.AcceptedApp> apps) {
        List<Check> out = new ArrayList<>();
        boolean hardware = kd.attestationSecurityLevel() != SecurityLevel.SOFTWARE;
        Optional<RootOfTrust> root = kd.rootOfTrust();
        boolean booted = root.isPresent() && root.get().deviceLocked() && root.get().state() == BootState.VERIFIED;
        Optional<DeviceIntegrityChecks.AcceptedApp> known = apps.stream().filter(a -> kd.packages().contains(a.packageName())
                && kd.signatureDigests().contains(a.signingCertSha256())).findFirst();
        String where = hardware
                ? "A key was made inside the phone's " + kd.attestationSecurityLevel().words() + " for this media"
                : "A key was made for this media by Android's software key store, not inside secure hardware";
        String device = root.isEmpty() ? "the attestation states no boot state"
                : (hardware && kd.rootOfTrustHardware() ? "" : "as the phone's software reports it, ") + "on a device "
                        + (booted ? "with a locked bootloader and verified boot" : boot(root.get()));
        String app = known.isPresent() ? "at the request of the ProofMode app (" + known.get().packageName() + ", signed with its publisher's key)"
                : kd.packages().isEmpty() ? "by an app the attestation does not name"
                : "at the request of an app named " + String.join(", ", kd.packages()) + " (signed with a key the verifier does not accept)";
        out.add(new Check(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, Status.PASS, name, where + ", " + device + ", " + app
                + " (Android key attestation, " + kd.attestationSecurityLevel().words() + ", version " + kd.attestationVersion()
                + "; chain to a trusted attestation root, judged at " + at + ", when its newest certificate became valid). It does not show that this key signed the proof"
                + " or when the media was captured."));
        if (!hardware) {
            out.add(new Check(CheckCodes.INTEGRITY_KEY_ATTESTATION_SOFTWARE, Status.WARN, name, "the attestation was made by Android's"
                    + " software key store: no secure hardware vouches for the key or for the device's state"));
        }
        if (!booted) {
            out.add(new Check(CheckCodes.INTEGRITY_KEY_ATTESTATION_BOOT_UNVERIFIED, Status.WARN, name, root.isEmpty()
                    ? "the attestation states no boot state" : "the attestation reports a device " + boot(root.get())
                    + ": its operating system may have been changed, and what it recorded deserves less weight"));
        }
        if (known.isEmpty()) {
            out.add(new Check(CheckCodes.INTEGRITY_KEY_ATTESTATION_APP_UNKNOWN, Status.WARN, name, "the attested app is "
                    + (kd.packages().isEmpty() ? "not named" : String.join(", ", kd.packages())) + " with signing certificates "
                    + (kd.signatureDigests().isEmpty() ? "none" : String.join(", ", kd.signatureDigests())) + ": not one the verifier accepts"));
        }
        return out;
    }

    private static String boot(RootOfTrust r) {
        String lock = r.deviceLocked() ? "a locked bootloader" : "an unlocked bootloader";
        String state = switch (r.state()) {
            case VERIFIED -> "verified boot";
            case SELF_SIGNED -> "an operating system signed by its owner's key, not the maker's (verified boot state SELF_SIGNED)";
            case UNVERIFIED -> "an unverified operating system (verified boot state UNVERIFIED)";
            case FAILED -> "failed boot verification (verified boot state FAILED)";
        };
        return "with " + lock + " and " + state;
    }
}
