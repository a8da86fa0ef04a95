// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.c2pa.C2paSigner;
import org.proofmode.c2pa.ContentCredentials;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.c2pa.TimeStamper;
import org.proofmode.context.Settings;
import org.proofmode.keys.Passphrase;
import org.proofmode.keys.KeyInfo;
import org.proofmode.proof.ProofRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code proofmode c2pa}: content credentials (C2PA). */
@Command(name = "c2pa", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
        description = {
            "Content credentials (C2PA): the provenance standard cameras, phones and news sites read.",
            "",
            "'c2pa ca' creates this device's local certificate authority and signing certificate in "
                + "PROOFMODE_HOME/c2pa/ (private keys encrypted with the device key's passphrase). 'c2pa sign' "
                + "embeds a signed manifest in a JPEG, PNG, WAV, AVI or WebP copy (on top of the credentials it has). 'c2pa update' "
                + "adds an update manifest to a credentialed JPEG. 'proofmode verify FILE' reads and checks "
                + "the content credentials of any JPEG, PNG, MP4/MOV/HEIF/AVIF, TIFF/DNG, WAV/AVI/WebP or MP3.",
            ""},
        subcommands = {C2paCommand.Ca.class, C2paCommand.Sign.class, C2paCommand.Update.class},
        footer = {"", "Examples:", "  proofmode c2pa ca", "  proofmode c2pa sign IMG_0001.jpg -o IMG_0001.c2pa.jpg",
            "  proofmode verify --c2pa-trust ~/.proofmode/c2pa/ca.pem IMG_0001.c2pa.jpg", "", ExitCodes.HELP_TABLE})
final class C2paCommand {
    @ParentCommand
    Main root;

    /** {@code proofmode c2pa ca}. */
    @Command(name = "ca", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, usageHelpAutoWidth = true,
            description = {
                "Create the local C2PA certificate authority and this device's signing certificate.",
                "",
                "Writes PROOFMODE_HOME/c2pa/ca.pem (the CA certificate: give it to whoever should see your content "
                    + "credentials as Trusted, e.g. 'verify --c2pa-trust ca.pem'), signer.pem (EC P-256, the C2PA "
                    + "certificate profile), and ca.key and signer.key, encrypted PKCS#8 under the device key's "
                    + "passphrase. 'c2pa sign' and 'prove --c2pa' create them on first use.",
                ""},
            footer = {"", "Example:", "  proofmode c2pa ca", "", ExitCodes.HELP_TABLE})
    static final class Ca implements Callable<Integer> {
        @ParentCommand
        C2paCommand parent;

        @Mixin
        KeyOptions keyOptions;

        @Option(names = "--force", description = "Replace an existing CA.")
        boolean force;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            LocalCa ca = C2paAccess.createCa(ctx, parent.root.proofMode(), keyOptions, force);
            ctx.out().println(ca.caCertificateFile());
            return ExitCodes.OK;
        }
    }

    /** {@code proofmode c2pa sign}. */
    @Command(name = "sign", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
            usageHelpAutoWidth = true,
            description = {
                "Embed signed content credentials in a copy of a JPEG, PNG, WAV, AVI or WebP.",
                "",
                "The manifest (claim v2) says the file was created by digital capture (c2pa.actions.v2), binds "
                    + "its bytes (c2pa.hash.data), records the capture context that the privacy settings allow "
                    + "(c2pa.metadata: camera, capture time, and the location only when recording it is on) and "
                    + "names the device's OpenPGP key (org.proofmode.proof). It is signed (COSE ES256) with the "
                    + "local CA's device certificate, or with --cert/--key, and time-stamped with --tsa.",
                "",
                "A file that already has content credentials (a phone's, a camera's, an editor's) keeps them: the new manifest "
                    + "is added on top, as the active one, with the file's active manifest as its parentOf ingredient (c2pa.opened "
                    + "instead of c2pa.created; the ingredient records what validating that manifest found, valid or not), every "
                    + "earlier manifest kept in the store, and the hard binding computed over the new file. 'verify' lists the chain.",
                ""},
            footer = {"", "Examples:", "  proofmode c2pa sign IMG_0001.jpg -o IMG_0001.c2pa.jpg",
                "  proofmode c2pa sign --cert chain.pem --key key.pem --tsa https://tsa.example/tsr in.png -o out.png",
                "  proofmode c2pa sign --identity reporter.pem IMG_0001.jpg -o IMG_0001.c2pa.jpg",
                "", ExitCodes.HELP_TABLE})
    static final class Sign implements Callable<Integer> {
        @ParentCommand
        C2paCommand parent;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Where the credentialed copy goes.")
        Path output;

        @Option(names = "--force", description = "Replace OUT if it exists.")
        boolean force;

        @Option(names = "--cert", paramLabel = "CHAIN.pem", description = "Sign with this certificate chain (leaf first) instead of the local CA's.")
        Path cert;

        @Option(names = "--key", paramLabel = "KEY.pem", description = "The private key of --cert (EC P-256; if encrypted, with the device passphrase).")
        Path key;

        @Option(names = "--tsa", paramLabel = "URL", description = "Time-stamp the signature (sigTst2) at this RFC 3161 authority.")
        URI tsa;

        @Option(names = "--identity", paramLabel = "IDENTITY.pem", description = "Add a CAWG identity assertion signed with "
                + "this X.509 identity (a PEM file: its certificate chain, leaf first, and EC P-256 key; an encrypted key "
                + "takes --passphrase-file or PROOFMODE_PASSPHRASE), so verifiers see who signed, not just the device.")
        Path identity;

        @Mixin
        KeyOptions keyOptions;

        @Mixin
        ContextOptions context;

        @Mixin
        ProxyOptions proxy;

        @Parameters(paramLabel = "IN", description = "A JPEG, PNG, WAV, AVI or WebP, with or without content credentials.")
        Path input;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = parent.root.proofMode();
            byte[] bytes = ContentCredentials.read(input);
            Settings s = context.apply(pm.settings());
            ProofRecord record = pm.contextReader(s, context.manualLocation()).read(input);
            Optional<C2paSigner> id = Optional.ofNullable(identity).map(pem -> identity(ctx, pem)); // read before anything is created
            Map.Entry<KeyInfo, C2paSigner> unlocked = C2paAccess.unlock(ctx, pm, keyOptions, cert, key);
            Optional<TimeStamper> stamper = Optional.ofNullable(tsa).map(t -> pm.c2paTimeStamper(t, proxy.choose(pm.settings())));
            ManifestBuilder m = ContentCredentials.capture(input.getFileName().toString(), record.fields(),
                    unlocked.getKey().fingerprint(), bytes);
            id.ifPresent(m::identity);
            ContentCredentials.write(bytes, output, force, m, unlocked.getValue(), stamper);
            ctx.out().println(output);
            return ExitCodes.OK;
        }

        private C2paSigner identity(CliContext ctx, Path pem) {
            Optional<Passphrase> p = Passphrases.given(ctx, keyOptions.passphraseFile);
            try {
                return C2paSigner.fromPem(pem, p);
            } finally {
                p.ifPresent(Passphrase::close);
            }
        }
    }

    /** {@code proofmode c2pa update}. */
    @Command(name = "update", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
            usageHelpAutoWidth = true,
            description = {
                "Add an update manifest to a copy of a JPEG that has content credentials: what changes no pixel.",
                "",
                "The update manifest (C2PA 2.2 section 10.3.2) has the file's active manifest as its parentOf ingredient and no "
                    + "hard binding of its own (the content stays bound by the parent's); it records org.proofmode.proof (this "
                    + "device's OpenPGP key and the SHA-256 of IN, so the file links to its proof: prove IN too) and, with --tsa, "
                    + "an RFC 3161 time-stamp of its signature. Every other byte of IN stays as it was: the manifest store grows "
                    + "in place. JPEG only; for other formats, and for a new photo, use 'c2pa sign'.",
                ""},
            footer = {"", "Examples:", "  proofmode c2pa update --tsa https://freetsa.org/tsr phone.jpg -o phone.stamped.jpg",
                "  proofmode verify phone.stamped.jpg", "", ExitCodes.HELP_TABLE})
    static final class Update implements Callable<Integer> {
        @ParentCommand
        C2paCommand parent;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Where the updated copy goes.")
        Path output;

        @Option(names = "--force", description = "Replace OUT if it exists.")
        boolean force;

        @Option(names = "--tsa", paramLabel = "URL", description = "Time-stamp the update manifest's signature (sigTst2) at this RFC 3161 authority.")
        URI tsa;

        @Mixin
        KeyOptions keyOptions;

        @Mixin
        ProxyOptions proxy;

        @Parameters(paramLabel = "IN", description = "A JPEG with content credentials.")
        Path input;

        @Override
        public Integer call() {
            CliContext ctx = parent.root.ctx;
            ProofMode pm = parent.root.proofMode();
            byte[] bytes = ContentCredentials.read(input);
            Map.Entry<KeyInfo, C2paSigner> unlocked = C2paAccess.unlock(ctx, pm, keyOptions, null, null);
            Optional<TimeStamper> stamper = Optional.ofNullable(tsa).map(t -> pm.c2paTimeStamper(t, proxy.choose(pm.settings())));
            ContentCredentials.update(bytes, output, force, unlocked.getKey().fingerprint(),
                    java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), unlocked.getValue(), stamper);
            ctx.out().println(output);
            return ExitCodes.OK;
        }
    }
}
