// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
import org.proofmode.i18n.Texts;
import org.proofmode.util.ShellWords;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.ProofReport;

/**
 * "Check it yourself": the commands that redo a report's checks with common tools ({@code sha256sum},
 * {@code gpg} in a fresh keyring, Sequoia's {@code sqv}, {@code openssl ts}, {@code ots}; {@code openssl} for
 * device attestations, {@link IntegrityCommands}), in the order to
 * run them, in the folder where the bundle was unpacked. Only files that are in the bundle get a command.
 * All run offline but the {@code ots verify} of a proof that reaches a Bitcoin block, which needs a Bitcoin
 * node or the internet and is set apart with a note saying so.
 *
 * <p>Security: file names come from the sender, and a reader types what a command looks like. A name is
 * given in a command only when {@link ShellWords#typeable} (printable ASCII, no backslash), quoted by
 * {@link ShellWords#quote}. A media file with any other name (letters of other scripts, look-alike quotes,
 * bidirectional or zero-width characters...) is called by a safe name made from its SHA-256, with a note
 * naming the characters replaced and a first command that gives the file that name, finding it by its
 * SHA-256; any other such file gets no command at all (a note says so).
 */
final class SelfCheck {
    /** The root certificate of a time-stamping authority, which the reader gets from the authority. */
    static final String TSA_ROOT = "TSA-ROOT.pem";

    private SelfCheck() {}

    /** The section's blocks for one item, in English. */
    static List<Block> of(ReportItem item) {
        return of(item, Texts.of(org.proofmode.i18n.Language.EN));
    }

    /** The section's blocks for one item, its sentences in the texts' language (the commands are the same in every language). */
    static List<Block> of(ReportItem item, Texts x) {
        Map<String, String> names = new LinkedHashMap<>();
        for (String e : item.entries()) {
            names.putIfAbsent(e.substring(e.lastIndexOf('/') + 1), e);
        }
        List<Block> out = new ArrayList<>();
        List<String> unsafe = new ArrayList<>();
        out.add(new Block.Paragraph(x.get(item.name().toLowerCase(Locale.ROOT).endsWith(".zip") ? "selfcheck.intro.zip" : "selfcheck.intro.folder",
                item.name()), Block.Tone.NORMAL));

        if (item.entries().isEmpty()) {
            out.add(new Block.Paragraph(x.get("selfcheck.noFiles"), Block.Tone.NOTE));
            return out;
        }
        List<List<String>> renames = new ArrayList<>();
        List<String> renamed = new ArrayList<>();
        for (ProofReport p : item.report().proofs()) {
            Optional<String> media = p.media().filter(names::containsKey);
            if (media.isEmpty() || p.sha256().isEmpty() || ShellWords.typeable(names.get(media.get()))) {
                continue;
            }
            String entry = names.get(media.get());
            String dir = entry.contains("/") ? entry.substring(0, entry.lastIndexOf('/')) : ".";
            if (ShellWords.typeable(dir)) {
                String safe = ShellWords.safeName(media.get(), "media", p.sha256().get());
                renames.add(ShellWords.renameBySha256(dir, p.sha256().get(), safe));
                renamed.add(x.get("selfcheck.rename.one", media.get(), safe, String.join(", ", ShellWords.replaced(entry))));
                names.put(media.get(), safe);
            }
        }
        if (!renames.isEmpty()) {
            out.add(new Block.Heading(3, x.get("selfcheck.rename.title")));
            out.add(new Block.Paragraph(x.get("selfcheck.rename.explain", String.join("; ", renamed)), Block.Tone.NOTE));
            out.add(new Block.Commands(renames));
        }
        List<List<String>> hashes = new ArrayList<>();
        for (ProofReport p : item.report().proofs()) {
            Optional<String> media = p.media().map(names::get);
            if (p.sha256().isPresent() && media.isPresent() && usable(media.get(), unsafe)) {
                hashes.add(List.of("echo", quote(p.sha256().get() + " *" + media.get()), "|", "sha256sum", "-c"));
            }
        }
        if (!hashes.isEmpty()) {
            out.add(new Block.Heading(3, x.get("selfcheck.hash.title")));
            out.add(new Block.Paragraph(x.get("selfcheck.hash.explain"), Block.Tone.NOTE));
            out.add(new Block.Commands(hashes));
        }

        String pubkey = names.get(ProofFiles.PUBKEY);
        List<String[]> pairs = new ArrayList<>();
        for (ProofReport p : item.report().proofs()) {
            String id = p.id();
            p.media().ifPresent(m -> pair(names, pairs, unsafe, ProofFiles.mediaSig(id), m));
            pair(names, pairs, unsafe, ProofFiles.jsonSig(id), ProofFiles.json(id));
            pair(names, pairs, unsafe, ProofFiles.csvSig(id), ProofFiles.csv(id));
            pair(names, pairs, unsafe, ProofFiles.framesSig(id), ProofFiles.frames(id));
            pair(names, pairs, unsafe, ProofFiles.redactionSig(id), ProofFiles.redaction(id));
            pair(names, pairs, unsafe, ProofFiles.j3m(id) + ProofFiles.SIG, ProofFiles.j3m(id));
        }
        if (pubkey != null && usable(pubkey, unsafe) && !pairs.isEmpty()) {
            List<List<String>> gpg = new ArrayList<>();
            gpg.add(List.of("export", "GNUPGHOME=\"$(mktemp -d)\""));
            gpg.add(List.of("gpg", "--batch", "--quiet", "--import", quote(pubkey)));
            item.report().proofs().stream().flatMap(p -> p.signer().stream()).map(s -> s.fingerprint()).distinct()
                    .forEach(f -> gpg.add(List.of("gpg", "--batch", "--fingerprint", f)));
            pairs.forEach(pr -> gpg.add(List.of("gpg", "--batch", "--verify", quote(pr[0]), quote(pr[1]))));
            out.add(new Block.Heading(3, x.get("selfcheck.gpg.title")));
            out.add(new Block.Paragraph(x.get("selfcheck.gpg.explain"), Block.Tone.NOTE));
            out.add(new Block.Commands(gpg));

            List<List<String>> sqv = new ArrayList<>();
            pairs.forEach(pr -> sqv.add(List.of("sqv", "--keyring", quote(pubkey), quote(pr[0]), quote(pr[1]))));
            out.add(new Block.Heading(3, x.get("selfcheck.sqv.title")));
            out.add(new Block.Paragraph(x.get("selfcheck.sqv.explain"), Block.Tone.NOTE));
            out.add(new Block.Commands(sqv));
        } else if (!pairs.isEmpty()) {
            out.add(new Block.Paragraph(x.get("selfcheck.noPubkey"), Block.Tone.NOTE));
        }

        List<List<String>> stamps = new ArrayList<>();
        Map<String, Ots> ots = new LinkedHashMap<>();
        for (ProofReport p : item.report().proofs()) {
            for (Check c : p.checks()) {
                String file = names.get(c.subject());
                if (file == null || !usable(file, unsafe)) {
                    continue;
                }
                if (c.code().startsWith("timestamp.rfc3161.") && names.containsKey(ProofFiles.mediaSig(p.id()))) {
                    stamps.add(List.of("openssl", "ts", "-verify", "-in", quote(file), "-data", quote(names.get(ProofFiles.mediaSig(p.id()))),
                            "-CAfile", TSA_ROOT));
                } else if (c.code().equals(CheckCodes.TIMESTAMP_OTS_PENDING) || c.code().equals(CheckCodes.TIMESTAMP_OTS_BITCOIN)) {
                    Optional<String> target = c.message().startsWith("commits to the media signature")
                            ? Optional.ofNullable(names.get(ProofFiles.mediaSig(p.id())))
                            : c.message().startsWith("commits to the media's SHA-256") ? p.media().map(names::get) : Optional.empty();
                    Ots o = ots.computeIfAbsent(file, f -> new Ots());
                    target.filter(t -> usable(t, unsafe)).ifPresent(t -> o.target = t);
                    o.complete |= c.code().equals(CheckCodes.TIMESTAMP_OTS_BITCOIN);
                }
            }
        }
        if (!stamps.isEmpty() || !ots.isEmpty()) {
            out.add(new Block.Heading(3, x.get("selfcheck.stamps.title")));
        }
        if (!stamps.isEmpty()) {
            out.add(new Block.Paragraph(x.get("selfcheck.rfc3161", TSA_ROOT), Block.Tone.NOTE));
            out.add(new Block.Commands(stamps));
        }
        if (!ots.isEmpty()) {
            out.addAll(openTimestamps(ots, x));
        }
        out.addAll(IntegrityCommands.of(item, names, unsafe, x));
        if (item.report().allChecks().stream().anyMatch(c -> c.code().startsWith("tlog."))) {
            out.add(new Block.Paragraph(x.get("selfcheck.tlog"), Block.Tone.NOTE));
        }
        if (!unsafe.isEmpty()) {
            out.add(new Block.Paragraph(x.get("selfcheck.unsafe", String.join(", ", unsafe.stream().distinct().toList()),
                    String.join(", ", unsafe.stream().distinct().flatMap(n -> ShellWords.replaced(n).stream()).distinct().toList())),
                    Block.Tone.BAD));
        }
        return out;
    }

    /** What the report knows of one .ots file: the file it covers, and whether it reaches a Bitcoin block. */
    private static final class Ots {
        String target;
        boolean complete;
    }

    /**
     * The OpenTimestamps commands: {@code ots info} and {@code ots verify -f} need no network to check the file
     * against the proof; a complete proof's {@code ots verify} then needs a Bitcoin node or the internet.
     */
    private static List<Block> openTimestamps(Map<String, Ots> ots, Texts x) {
        List<List<String>> offline = new ArrayList<>();
        List<List<String>> online = new ArrayList<>();
        ots.forEach((file, o) -> {
            offline.add(List.of("ots", "info", quote(file)));
            if (o.target != null) {
                (o.complete ? online : offline).add(List.of("ots", "verify", "-f", quote(o.target), quote(file)));
            }
        });
        List<Block> out = new ArrayList<>();
        out.add(new Block.Paragraph(x.get("selfcheck.ots"), Block.Tone.NOTE));
        out.add(new Block.Commands(offline));
        if (!online.isEmpty()) {
            out.add(new Block.Paragraph(x.get("selfcheck.ots.online"), Block.Tone.NOTE));
            out.add(new Block.Commands(online));
        }
        return out;
    }

    private static void pair(Map<String, String> names, List<String[]> pairs, List<String> unsafe, String sig, String file) {
        String s = names.get(sig);
        String f = names.get(file);
        if (s != null && f != null && usable(s, unsafe) && usable(f, unsafe)) {
            pairs.add(new String[] {s, f});
        }
    }

    /** Whether a file name can be given in a command ({@link ShellWords#typeable}); if not, it is added to {@code unsafe}. */
    static boolean usable(String name, List<String> unsafe) {
        boolean ok = ShellWords.typeable(name);
        if (!ok) {
            unsafe.add(name);
        }
        return ok;
    }

    /** One word for a POSIX shell ({@link ShellWords#quote}). */
    static String quote(String word) {
        return ShellWords.quote(word);
    }
}
