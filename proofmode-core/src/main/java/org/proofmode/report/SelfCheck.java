// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.proofmode.bundle.ProofFiles;
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

    /** The section's blocks for one item. */
    static List<Block> of(ReportItem item) {
        Map<String, String> names = new LinkedHashMap<>();
        for (String e : item.entries()) {
            names.putIfAbsent(e.substring(e.lastIndexOf('/') + 1), e);
        }
        List<Block> out = new ArrayList<>();
        List<String> unsafe = new ArrayList<>();
        String where = item.name().toLowerCase(Locale.ROOT).endsWith(".zip")
                ? "Unpack " + item.name() + " into an empty folder (for example: unzip it), open a terminal there,"
                : "Open a terminal in the folder " + item.name() + " (or a copy of it),";
        out.add(new Block.Paragraph("Anyone can redo these checks without this software. " + where + " and type each line that starts"
                + " with $ without the $ itself. A line that ends with a backslash goes on in the next line. Each command must finish"
                + " without an error, except where a note says it needs the internet; the notes say what it prints when all is well.", Block.Tone.NORMAL));

        if (item.entries().isEmpty()) {
            out.add(new Block.Paragraph("The files themselves were not kept with this result, so no command can name them here:"
                    + " ask the sender for the bundle, and make its report with proofmode report, which lists the commands.", Block.Tone.NOTE));
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
                renamed.add(media.get() + " is called " + safe + " (it replaces " + String.join(", ", ShellWords.replaced(entry)) + ")");
                names.put(media.get(), safe);
            }
        }
        if (!renames.isEmpty()) {
            out.add(new Block.Heading(3, "0. First, give the media a name that can be typed"));
            out.add(new Block.Paragraph("A file name with letters of other scripts, or characters that look like quotes, spaces or"
                    + " shell syntax, cannot be typed safely: what you type is not what the name holds. In the commands below, "
                    + String.join("; ", renamed) + ". Rename it so, in a file manager or with the following command, which gives that"
                    + " name to the one file of the folder whose SHA-256 is the media's (it prints nothing).", Block.Tone.NOTE));
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
            out.add(new Block.Heading(3, "1. The media is the file the proof names"));
            out.add(new Block.Paragraph("sha256sum computes the media file's SHA-256 fingerprint and compares it with the one"
                    + " the proof recorded: it prints the file name and OK, or FAILED when even one byte differs.", Block.Tone.NOTE));
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
            out.add(new Block.Heading(3, "2. The signatures, with GnuPG"));
            out.add(new Block.Paragraph("The first line makes a new, empty keyring for this check only, so that no key you already"
                    + " have plays a part; the second puts the bundle's public key in it; the third shows that key's fingerprint,"
                    + " which must be the one in this report. Each gpg --verify then prints \"Good signature\": the file is"
                    + " unchanged since that key signed it (a warning that the key is not certified is expected: trust in the"
                    + " key is a separate question, answered by its fingerprint).", Block.Tone.NOTE));
            out.add(new Block.Commands(gpg));

            List<List<String>> sqv = new ArrayList<>();
            pairs.forEach(pr -> sqv.add(List.of("sqv", "--keyring", quote(pubkey), quote(pr[0]), quote(pr[1]))));
            out.add(new Block.Heading(3, "3. The same signatures, with a second tool (Sequoia sqv)"));
            out.add(new Block.Paragraph("sqv is an independent OpenPGP implementation with a strict policy: for a good signature it"
                    + " prints the signing key's fingerprint and nothing else. It refuses a key whose own binding signatures use"
                    + " SHA-1, as older keys of the ProofMode Android app do (\"SHA1 is not considered secure\"): that is its policy"
                    + " on the key, not a change in the files; GnuPG's answer above stands.", Block.Tone.NOTE));
            out.add(new Block.Commands(sqv));
        } else if (!pairs.isEmpty()) {
            out.add(new Block.Paragraph("The bundle carries no public key (pubkey.asc): the signatures can be checked only with the"
                    + " signer's key from a source you trust, for example: gpg --import KEY.asc, then gpg --verify for each"
                    + " signature file.", Block.Tone.NOTE));
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
            out.add(new Block.Heading(3, "4. The time stamps"));
        }
        if (!stamps.isEmpty()) {
            out.add(new Block.Paragraph("openssl ts -verify prints \"Verification: OK\" when the time-stamp token covers the"
                    + " signature and is signed by the authority; " + TSA_ROOT + " is that authority's root certificate, which you"
                    + " get from the authority itself, not from the bundle.", Block.Tone.NOTE));
            out.add(new Block.Commands(stamps));
        }
        if (!ots.isEmpty()) {
            out.addAll(openTimestamps(ots));
        }
        out.addAll(IntegrityCommands.of(item, names, unsafe));
        if (item.report().allChecks().stream().anyMatch(c -> c.code().startsWith("tlog."))) {
            out.add(new Block.Paragraph("A transparency-log receipt (.tlog) is a C2SP tlog-proof: check it with the log's verifier key,"
                    + " for example with proofmode verify --log-key KEY, or any C2SP tlog-proof reader.", Block.Tone.NOTE));
        }
        if (!unsafe.isEmpty()) {
            out.add(new Block.Paragraph("No command is given for " + String.join(", ", unsafe.stream().distinct().toList())
                    + ": the name holds characters that cannot be typed safely in a terminal ("
                    + String.join(", ", unsafe.stream().distinct().flatMap(n -> ShellWords.replaced(n).stream()).distinct().toList())
                    + "); rename the file to a name of ASCII letters and digits before checking it.", Block.Tone.BAD));
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
    private static List<Block> openTimestamps(Map<String, Ots> ots) {
        List<List<String>> offline = new ArrayList<>();
        List<List<String>> online = new ArrayList<>();
        ots.forEach((file, o) -> {
            offline.add(List.of("ots", "info", quote(file)));
            if (o.target != null) {
                (o.complete ? online : offline).add(List.of("ots", "verify", "-f", quote(o.target), quote(file)));
            }
        });
        List<Block> out = new ArrayList<>();
        out.add(new Block.Paragraph("ots is the OpenTimestamps client (opentimestamps-client from pip, or ots-cli.js from npm's"
                + " opentimestamps package). ots info needs no network: its first line, \"File sha256 hash: ...\", is the SHA-256"
                + " fingerprint of the file the proof covers; then PendingAttestation names a calendar where the proof waits to be"
                + " written into the Bitcoin blockchain (it proves no time yet), and BitcoinBlockHeaderAttestation(N) names the"
                + " Bitcoin block it reaches, with the merkle root to compare with that block's on any public block explorer."
                + " ots verify -f first checks that the named file is the one the proof covers: if not, it prints \"File does not"
                + " match original!\" and fails. For a pending proof it then asks the calendars whether the proof is complete, and"
                + " when none is reachable it ends without a \"Success!\" line: it has checked the file, not a time.", Block.Tone.NOTE));
        out.add(new Block.Commands(offline));
        if (!online.isEmpty()) {
            out.add(new Block.Paragraph("A proof that reaches a Bitcoin block is checked against the blockchain itself: the"
                    + " following commands need a Bitcoin node on this computer or the internet (the client then asks the block"
                    + " explorer blockstream.info). After the file check they print \"Success! Bitcoin block N attests existence as"
                    + " of DATE\"; without a node or the internet they stop with \"bitcoin verification failed\", which says"
                    + " nothing against the file.", Block.Tone.NOTE));
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
