// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.proofmode.util.SafeText;
import org.proofmode.util.ShellWords;

/**
 * The instructions a share bundle carries ({@code HowToVerifyProofData.txt}), written for that bundle: its
 * real file names and hashes, commands to paste in the folder where it was unpacked (a throwaway GnuPG home,
 * then {@code sha256sum} and {@code gpg --verify} of every signature whose file is in the bundle), and no
 * file named that the bundle lacks.
 *
 * <p>Security: file names come from whoever made the proof. A name is given in a command only when
 * {@link ShellWords#typeable}; a media file with another name is first renamed to a safe name by its SHA-256
 * ({@link ShellWords#renameBySha256}); the names shown in text are escaped by {@link SafeText}.
 */
final class HowToVerify {
    /** One proof of the bundle: its id (the media's SHA-256), its media's name in the bundle if shared, its files. */
    record Proof(String id, Optional<String> media, Set<String> files) {
        /** Validates and copies the fields. */
        Proof {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(media, "media");
            files = Set.copyOf(files);
        }
    }

    private HowToVerify() {}

    /** The text, for the proofs of a bundle and whether it holds {@code pubkey.asc}. */
    static String text(List<Proof> proofs, boolean pubkey) {
        StringBuilder t = new StringBuilder();
        t.append("How to check this proof yourself\n================================\n\n");
        t.append("This archive holds ").append(proofs.stream().anyMatch(p -> p.media().isPresent()) ? "media files (photo, video or"
                + " recording) and their proofs" : "the proofs of media files (not the media themselves)").append(", made by ProofMode.\n");
        t.append("A proof says: this exact file existed at the time shown, on the device described, and was signed\n"
                + "by the device key whose public half is in pubkey.asc. You can check every part of it with common\n"
                + "free tools (sha256sum and GnuPG), without trusting us.\n\n");
        t.append("Unpack the archive into an empty folder, open a terminal there, and type or paste each line that\n"
                + "starts with $ without the $ itself. Each must finish without an error.\n\n");
        t.append("Files\n-----\n");
        for (Proof p : proofs) {
            p.media().ifPresent(m -> t.append("  ").append(SafeText.escape(m)).append("\n      the media file (photo, video or recording)\n"));
            for (String f : new TreeSet<>(p.files())) {
                t.append("  ").append(SafeText.escape(f)).append("\n      ").append(describe(p, f)).append('\n');
            }
        }
        if (pubkey) {
            t.append("  ").append(ProofFiles.PUBKEY).append("\n      the public key of the device that signed\n");
        }
        t.append("  ").append(ProofFiles.HOW_TO_VERIFY).append("\n      these instructions\n\n");

        int step = 1;
        List<String> renames = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        List<String> verifies = new ArrayList<>();
        for (Proof p : proofs) {
            Optional<String> media = p.media().map(m -> typed(m, p.id(), renames));
            media.ifPresent(m -> hashes.add("echo " + ShellWords.quote(p.id() + " *" + m) + " | sha256sum -c"));
            for (String f : new TreeSet<>(p.files())) {
                if (!f.endsWith(ProofFiles.SIG) || !ShellWords.typeable(f)) {
                    continue;
                }
                String target = f.substring(0, f.length() - ProofFiles.SIG.length());
                Optional<String> signed = target.equals(p.id()) ? media : p.files().contains(target) && ShellWords.typeable(target)
                        ? Optional.of(target) : Optional.empty();
                signed.ifPresent(s -> verifies.add("gpg --batch --verify " + ShellWords.quote(f) + " " + ShellWords.quote(s)));
            }
        }
        if (!renames.isEmpty()) {
            t.append(step++).append(". Give the media a name that can be typed\n");
            t.append("   A name with letters of other scripts, or characters that look like quotes, spaces or shell\n"
                    + "   syntax, cannot be typed safely. This renames the one file whose SHA-256 is the media's:\n");
            renames.forEach(r -> t.append(r).append('\n'));
            t.append('\n');
        }
        if (!hashes.isEmpty()) {
            t.append(step++).append(". The media file is the one that was proved\n");
            hashes.forEach(h -> t.append("   $ ").append(h).append('\n'));
            t.append("   Each prints the file's name and OK; FAILED if a single byte of it changed. The 64 characters\n"
                    + "   are the SHA-256 the proof recorded; they are also in the proof files' names. (On macOS use\n"
                    + "   shasum -a 256 -c instead of sha256sum -c.)\n\n");
        }
        if (pubkey && !verifies.isEmpty()) {
            t.append(step++).append(". The signatures are good (GnuPG, https://gnupg.org)\n");
            t.append("   $ export GNUPGHOME=\"$(mktemp -d)\"\n");
            t.append("   $ gpg --batch --quiet --import pubkey.asc\n");
            t.append("   $ gpg --batch --fingerprint\n");
            verifies.forEach(v -> t.append("   $ ").append(v).append('\n'));
            t.append("   The first line makes a new, empty keyring for this check only, so that no key you already have\n"
                    + "   plays a part. Each gpg --verify must say \"Good signature\"; a warning that the key is not\n"
                    + "   certified with a trusted signature only means you have not yet decided to trust this key.\n\n");
            t.append(step++).append(". The key is the one you expect\n");
            t.append("   Compare the fingerprint gpg --fingerprint printed with the one the sender gave you in another\n"
                    + "   way (in person, by phone, in a message sent earlier). A good signature by an unknown key shows\n"
                    + "   that the files belong together and were not changed, not who made them.\n\n");
        }
        List<String> stamps = proofs.stream().flatMap(p -> p.files().stream()).filter(f -> f.endsWith(".tsr") || f.endsWith(".ots"))
                .filter(ShellWords::typeable).sorted().toList();
        if (!stamps.isEmpty()) {
            t.append(step++).append(". When it existed: the time stamps\n");
            t.append("   A time stamp is a third party's statement that a file existed no later than a given time.\n");
            for (String s : stamps) {
                if (s.endsWith(".tsr")) {
                    t.append("   $ openssl ts -reply -in ").append(ShellWords.quote(s)).append(" -text\n");
                } else {
                    t.append("   $ ots info ").append(ShellWords.quote(s)).append('\n');
                }
            }
            t.append("   openssl shows the time (\"Time stamp:\") and the authority (\"TSA:\"); to check the authority's\n"
                    + "   signature too, get its root certificate from the authority itself and give it to\n"
                    + "   openssl ts -verify with -CAfile. ots is the OpenTimestamps client (opentimestamps.org): ots info\n"
                    + "   shows what the proof commits to and where it waits or which Bitcoin block it reaches.\n\n");
        }
        t.append("What a proof cannot show\n------------------------\n");
        t.append("A proof does not show that the scene in front of the camera was real, or that the device was not\n"
                + "compromised when it signed. It shows that the file, the recorded context and the signature have\n"
                + "not changed since the proof was made.\n\n");
        // The archive's own name is not written: the same files make the same bytes, whatever the archive is called.
        t.append("With ProofMode installed, one command does all of the above, in the folder that holds this\n"
                + "archive (ARCHIVE.zip standing for its name): proofmode verify ARCHIVE.zip\n");
        return t.toString();
    }

    /** The name to type for a media file: its own, or a safe one it is first renamed to. */
    private static String typed(String media, String id, List<String> renames) {
        if (ShellWords.typeable(media)) {
            return media;
        }
        String safe = ShellWords.safeName(media, "media", id);
        renames.add("   The media " + SafeText.escape(media) + " is called " + safe + " below (it replaces "
                + String.join(", ", ShellWords.replaced(media)) + "):\n   $ " + String.join(" ", ShellWords.renameBySha256(".", id, safe)));
        return safe;
    }

    private static String describe(Proof p, String f) {
        String rest = f.startsWith(p.id()) ? f.substring(p.id().length()) : f;
        return switch (rest) {
            case ProofFiles.JSON -> "what the device recorded about the media (the same data as the .csv)";
            case ProofFiles.CSV -> "the same record as a spreadsheet row";
            case ProofFiles.SIG -> "the signature over the media file";
            case ProofFiles.JSON + ProofFiles.SIG -> "the signature over the .proof.json file";
            case ProofFiles.CSV + ProofFiles.SIG -> "the signature over the .proof.csv file";
            case ".tsr" -> "an RFC 3161 time stamp of the media's signature";
            case ".ots" -> "an OpenTimestamps proof";
            case ProofFiles.TLOG -> "a receipt of a transparency log (C2SP tlog-proof)";
            case ProofFiles.REDACTION -> "the media is a redacted copy: which original, which regions were hidden";
            case ProofFiles.REDACTION + ProofFiles.SIG -> "the signature over the .redaction.json file";
            case ProofFiles.FRAMES -> "the hashes of the video's frames";
            case ProofFiles.FRAMES + ProofFiles.SIG -> "the signature over the .frames file";
            default -> "a file of this proof";
        };
    }
}
