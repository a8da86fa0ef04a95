// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.age.Age;
import org.proofmode.age.OpenPgpRecipients;
import org.proofmode.age.ShareEncryption;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.i18n.Language;
import org.proofmode.util.Hex;
import org.proofmode.util.SafeText;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode export}: the app's share bundle. */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Write a share bundle: proofs, with or without their media.",
            "",
            "The bundle is a flat zip, as the ProofMode app makes it: every proof file, pubkey.asc, "
                + "HowToVerifyProofData.txt (how to check it by hand with sha256sum and gpg), and, unless "
                + "--proof-only, the media files themselves (--with-media is the default). Name proofs by media "
                + "file or by SHA-256; with a SHA-256, the media is taken from where it was proved (the full path the "
                + "proof records with the setting context.file-path full, else where this home noted it, "
                + "PROOFMODE_HOME/media-paths/, which never leaves the home) if it is still there unchanged: else name "
                + "the media file.",
            "",
            "Without -o the bundle is written beside the first file, as the file manager's share action does: "
                + "FILE.proofmode.zip with the media, FILE.proof.zip with --proof-only (for a SHA-256: "
                + "<sha256>.proofmode.zip or <sha256>.proof.zip in the current folder). An existing file is never "
                + "replaced without --force (exit 59). The path written is printed.",
            ""},
        footer = {"", "Examples:", "  proofmode export IMG_0001.jpg            writes IMG_0001.jpg.proofmode.zip beside it",
            "  proofmode export --proof-only IMG_0001.jpg   writes IMG_0001.jpg.proof.zip",
            "  proofmode export -o share.zip IMG_0001.jpg IMG_0002.jpg",
            "  proofmode export --proof-only -o proof.zip 0b8d8b5f1504...6647351 (the full hash)",
            "  proofmode export --with-media --encrypt-to age1… -o share.zip.age IMG_0001.jpg   for the desk only",
            "  proofmode export --with-media --encrypt-to desk.asc -o share.zip.gpg IMG_0001.jpg",
            "  proofmode export --lang uk -o share.zip IMG_0001.jpg   instructions in Ukrainian, then in English",
            "  proofmode export --json --proof-only -o proof.zip IMG_0001.jpg   what was written, as JSON",
            "", ExitCodes.HELP_TABLE})
final class ExportCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Mode mode;

    static final class Mode {
        @Option(names = "--with-media", required = true, description = "Share the media with its proof (\"Share Proof with Media\"); the default.")
        boolean withMedia;

        @Option(names = "--proof-only", required = true, description = "Share the proof without the media (\"Share Proof Only\").")
        boolean proofOnly;
    }

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.zip", description = "The zip to write (default: FILE.proofmode.zip, "
            + "or FILE.proof.zip with --proof-only, beside the first FILE).")
    Path output;

    @Option(names = "--force", description = "Replace FILE.zip if it exists.")
    boolean force;

    @Option(names = "--encrypt-to", paramLabel = "RECIPIENT", description = "Encrypt the bundle for this reader, for a channel "
            + "that is not trusted: an age recipient (age1…, from age-keygen; name the output FILE.zip.age) or an OpenPGP "
            + "public key file (name it FILE.zip.gpg). Repeatable, all of one kind. The zip is never written in the clear.")
    List<String> encryptTo = new ArrayList<>();

    @Mixin
    UnlockOptions unlock;

    @Option(names = "--lang", paramLabel = "LANG", description = "The language of the bundle's instructions for the receiver "
            + "(HowToVerifyProofData.txt), followed by the same in English: en, es, fr, ar, uk, zh-Hans (default: from "
            + "LC_ALL, LC_MESSAGES or LANG, else English).")
    Optional<String> lang = Optional.empty();

    @Option(names = "--json", description = "Print what was written as one JSON object: {\"output\", \"bytes\", \"encryption\": \"none\"|\"age\"|\"openpgp\", \"withMedia\", \"proofs\": [{\"sha256\", \"media\"}]}.")
    boolean json;

    @Parameters(paramLabel = "HASH|PATH", arity = "1..*", description = "Proved media files, or their SHA-256.")
    List<String> proofs;

    @Override
    public Integer call() {
        boolean withMedia = mode == null || mode.withMedia;
        Language language = Language.chosen(lang, root.ctx.env());
        Path shown = output != null ? output : defaultOutput(proofs.get(0), withMedia);
        Path out = root.ctx.resolve(shown);
        if (!force && Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
            // Before the key is unlocked: a name taken is said at once.
            throw new ProofModeException(Failure.OUTPUT_EXISTS, shown + ": exists already (use --force to replace it, or -o another name)");
        }
        ProofMode pm = StoreAccess.reading(root.ctx, root.proofMode(), unlock.passphraseFile);
        List<BundleWriter.Item> items = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        for (String arg : proofs) {
            ProofMode.StoredProof f = pm.find(callersFile(arg));
            hashes.add(f.sha256());
            Optional<Path> media = Optional.empty();
            if (withMedia) {
                media = Optional.of(f.media().orElseThrow(() -> new ProofModeException(Failure.INPUT_MISSING,
                        arg + ": the media is no longer where it was proved (or was changed); give the media file instead, "
                        + "or --proof-only")));
            }
            items.add(new BundleWriter.Item(f.folder(), media, pm.store().isEncrypted() ? pm.store().files(f.sha256()) : Optional.empty()));
        }
        Optional<ShareEncryption> encryption = encryption();
        BundleWriter.write(items, out, force, encryption, language);
        if (json) {
            printJson(shown, out, withMedia, hashes, items, encryption);
            return ExitCodes.OK;
        }
        root.ctx.out().println(shown);
        return ExitCodes.OK;
    }

    /** What was written, as one JSON object (see --json). */
    private void printJson(Path shown, Path out, boolean withMedia, List<String> hashes, List<BundleWriter.Item> items,
            Optional<ShareEncryption> encryption) {
        ObjectNode n = JsonOut.object().put("output", shown.toString());
        try {
            n.put("bytes", Files.size(out));
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot read " + shown + " back: " + e.getMessage(), e);
        }
        n.put("encryption", encryption.isEmpty() ? "none"
                : encryptTo.stream().allMatch(r -> r.strip().startsWith(Age.RECIPIENT_PREFIX)) ? "age" : "openpgp");
        n.put("withMedia", withMedia);
        ArrayNode proofs = n.putArray("proofs");
        for (int i = 0; i < items.size(); i++) {
            proofs.addObject().put("sha256", hashes.get(i)).put("media", items.get(i).media().isPresent());
        }
        JsonOut.println(root.ctx.out(), n);
    }

    /**
     * Where the bundle goes without -o, as the file manager's share action writes it: beside the file,
     * {@code FILE.proofmode.zip} (with the media) or {@code FILE.proof.zip}; for a SHA-256, named by it in the
     * current folder. With {@code --encrypt-to}, {@code .age} or {@code .gpg} is added as the kind requires.
     */
    private Path defaultOutput(String first, boolean withMedia) {
        String suffix = withMedia ? ".proofmode.zip" : ".proof.zip";
        if (!encryptTo.isEmpty()) {
            suffix += encryptTo.stream().allMatch(r -> r.strip().startsWith(Age.RECIPIENT_PREFIX)) ? ".age" : ".gpg";
        }
        try {
            Path p = Path.of(first);
            if (Files.isRegularFile(root.ctx.resolve(p)) || !Hex.isSha256(first)) {
                return p.resolveSibling(p.getFileName() + suffix);
            }
        } catch (InvalidPathException e) {
            // not a file name: a hash, or refused by find below
        }
        return Path.of(first.toLowerCase(Locale.ROOT) + suffix);
    }

    /**
     * A media file named relative to the caller's folder, made absolute (an agent runs this command in
     * another folder); a hash, or a name that is no file, as it is, for the messages.
     */
    private String callersFile(String arg) {
        try {
            Path p = root.ctx.resolve(Path.of(arg));
            return Files.exists(p) ? p.toString() : arg;
        } catch (InvalidPathException e) {
            return arg;
        }
    }

    /** The encryption --encrypt-to asks for: age recipients, or OpenPGP key files. */
    private Optional<ShareEncryption> encryption() {
        if (encryptTo.isEmpty()) {
            return Optional.empty();
        }
        List<String> age = encryptTo.stream().filter(r -> r.strip().startsWith(Age.RECIPIENT_PREFIX)).toList();
        if (age.size() == encryptTo.size()) {
            return Optional.of(Age.encryptionTo(age));
        }
        if (!age.isEmpty()) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--encrypt-to: age recipients and OpenPGP keys "
                    + "cannot be mixed (one bundle is either an age file or an OpenPGP message)");
        }
        List<Path> keys = new ArrayList<>();
        for (String r : encryptTo) {
            Path key;
            try {
                key = root.ctx.resolve(Path.of(r));
            } catch (InvalidPathException e) {
                key = null;
            }
            if (key == null || !Files.exists(key)) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "--encrypt-to " + SafeText.escape(r)
                        + ": neither an age recipient (age1…) nor an OpenPGP public key file");
            }
            keys.add(key);
        }
        return Optional.of(OpenPgpRecipients.encryptionTo(keys));
    }
}
