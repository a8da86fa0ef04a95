// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
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
 *
 * <p>In another {@link Language} than English, the instructions come first in that language and then in
 * English, with the same commands, hashes and file names: the receiver reads their own, and anyone they show
 * it to can check it against the English.
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

    /** The text in English, for the proofs of a bundle and whether it holds {@code pubkey.asc}. */
    static String text(List<Proof> proofs, boolean pubkey) {
        return text(proofs, pubkey, Language.EN);
    }

    /**
     * The text in a language and then in English (the English alone for {@link Language#EN}): the commands,
     * hashes and file names are the same in both.
     */
    static String text(List<Proof> proofs, boolean pubkey, Language language) {
        String english = text(proofs, pubkey, Texts.of(Language.EN));
        if (language == Language.EN) {
            return english;
        }
        Texts own = Texts.of(language);
        return text(proofs, pubkey, own) + "\n" + own.get("howto.english") + "\n\n" + "-".repeat(72) + "\n\n" + english;
    }

    private static String text(List<Proof> proofs, boolean pubkey, Texts x) {
        StringBuilder t = new StringBuilder();
        t.append(underlined(x.get("howto.title"), '=')).append('\n');
        t.append(x.get(proofs.stream().anyMatch(p -> p.media().isPresent()) ? "howto.holds.media" : "howto.holds.proofs")).append('\n');
        t.append(x.get("howto.says")).append("\n\n");
        t.append(x.get("howto.unpack")).append("\n\n");
        t.append(underlined(x.get("howto.files"), '-'));
        for (Proof p : proofs) {
            p.media().ifPresent(m -> t.append("  ").append(SafeText.escape(m)).append("\n      ").append(x.get("howto.file.media")).append('\n'));
            for (String f : new TreeSet<>(p.files())) {
                t.append("  ").append(SafeText.escape(f)).append("\n      ").append(x.get(describe(p, f))).append('\n');
            }
        }
        if (pubkey) {
            t.append("  ").append(ProofFiles.PUBKEY).append("\n      ").append(x.get("howto.file.pubkey")).append('\n');
        }
        t.append("  ").append(ProofFiles.HOW_TO_VERIFY).append("\n      ").append(x.get("howto.file.self")).append("\n\n");

        int step = 1;
        List<String> renames = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        List<String> verifies = new ArrayList<>();
        for (Proof p : proofs) {
            Optional<String> media = p.media().map(m -> typed(m, p.id(), renames, x));
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
            t.append(step++).append(". ").append(x.get("howto.rename.title")).append('\n');
            t.append(indented(x.get("howto.rename.why"))).append('\n');
            renames.forEach(r -> t.append(r).append('\n'));
            t.append('\n');
        }
        if (!hashes.isEmpty()) {
            t.append(step++).append(". ").append(x.get("howto.hash.title")).append('\n');
            hashes.forEach(h -> t.append("   $ ").append(h).append('\n'));
            t.append(indented(x.get("howto.hash.explain"))).append("\n\n");
        }
        if (pubkey && !verifies.isEmpty()) {
            t.append(step++).append(". ").append(x.get("howto.sig.title")).append('\n');
            t.append("   $ export GNUPGHOME=\"$(mktemp -d)\"\n");
            t.append("   $ gpg --batch --quiet --import pubkey.asc\n");
            t.append("   $ gpg --batch --fingerprint\n");
            verifies.forEach(v -> t.append("   $ ").append(v).append('\n'));
            t.append(indented(x.get("howto.sig.explain"))).append("\n\n");
            t.append(step++).append(". ").append(x.get("howto.key.title")).append('\n');
            t.append(indented(x.get("howto.key.explain"))).append("\n\n");
        }
        List<String> stamps = proofs.stream().flatMap(p -> p.files().stream()).filter(f -> f.endsWith(".tsr") || f.endsWith(".ots"))
                .filter(ShellWords::typeable).sorted().toList();
        if (!stamps.isEmpty()) {
            t.append(step++).append(". ").append(x.get("howto.stamp.title")).append('\n');
            t.append(indented(x.get("howto.stamp.intro"))).append('\n');
            for (String s : stamps) {
                if (s.endsWith(".tsr")) {
                    t.append("   $ openssl ts -reply -in ").append(ShellWords.quote(s)).append(" -text\n");
                } else {
                    t.append("   $ ots info ").append(ShellWords.quote(s)).append('\n');
                }
            }
            t.append(indented(x.get("howto.stamp.explain"))).append("\n\n");
        }
        t.append(underlined(x.get("howto.cannot.title"), '-'));
        t.append(x.get("howto.cannot.explain")).append("\n\n");
        // The archive's own name is not written: the same files make the same bytes, whatever the archive is called.
        t.append(x.get("howto.oneCommand")).append('\n');
        return t.toString();
    }

    /** A heading and its underline of the same length in characters. */
    private static String underlined(String heading, char rule) {
        return heading + "\n" + String.valueOf(rule).repeat(heading.codePointCount(0, heading.length())) + "\n";
    }

    /** Each line of a paragraph indented under its step's number. */
    private static String indented(String paragraph) {
        return paragraph.lines().map(l -> "   " + l).collect(Collectors.joining("\n"));
    }

    /** The name to type for a media file: its own, or a safe one it is first renamed to. */
    private static String typed(String media, String id, List<String> renames, Texts x) {
        if (ShellWords.typeable(media)) {
            return media;
        }
        String safe = ShellWords.safeName(media, "media", id);
        renames.add("   " + x.get("howto.rename.one", SafeText.escape(media), safe, String.join(", ", ShellWords.replaced(media)))
                + "\n   $ " + String.join(" ", ShellWords.renameBySha256(".", id, safe)));
        return safe;
    }

    /** The key of the text that says what a file of a proof is. */
    private static String describe(Proof p, String f) {
        String rest = f.startsWith(p.id()) ? f.substring(p.id().length()) : f;
        return switch (rest) {
            case ProofFiles.JSON -> "howto.file.json";
            case ProofFiles.CSV -> "howto.file.csv";
            case ProofFiles.SIG -> "howto.file.sig";
            case ProofFiles.JSON + ProofFiles.SIG -> "howto.file.jsonSig";
            case ProofFiles.CSV + ProofFiles.SIG -> "howto.file.csvSig";
            case ".tsr" -> "howto.file.tsr";
            case ".ots" -> "howto.file.ots";
            case ProofFiles.TLOG -> "howto.file.tlog";
            case ProofFiles.REDACTION -> "howto.file.redaction";
            case ProofFiles.REDACTION + ProofFiles.SIG -> "howto.file.redactionSig";
            case ProofFiles.FRAMES -> "howto.file.frames";
            case ProofFiles.FRAMES + ProofFiles.SIG -> "howto.file.framesSig";
            default -> "howto.file.other";
        };
    }
}
