// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.CalendarStub;
import org.proofmode.testkit.ExternalTool;
import org.proofmode.testkit.OpensslTsa;
import org.proofmode.testkit.ProcessResult;

/** prove --tsa/--ots, timestamp, timestamp sync/upgrade and verify, against a loopback TSA and calendar. */
class TimestampCommandTest {
    @TempDir
    static Path shared;

    private static OpensslTsa tsa;

    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeAll
    static void startTsa() throws Exception {
        tsa = OpensslTsa.start(shared.resolve("tsa"), 0);
    }

    @AfterAll
    static void stopTsa() {
        tsa.close();
    }

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase");
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Path folder(Path media) throws Exception {
        String h = Digests.sha256(media);
        return home.resolve("proofs").resolve(h);
    }

    @Test
    void prove_writesTsrThatVerifiesHereAndWithOpenssl_withTsaOption() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 21);
        String ca = tsa.caPem().toString();
        Cli.Result p = cli.run("prove", "--tsa", tsa.url().toString(), "--tsa-trust", ca, f.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        assertThat(p.err()).contains("rfc3161 timestamp written", "ProofMode Test TSA");
        String h = Digests.sha256(f);
        Path tsr = folder(f).resolve(h + ".tsr");
        assertThat(tsr).isRegularFile();
        assertThat(home.resolve("timestamp.conf")).content().contains("ots.calendar", "tsa.url");

        Cli.Result trusted = cli.run("verify", "--tsa-trust", ca, f.toString());
        assertThat(trusted.exit()).isZero();
        assertThat(trusted.out()).contains(": TRUSTED", "PASS  timestamp.rfc3161.valid", "ProofMode Test TSA", "covers the media signature");

        Cli.Result untrusted = cli.run("verify", f.toString());
        assertThat(untrusted.exit()).isZero();
        assertThat(untrusted.out()).contains("WARN  timestamp.rfc3161.untrusted").doesNotContain("timestamp.rfc3161.valid");

        Files.createDirectories(home.resolve("tsa-roots"));
        Files.copy(tsa.caPem(), home.resolve("tsa-roots/test-root.pem"));
        JsonNode json = new ObjectMapper().readTree(cli.run("verify", "--json", f.toString()).out());
        JsonNode check = json.get("proofs").get(0).get("checks").findParents("code").stream()
                .filter(c -> c.get("code").asText().equals("timestamp.rfc3161.valid")).findFirst().orElseThrow();
        assertThat(check.get("status").asText()).isEqualTo("PASS");
        assertThat(check.get("message").asText()).contains("time-stamped 20");

        // As HowToVerifyProofData.txt tells: the token carries the TSA's certificate, so the root alone is enough.
        ProcessResult ok = ExternalTool.run(List.of("openssl", "ts", "-verify", "-data", folder(f).resolve(h + ".asc").toString(),
                "-in", folder(f).resolve(h + ".tsr").toString(), "-CAfile", ca), Map.of(), Duration.ofSeconds(60));
        assertThat(ok.stdout()).as(ok.describe()).contains("Verification: OK");

        Path zip = tmp.resolve("share.zip");
        Cli.Result export = cli.run("export", "--with-media", "-o", zip.toString(), f.toString());
        assertThat(export.exit()).as(export.err()).isZero();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertThat(z.getEntry(h + ".tsr")).isNotNull();
        }
        Cli.Result bundle = cli.run("verify", "--tsa-trust", ca, zip.toString());
        assertThat(bundle.exit()).as(bundle.out()).isZero();
        assertThat(bundle.out()).contains("PASS  timestamp.rfc3161.valid", "covers the media signature");
    }

    @Test
    void verify_exits3WithImprintMismatch_whenSignatureFileChanged() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 22);
        assertThat(cli.run("timestamp", "--tsa", tsa.url().toString(), f.toString()).exit()).as("not proved yet").isEqualTo(61);
        cli.run("prove", f.toString());
        Cli.Result s = cli.run("timestamp", "--tsa", tsa.url().toString(), f.toString());
        assertThat(s.exit()).as(s.err()).isZero();
        String h = Digests.sha256(f);
        assertThat(s.out()).startsWith(h + "  rfc3161  stamped  ");
        Path asc = folder(f).resolve(h + ".asc");
        String text = Files.readString(asc);
        Files.writeString(asc, text.replace("-----END PGP SIGNATURE-----", "-----END PGP SIGNATURE----="));

        Cli.Result v = cli.run("verify", "--tsa-trust", tsa.caPem().toString(), f.toString());
        assertThat(v.exit()).isEqualTo(3);
        assertThat(v.out()).contains("FAIL  timestamp.rfc3161.invalid", "imprint mismatch");
        ProcessResult theirs = ExternalTool.run(List.of("openssl", "ts", "-verify", "-data", asc.toString(),
                "-in", folder(f).resolve(h + ".tsr").toString(), "-CAfile", tsa.caPem().toString()), Map.of(), Duration.ofSeconds(60));
        assertThat(theirs.exitCode()).as(theirs.describe()).isNotZero();
        assertThat(theirs.output()).containsIgnoringCase("message imprint mismatch");
    }

    @Test
    void verify_acceptsTokenOverMediaDigest_madeWithOpensslTs() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 28);
        String h = Digests.sha256(f);
        assertThat(cli.run("prove", f.toString()).exit()).isZero();
        // A token another tool got for the media's SHA-256 itself, rather than for our signature file.
        Path tsq = tmp.resolve("media.tsq");
        ProcessResult query = ExternalTool.run(List.of("openssl", "ts", "-query", "-digest", h, "-sha256", "-cert", "-out", tsq.toString()),
                Map.of(), Duration.ofSeconds(60));
        assertThat(query.succeeded()).as(query.describe()).isTrue();
        ProcessResult reply = OpensslTsa.reply(shared.resolve("tsa"), tsq, folder(f).resolve(h + ".tsr"));
        assertThat(reply.succeeded()).as(reply.describe()).isTrue();

        Cli.Result v = cli.run("verify", "--tsa-trust", tsa.caPem().toString(), f.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  timestamp.rfc3161.valid", "covers the media (SHA-256 ");
    }

    @Test
    void prove_queuesAndExits0_whenTsaUnreachable_andSyncStampsAfterRestart() throws Exception {
        int port = freePort();
        String url = "http://127.0.0.1:" + port + "/tsr";
        Path a = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 23);
        Path b = ProveCommandTest.jpeg(tmp, "b.jpg", 3000, 24);

        Cli.Result p = cli.run("prove", "--tsa", url, a.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        assertThat(p.out()).contains(Digests.sha256(a));
        assertThat(p.err()).contains("timestamp queued", "proofmode timestamp sync");
        assertThat(p.err().lines().filter(l -> l.contains("queued"))).hasSize(1);
        assertThat(folder(a).resolve(Digests.sha256(a) + ".asc")).isRegularFile();
        assertThat(home.resolve("timestamp-queue").resolve(Digests.sha256(a) + ".json")).isRegularFile();

        Cli.Result required = cli.run("prove", "--require-timestamp", "--tsa", url, b.toString());
        assertThat(required.exit()).isEqualTo(47);
        assertThat(folder(b).resolve(Digests.sha256(b) + ".proof.json")).isRegularFile();

        Cli.Result early = cli.run("timestamp", "sync");
        assertThat(early.exit()).isZero();
        assertThat(early.out()).isEmpty();
        assertThat(early.err()).contains("2 request(s) still queued");

        try (OpensslTsa up = OpensslTsa.start(shared.resolve("tsa"), port)) {
            Cli restarted = new Cli(home).env("PROOFMODE_PASSPHRASE", "test passphrase");
            Cli.Result sync = restarted.run("timestamp", "sync", "--now");
            assertThat(sync.exit()).as(sync.err()).isZero();
            assertThat(sync.out()).contains(Digests.sha256(a) + "  rfc3161  stamped", Digests.sha256(b) + "  rfc3161  stamped");
            assertThat(sync.err()).contains("queue is empty");
            assertThat(up.requests()).hasSize(2);
        }
        assertThat(home.resolve("timestamp-queue")).isEmptyDirectory();
        Cli.Result v = cli.run("verify", "--tsa-trust", tsa.caPem().toString(), a.toString(), b.toString());
        assertThat(v.exit()).isZero();
        assertThat(v.out()).contains("PASS  timestamp.rfc3161.valid");
    }

    @Test
    void otsFlow_pendingThenUpgradedToBitcoin_andExported() throws Exception {
        try (CalendarStub cal = CalendarStub.start(0)) {
            Files.createDirectories(home);
            Files.writeString(home.resolve("timestamp.conf"), "ots.calendar = " + cal.url() + "\n");
            Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 25);
            String h = Digests.sha256(f);
            Cli.Result p = cli.run("prove", "--ots", f.toString());
            assertThat(p.exit()).as(p.err()).isZero();
            assertThat(p.err()).contains("ots timestamp written", "pending at " + cal.url());
            assertThat(folder(f).resolve(h + ".ots")).isRegularFile();

            Cli.Result pending = cli.run("verify", f.toString());
            assertThat(pending.exit()).isZero();
            assertThat(pending.out()).contains("WARN  timestamp.ots.pending", cal.url().toString(), "the media signature");

            assertThat(cli.run("timestamp", "upgrade").out()).contains(h + "  ots  pending");
            cal.anchor(800_001);
            Cli.Result up = cli.run("timestamp", "upgrade", h);
            assertThat(up.exit()).isZero();
            assertThat(up.out()).contains(h + "  ots  upgraded", "Bitcoin block 800001");

            java.util.regex.Matcher root = java.util.regex.Pattern.compile("merkle root ([0-9a-f]{64})").matcher(up.out());
            assertThat(root.find()).as(up.out()).isTrue();
            Cli.Result done = cli.run("verify", "--json", f.toString());
            assertThat(done.exit()).isZero();
            assertThat(done.out()).contains("timestamp.ots.bitcoin", "block 800001 merkle root " + root.group(1));
            // People compare the root with a block explorer's: the text report shows it whole, not shortened like hashes.
            assertThat(cli.run("verify", f.toString()).out()).contains("INFO  timestamp.ots.bitcoin", "block 800001 merkle root " + root.group(1));

            Path zip = tmp.resolve("share.zip");
            assertThat(cli.run("export", "--proof-only", "-o", zip.toString(), f.toString()).exit()).isZero();
            try (ZipFile z = new ZipFile(zip.toFile())) {
                assertThat(z.getEntry(h + ".ots")).isNotNull();
            }
            assertThat(cli.run("verify", zip.toString()).out()).contains("INFO  timestamp.ots.bitcoin");
        }
    }

    @Test
    void timestamp_asksSettingsServices_whenNoneNamed() throws Exception {
        try (CalendarStub cal = CalendarStub.start(0)) {
            Files.createDirectories(home);
            Files.writeString(home.resolve("timestamp.conf"), "tsa.url = " + tsa.url() + "\nots.calendar = " + cal.url() + "\n");
            Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 27);
            String h = Digests.sha256(f);
            assertThat(cli.run("prove", f.toString()).exit()).isZero();
            assertThat(folder(f).resolve(h + ".tsr")).as("prove alone asks no service").doesNotExist();

            Cli.Result s = cli.run("timestamp", h);
            assertThat(s.exit()).as(s.err()).isZero();
            assertThat(s.out()).contains(h + "  rfc3161  stamped  " + tsa.url(), h + "  ots  stamped  pending at " + cal.url());
            assertThat(cal.submissions()).isEqualTo(1);
            Cli.Result v = cli.run("verify", "--tsa-trust", tsa.caPem().toString(), f.toString());
            assertThat(v.exit()).isZero();
            assertThat(v.out()).contains("PASS  timestamp.rfc3161.valid", "WARN  timestamp.ots.pending");
        }
    }

    @Test
    void timestamp_queuesOts_thenSyncStampsWhenCalendarComesUp() throws Exception {
        int port = freePort();
        Files.createDirectories(home);
        Files.writeString(home.resolve("timestamp.conf"), "ots.calendar = http://127.0.0.1:" + port + "\n");
        Path out = tmp.resolve("elsewhere");
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 3000, 26);
        String h = Digests.sha256(f);
        assertThat(cli.run("prove", "--out", out.toString(), f.toString()).exit()).isZero();
        Path proof = out.resolve(h);

        Cli.Result q = cli.run("timestamp", "--ots", proof.toString());
        assertThat(q.exit()).isZero();
        assertThat(q.out()).startsWith(h + "  ots  queued  ");
        assertThat(cli.run("timestamp", "--require-timestamp", "--ots", proof.toString()).exit()).isEqualTo(47);

        try (CalendarStub cal = CalendarStub.start(port)) {
            Cli.Result sync = new Cli(home).run("timestamp", "sync", "--now");
            assertThat(sync.exit()).as(sync.err()).isZero();
            assertThat(sync.out()).contains(h + "  ots  stamped");
            assertThat(cal.submissions()).isEqualTo(1);
        }
        assertThat(proof.resolve(h + ".ots")).isRegularFile();
        assertThat(home.resolve("timestamp-queue")).isEmptyDirectory();
    }

    @Test
    void help_teachesWithExamplesAndExitCodes_forTimestampAndItsSubcommands() {
        for (String[] args : new String[][] {{"timestamp", "--help"}, {"timestamp", "sync", "--help"}, {"timestamp", "upgrade", "--help"}}) {
            Cli.Result r = cli.run(args);
            String name = String.join(" ", args);
            assertThat(r.exit()).as(name).isZero();
            assertThat(r.out()).as(name).contains("Examples:", "  proofmode " + args[0] + " " + (args.length == 3 ? args[1] : ""),
                    "Exit codes:", "47  a timestamp service could not be reached");
        }
    }

    @Test
    void timestamp_rejectsBadUsage() {
        assertThat(cli.run("timestamp").exit()).isEqualTo(19);
        assertThat(cli.run("timestamp", "--tsa", "ftp://tsa.example/", "ab".repeat(32)).exit()).isEqualTo(37);
        assertThat(cli.run("timestamp", "--ots", "ab".repeat(32)).exit()).isEqualTo(61);
    }

    @Test
    void timestamp_goesThroughTheProxy_byName_andQueuesWhenItIsDown() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "proxied.jpg", 3000, 31);
        assertThat(cli.run("prove", f.toString()).exit()).isZero();
        int port = tsa.url().getPort();
        String viaName = "http://tsa.invalid:" + port + "/tsr";
        try (org.proofmode.testkit.SocksRecorder proxy = new org.proofmode.testkit.SocksRecorder(
                java.util.Map.of("tsa.invalid", new java.net.InetSocketAddress("127.0.0.1", port)))) {
            Cli.Result direct = cli.run("timestamp", "--tsa", viaName, f.toString());
            assertThat(direct.out()).as("no proxy: the name cannot be resolved here").contains("queued");

            Cli.Result r = cli.run("timestamp", "--proxy", proxy.url(), "--tsa", viaName, f.toString());

            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("tsa").doesNotContain("queued");
            assertThat(proxy.requests()).isNotEmpty().allSatisfy(q -> assertThat(q)
                    .isEqualTo(new org.proofmode.testkit.SocksRecorder.Request(org.proofmode.testkit.SocksRecorder.DOMAIN, "tsa.invalid", port)));
        }
        Path g = ProveCommandTest.jpeg(tmp, "proxied-later.jpg", 3000, 32);
        assertThat(cli.run("prove", g.toString()).exit()).isZero();
        cli.run("settings", "set", "publish.proxy", "socks5h://127.0.0.1:" + freePort());
        Cli.Result down = cli.run("timestamp", "--tsa", tsa.url().toString(), g.toString());
        assertThat(down.out()).as("the proxy set and down: queued, never direct").contains("queued");
    }
}
