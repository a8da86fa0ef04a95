// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.OwnMedia;

/**
 * The stranger's instructions in an exported bundle ({@code HowToVerifyProofData.txt}): unpacked, every line
 * of it that starts with {@code $} is pasted into bash in that folder, with real sha256sum and gpg.
 */
class HowToVerifyTest {
    @TempDir
    Path tmp;

    /** The commands of the instructions: each line that starts with {@code $ }, after its indentation. */
    private static List<String> commands(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.stripLeading().startsWith("$ ")) {
                out.add(line.stripLeading().substring(2));
            }
        }
        return out;
    }

    /** Every file the instructions list under "Files", as the first word of a line indented by two spaces. */
    private static List<String> listedFiles(String text) {
        String files = text.substring(text.indexOf("Files\n-----\n"), text.indexOf("\n\n", text.indexOf("Files\n-----\n")));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^  (\\S.*)$").matcher(files);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private List<ReportTools.Ran> paste(Path zip, String name) throws Exception {
        Path dir = ReportTools.unpack(zip, tmp.resolve(name));
        String text = Files.readString(dir.resolve("HowToVerifyProofData.txt"), StandardCharsets.UTF_8);
        try (Stream<Path> s = Files.list(dir)) {
            List<String> inBundle = s.map(p -> p.getFileName().toString()).toList();
            assertThat(inBundle).containsAll(listedFiles(text));
            assertThat(listedFiles(text)).containsExactlyInAnyOrderElementsOf(inBundle);
        }
        assertThat(text).contains("export GNUPGHOME=\"$(mktemp -d)\"").doesNotContain("<HASH>", "<media file>", "tsa-root.pem");
        List<String> commands = commands(text);
        assertThat(commands).anyMatch(c -> c.startsWith("gpg --batch --verify"));
        assertThat(commands.indexOf("export GNUPGHOME=\"$(mktemp -d)\"")).isLessThan(commands.indexOf("gpg --batch --quiet --import pubkey.asc"));
        List<ReportTools.Ran> ran = ReportTools.run(commands, dir, tmp.resolve("t-" + name));
        for (ReportTools.Ran r : ran) {
            assertThat(r.exit()).as("%s printed %s", r.command(), r.output()).isZero();
        }
        return ran;
    }

    @Test
    void instructions_useTheBundlesNamesAndHashes_andEveryCommandWorks_withMediaAndProofOnly() throws Exception {
        Cli cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase");
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path plain = Files.copy(OwnMedia.examplePhoto(), in.resolve("IMG_0001.jpg"));
        Path foreign = in.resolve("写真 📷.jpg");
        Files.write(foreign, Files.readAllBytes(plain));
        Files.write(foreign, new byte[] {9}, java.nio.file.StandardOpenOption.APPEND);
        assertThat(cli.run("prove", plain.toString(), foreign.toString()).exit()).isZero();

        Path media = tmp.resolve("media.zip");
        Cli.Result e = cli.run("export", "--with-media", "-o", media.toString(), plain.toString(), foreign.toString());
        assertThat(e.exit()).as(e.err()).isZero();
        List<ReportTools.Ran> ran = paste(media, "media");
        String all = String.join("\n", ran.stream().map(ReportTools.Ran::output).toList());
        assertThat(all).contains("IMG_0001.jpg: OK", "media-" + Digests.sha256(foreign).substring(0, 12) + ".jpg: OK", "Good signature");
        assertThat(all).doesNotContain("BAD signature", "FAILED");
        assertThat(ran.stream().filter(r -> r.command().startsWith("gpg --batch --verify"))).hasSize(6)
                .allMatch(r -> r.output().contains("Good signature"));

        Path proofOnly = tmp.resolve("proof-only.zip");
        assertThat(cli.run("export", "--proof-only", "-o", proofOnly.toString(), plain.toString()).exit()).isZero();
        List<ReportTools.Ran> proofs = paste(proofOnly, "proof-only");
        assertThat(proofs).noneMatch(r -> r.command().contains("sha256sum"));
        assertThat(proofs.stream().filter(r -> r.command().startsWith("gpg --batch --verify"))).hasSize(2)
                .allMatch(r -> r.output().contains("Good signature"));
    }

    @Test
    void instructions_inArabicThenEnglish_andEveryCommandWorks_withLangOption() throws Exception {
        Cli cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase").env("LANG", "C.UTF-8");
        Path plain = Files.copy(OwnMedia.examplePhoto(), Files.createDirectories(tmp.resolve("in")).resolve("IMG_0001.jpg"));
        assertThat(cli.run("prove", plain.toString()).exit()).isZero();
        Path zip = tmp.resolve("ar.zip");
        Cli.Result e = cli.run("export", "--lang", "ar", "-o", zip.toString(), plain.toString());
        assertThat(e.exit()).as(e.err()).isZero();

        List<ReportTools.Ran> ran = paste(zip, "ar");
        String text = Files.readString(tmp.resolve("ar").resolve("HowToVerifyProofData.txt"), StandardCharsets.UTF_8);
        assertThat(text).startsWith("كيف تتحقق من هذا الإثبات بنفسك\n");
        assertThat(text.indexOf("How to check this proof yourself")).isGreaterThan(text.indexOf("التوقيعات صحيحة"));
        // each of the three signatures twice: under the Arabic, then under the English; every one passes
        assertThat(ran.stream().filter(r -> r.command().startsWith("gpg --batch --verify"))).hasSize(6)
                .allMatch(r -> r.output().contains("Good signature"));
    }

    @Test
    void instructions_inTheLocalesLanguage_withoutLangOption_andEnglishWithC() throws Exception {
        Cli cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", "test passphrase").env("LANG", "zh_CN.UTF-8");
        Path plain = Files.copy(OwnMedia.examplePhoto(), Files.createDirectories(tmp.resolve("in")).resolve("IMG_0001.jpg"));
        assertThat(cli.run("prove", plain.toString()).exit()).isZero();
        Path zh = tmp.resolve("zh.zip");
        assertThat(cli.run("export", "--proof-only", "-o", zh.toString(), plain.toString()).exit()).isZero();
        String text = Files.readString(ReportTools.unpack(zh, tmp.resolve("zh")).resolve("HowToVerifyProofData.txt"), StandardCharsets.UTF_8);
        assertThat(text).startsWith("如何自行核验此证明\n").contains("\nHow to check this proof yourself\n");

        Path en = tmp.resolve("en.zip");
        assertThat(cli.env("LANG", "C.UTF-8").env("LC_ALL", "uk_UA.UTF-8").run("export", "--proof-only", "--lang", "en", "-o", en.toString(),
                plain.toString()).exit()).isZero();
        assertThat(Files.readString(ReportTools.unpack(en, tmp.resolve("en")).resolve("HowToVerifyProofData.txt"), StandardCharsets.UTF_8))
                .startsWith("How to check this proof yourself\n").doesNotContain("Як самостійно");

        Cli.Result bad = cli.run("export", "--proof-only", "--lang", "xx", "-o", tmp.resolve("xx.zip").toString(), plain.toString());
        assertThat(bad.exit()).isEqualTo(ExitCodes.BAD_OPTION);
        assertThat(bad.err()).contains("no texts in language 'xx'");
        assertThat(tmp.resolve("xx.zip")).doesNotExist();
    }
}
