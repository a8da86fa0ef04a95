// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code proofmode help sharing}: the three ways to share a proof, what each reveals and when to use
 * which. A help topic, not a command: it is hidden from the command list and only prints this text.
 */
@Command(name = "sharing", hidden = true, usageHelpAutoWidth = true,
        header = "How to share a proof: notarize only, share proof only, share proof with media.",
        synopsisHeading = "",
        customSynopsis = {"proofmode help sharing", ""},
        description = {
            "Proving a file keeps its proof on this computer and sends nothing anywhere. You decide later, "
                + "file by file, whether and how to share it. There are three ways, from the one that "
                + "reveals least to the one that reveals most.",
            "",
            "1. Notarize only:  proofmode notarize PHOTO",
            "   (file manager: \"Copy notarization text\")",
            "   Makes a short text, at most 160 characters, to send at once by SMS, chat or e-mail, or to "
                + "post publicly: the photo's SHA-256 fingerprint, your device key's fingerprint and the "
                + "proof time.",
            "   Reveals: that you had a file with this fingerprint at that time. Not the photo, not where "
                + "you were, not your device's details. But whoever later holds the photo can check that it "
                + "is the one you notarized, and every text you send names the same device key.",
            "   Use it right after capture, when sending the photo itself is unsafe, slow or not yet "
                + "decided: the text fixes the time, and the photo and its proof can follow days later.",
            "",
            "2. Share proof only:  proofmode export --proof-only -o proof.zip PHOTO",
            "   (file manager: \"Share proof only\")",
            "   Writes a zip with the signed proof and your public key, without the photo.",
            "   Reveals: everything the proof recorded: the fingerprint, the file's name and the folder "
                + "it was in, its times, the camera and computer (make, model, operating system, language, "
                + "time zone), and, only if you turned them on, the location, the networks around you and "
                + "hashed device identifiers. Not the picture itself.",
            "   Use it when the photo travels another way (it is already published, or goes by a separate "
                + "channel), or to let a verification desk or an archive check the context before you "
                + "release the photo, or never release it.",
            "",
            "3. Share proof with media:  proofmode export --with-media -o share.zip PHOTO",
            "   (file manager: \"Share proof with media\")",
            "   Writes a zip with the photo, its proof and your public key: everything a recipient needs "
                + "to check it alone, with this tool or with sha256sum and gpg.",
            "   Reveals: all of the above, plus the photo with whatever it shows and the metadata inside "
                + "it (the camera's EXIF data, which can include GPS coordinates even when this tool's "
                + "location setting is off).",
            "   Use it to hand footage to an editor, a verification desk, a court or an archive that must "
                + "check it independently.",
            "",
            "Before you share, see what a proof records with 'proofmode inspect PHOTO'. To share a "
                + "picture without faces or hidden metadata, make a redacted copy first with 'proofmode "
                + "redact' (it stays linked to the proof of the original). What gets recorded is set with "
                + "'proofmode settings'; location, network and device identifiers are off unless you turn "
                + "them on.",
            ""})
final class SharingTopic implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
