// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.proofmode.i18n.Language;
import org.proofmode.i18n.Texts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code proofmode help sharing}: the three ways to share a proof, what each reveals and when to use
 * which. A help topic, not a command: it is hidden from the command list and only prints this text.
 *
 * <p>The text below is the English source. In another language ({@code help sharing --lang LANG}, else the
 * locale, as {@code export} chooses), the same text comes first in that language ({@code
 * i18n/sharing_TAG.properties}, one key a line: {@code header}, {@code d.N} for the N-th line here), then in
 * English: whoever the user shows it to can check it against the English.
 */
@Command(name = "sharing", hidden = true, usageHelpAutoWidth = true,
        header = "How to share a proof: notarize only, share proof only, share proof with media.",
        synopsisHeading = "",
        customSynopsis = {"proofmode help sharing [--lang LANG]", ""},
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
    private static final String LANG = "--lang";
    private static final String LANG_HELP = "The language to show this text in, before the English: en, es, fr, ar, uk or zh-Hans"
            + " (default: from the locale, LC_ALL, LC_MESSAGES or LANG).";

    CommandSpec spec;

    @Option(names = LANG, paramLabel = "LANG", description = LANG_HELP)
    Optional<String> lang = Optional.empty();

    /** Takes the spec, and shows its description in the reader's language before the English. */
    @Spec
    void spec(CommandSpec s) {
        this.spec = s;
        s.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION, help -> {
            String english = help.description();
            Language language = language();
            if (language == Language.EN) {
                return english;
            }
            String[] source = s.usageMessage().description();
            try {
                s.usageMessage().description(translated(source, language));
                return help.description() + "\n" + english;
            } finally {
                s.usageMessage().description(source);
            }
        });
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Lets {@code proofmode help sharing --lang LANG} name the language: the help command itself takes the option
     * (it has no other use there).
     */
    static void acceptLanguage(CommandLine root) {
        CommandLine help = root.getSubcommands().get("help");
        if (help != null && help.getCommandSpec().findOption(LANG) == null) {
            help.getCommandSpec().addOption(OptionSpec.builder(LANG).paramLabel("LANG").type(String.class).description(LANG_HELP).build());
        }
    }

    /** The language asked for with --lang (on this topic or on help), else the locale's. */
    private Language language() {
        Optional<String> asked = lang;
        Map<String, String> env = Map.of();
        CommandSpec root = spec.root();
        if (root != spec && root.userObject() instanceof Main) {
            env = CommandRoot.ctx(spec).env();
            CommandLine help = root.subcommands().get("help");
            OptionSpec option = help == null ? null : help.getCommandSpec().findOption(LANG);
            if (asked.isEmpty() && option != null && option.getValue() != null) {
                asked = Optional.of(option.getValue());
            }
        }
        return Language.chosen(asked, env);
    }

    /**
     * The description in a language: its header first, each line of the English that has words by its
     * translation ({@code d.N}, indented as the English line is), the lines that have none (blank) as they are,
     * and a last line saying that the English follows.
     */
    static String[] translated(String[] english, Language language) {
        Texts t = Texts.of(Texts.Family.SHARING, language);
        List<String> out = new ArrayList<>();
        out.add(t.own("header").orElse(""));
        out.add("");
        for (int i = 0; i < english.length; i++) {
            String indent = english[i].substring(0, english[i].length() - english[i].stripLeading().length());
            out.add(english[i].isBlank() ? english[i] : t.own("d." + i).map(d -> indent + d).orElse(english[i]));
        }
        out.add(t.own("english").orElse(""));
        out.add("");
        out.add("-".repeat(72));
        return out.toArray(String[]::new);
    }
}
