// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;

/**
 * What the commands print for programs ({@code --json} of prove, export, notarize and timestamp), the one-line
 * verify ({@code --short}), and the unlock options on an encrypted home.
 */
class CommandOutputsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASSPHRASE = "outputs passphrase";

    @TempDir
    Path tmp;

    private Cli cli;
    private Path photo;

    @BeforeEach
    void setUp() throws IOException {
        cli = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", PASSPHRASE);
        photo = Files.copy(Path.of("..", "examples", "photo.jpg"), tmp.resolve("photo.jpg"));
    }

    private static List<JsonNode> lines(String out) throws IOException {
        List<JsonNode> nodes = new java.util.ArrayList<>();
        for (String l : out.lines().toList()) {
            nodes.add(JSON.readTree(l));
        }
        return nodes;
    }

    private static String unreachableTsa() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return "http://127.0.0.1:" + s.getLocalPort() + "/tsr";
        }
    }

    @Test
    void prove_printsJsonLinePerFile_provedExistingAndFailed() throws Exception {
        String sha = Digests.sha256(photo);
        Path text = Files.writeString(tmp.resolve("notes.txt"), "not media");

        Cli.Result first = cli.run("prove", "--json", photo.toString());
        Cli.Result again = cli.run("prove", "--json", photo.toString(), text.toString());

        assertThat(first.exit()).as(first.err()).isZero();
        JsonNode proved = lines(first.out()).get(0);
        assertThat(proved.get("path").asText()).isEqualTo(photo.toString());
        assertThat(proved.get("sha256").asText()).isEqualTo(sha);
        assertThat(proved.get("outcome").asText()).isEqualTo("proved");
        assertThat(Path.of(proved.get("stored").asText()).resolve(sha + ".proof.json")).isRegularFile();
        assertThat(proved.get("notices").isArray()).isTrue();
        assertThat(proved.get("timestamps").isArray()).isTrue();

        assertThat(again.exit()).isEqualTo(ExitCodes.UNSUPPORTED);
        List<JsonNode> two = lines(again.out());
        assertThat(two).hasSize(2);
        assertThat(two.get(0).get("outcome").asText()).isEqualTo("existing");
        assertThat(two.get(0).get("notices").get(0).asText()).contains("already proved");
        assertThat(two.get(1).get("path").asText()).isEqualTo(text.toString());
        assertThat(two.get(1).get("outcome").asText()).isEqualTo("skipped");
        assertThat(again.err()).doesNotContain("already proved");
    }

    @Test
    void exportNotarizeTimestamp_printJson_withDocumentedFields() throws Exception {
        String sha = Digests.sha256(photo);
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();

        Path zip = tmp.resolve("share.zip");
        Cli.Result export = cli.run("export", "--json", "--with-media", "-o", zip.toString(), photo.toString());
        assertThat(export.exit()).as(export.err()).isZero();
        JsonNode written = JSON.readTree(export.out());
        assertThat(written.get("output").asText()).isEqualTo(zip.toString());
        assertThat(written.get("bytes").asLong()).isEqualTo(Files.size(zip));
        assertThat(written.get("encryption").asText()).isEqualTo("none");
        assertThat(written.get("withMedia").asBoolean()).isTrue();
        assertThat(written.get("proofs").get(0).get("sha256").asText()).isEqualTo(sha);
        assertThat(written.get("proofs").get(0).get("media").asBoolean()).isTrue();

        Cli.Result notarize = cli.run("notarize", "--json", photo.toString());
        JsonNode n = JSON.readTree(notarize.out());
        assertThat(n.get("sha256").asText()).isEqualTo(sha);
        assertThat(n.get("signer").asText()).matches("[0-9A-F]{40}");
        assertThat(n.get("proofTime").asText()).isNotBlank();
        assertThat(n.get("text").asText()).contains(sha.substring(0, 16)).hasSizeLessThanOrEqualTo(160);

        Cli.Result stamp = cli.run("timestamp", "--json", "--tsa", unreachableTsa(), photo.toString());
        assertThat(stamp.exit()).as(stamp.err()).isZero();
        JsonNode s = JSON.readTree(stamp.out());
        assertThat(s.get("sha256").asText()).isEqualTo(sha);
        assertThat(s.get("kind").asText()).isEqualTo("rfc3161");
        assertThat(s.get("outcome").asText()).isEqualTo("queued");
        assertThat(s.get("detail").asText()).isNotBlank();
    }

    @Test
    void verifyShort_printsOneLinePerItem_verdictNameFirstFailure() throws Exception {
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        Path good = tmp.resolve("good.zip");
        assertThat(cli.run("export", "--with-media", "-o", good.toString(), photo.toString()).exit()).isZero();
        Path changed = Files.copy(photo, tmp.resolve("changed.jpg"));
        byte[] b = Files.readAllBytes(changed);
        b[b.length / 2] ^= 1;
        Files.write(changed, b);
        String sha = Digests.sha256(photo);

        Cli.Result one = cli.run("verify", "--short", good.toString());
        Cli.Result bad = cli.run("verify", "--brief", "--media", changed.toString(), tmp.resolve("home/proofs").resolve(sha).toString());

        assertThat(one.exit()).isZero();
        assertThat(one.out().lines()).containsExactly("TRUSTED    " + good);
        assertThat(bad.exit()).isEqualTo(ExitCodes.INVALID);
        assertThat(bad.out().lines()).hasSize(1);
        assertThat(bad.out()).startsWith("INVALID    " + tmp.resolve("home/proofs").resolve(sha) + "  ").contains("  signature.media.invalid ");
        assertThat(cli.run("verify", "--short", "--json", good.toString()).exit()).isEqualTo(ExitCodes.INCOMPATIBLE_OPTIONS);
    }

    @Test
    void encryptedHome_verifiesExportsTimestampsReports_withPassphraseFile() throws Exception {
        assertThat(cli.run("keys", "create", "--encrypt-store").exit()).isZero();
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        Cli.Result made = cli.run("status");
        assertThat(made.exit()).isZero();
        Path pass = Files.writeString(tmp.resolve("pass.txt"), PASSPHRASE + "\n");
        Path wrong = Files.writeString(tmp.resolve("wrong.txt"), "not it\n");
        Cli plain = new Cli(tmp.resolve("home")).env("PROOFMODE_PASSPHRASE", null);

        assertThat(plain.run("verify", photo.toString()).exit()).as("locked without a passphrase").isEqualTo(ExitCodes.KEY_LOCKED);
        Cli.Result verified = plain.run("verify", "--passphrase-file", pass.toString(), photo.toString());
        assertThat(verified.exit()).as(verified.err()).isZero();
        assertThat(plain.run("verify", "--passphrase-file", wrong.toString(), photo.toString()).exit()).isEqualTo(ExitCodes.KEY_LOCKED);

        Path zip = tmp.resolve("share.zip");
        Cli.Result exported = plain.run("export", "--passphrase-file", pass.toString(), "--proof-only", "-o", zip.toString(), photo.toString());
        assertThat(exported.exit()).as(exported.err()).isZero();
        assertThat(zip).isRegularFile();

        Cli.Result stamped = plain.run("timestamp", "--passphrase-file", pass.toString(), "--tsa", unreachableTsa(), photo.toString());
        assertThat(stamped.exit()).as(stamped.err()).isZero();
        assertThat(stamped.out()).contains("rfc3161  queued");
        assertThat(plain.run("timestamp", "--tsa", unreachableTsa(), photo.toString()).exit()).isEqualTo(ExitCodes.KEY_LOCKED);

        // A report of the proved photo reads its stored proof with the same file, and is locked without it.
        Path pdf = tmp.resolve("photo.report.pdf");
        Cli.Result reported = plain.run("report", "--no-sign", "--passphrase-file", pass.toString(), "-o", pdf.toString(), photo.toString());
        assertThat(reported.exit()).as(reported.err()).isZero();
        assertThat(pdf).isRegularFile();
        assertThat(plain.run("report", "--no-sign", "-o", tmp.resolve("locked.pdf").toString(), photo.toString()).exit())
                .isEqualTo(ExitCodes.KEY_LOCKED);
    }
}
