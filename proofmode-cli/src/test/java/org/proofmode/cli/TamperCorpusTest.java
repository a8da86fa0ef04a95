// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.proofmode.ProofMode;
import org.proofmode.bundle.BundleLimits;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.keys.KeyType;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.Passphrase;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenStore;
import org.proofmode.testkit.Samples;
import org.proofmode.testkit.TamperCorpus.Variant;
import org.proofmode.testkit.TamperCorpus;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.verify.Verdict;
import org.proofmode.verify.VerificationReport;
import org.proofmode.verify.Verifier;

/**
 * Walks the tamper corpus derived from our own bundles (Ed25519 and RSA-4096 keys) and from the
 * ProofMode app's {@code good.zip}: every variant gets the verdict and the check code it is named after.
 * A summary with the detection rate is written to {@code target/tamper-corpus.txt}.
 */
class TamperCorpusTest {
    @TempDir
    static Path dir;

    private static final List<Variant> VARIANTS = new ArrayList<>();
    private static final List<String> RESULTS = new ArrayList<>();
    private static PGPPublicKeyRing ed25519Signer;
    private static PGPPublicKeyRing rsaSigner;
    private static PGPPublicKeyRing appSigner;

    @BeforeAll
    static void deriveCorpus() throws Exception {
        ProofMode attackerHome = ProofMode.at(dir.resolve("attacker"));
        attackerHome.keys().create(KeyType.ED25519, Optional.of(Passphrase.adopt("attacker".toCharArray())));
        TamperCorpus corpus = new TamperCorpus(Files.createDirectories(dir.resolve("corpus")),
                attackerHome.keys().unlock(Passphrase.adopt("attacker".toCharArray())));

        Path[] ours = bundles("ed25519", 2);
        ed25519Signer = ProofMode.at(dir.resolve("home-ed25519")).keys().certificate();
        Path[] rsa = bundles("rsa4096", 2);
        rsaSigner = ProofMode.at(dir.resolve("home-rsa4096")).keys().certificate();
        Path app = Samples.appGoodZip();
        appSigner = OpenPgpKeys.readCertificates(org.proofmode.testkit.Tamper.readZip(app).get("pubkey.asc"), "pubkey.asc").get(0);

        VARIANTS.addAll(corpus.derive("ours-ed25519", ours[0], ours[1]));
        VARIANTS.addAll(corpus.derive("ours-rsa4096", rsa[0], rsa[1]));
        VARIANTS.addAll(corpus.derive("app", app, ours[0]));
        VARIANTS.addAll(corpus.deriveKeyLifecycle("lifecycle", Files.readAllBytes(
                ProveCommandTest.jpeg(dir.resolve("media-lifecycle"), "photo.jpg", 3000, 99))));
        // A proof logged on a real server, with the receipt the server gave for it.
        try (ProofServer server = ProofServer.start(ServerConfig.defaults(dir.resolve("server")).withListen("127.0.0.1", 0))) {
            Path logged = LogCommandTest.logged(server, new TokenStore(server.database()).create("desk").secret(), ours[0], dir);
            VARIANTS.addAll(corpus.deriveReceipt("ours-logged", logged, server.logKey()));
        }
    }

    /** Proves and exports {@code count} distinct photos with a fresh key of the given type. */
    private static Path[] bundles(String keyType, int count) throws Exception {
        Cli cli = new Cli(dir.resolve("home-" + keyType)).env("PROOFMODE_PASSPHRASE", "corpus");
        Path[] out = new Path[count];
        for (int i = 0; i < count; i++) {
            Path media = ProveCommandTest.jpeg(dir.resolve("media-" + keyType), "photo" + i + ".jpg", 4000 + i, 100 + i);
            assertThat(cli.run("prove", "--key-type", keyType, media.toString()).exit()).isZero();
            out[i] = dir.resolve(keyType + "-" + i + ".zip");
            assertThat(cli.run("export", "--with-media", "-o", out[i].toString(), media.toString()).exit()).isZero();
        }
        return out;
    }

    static Stream<Variant> variants() {
        return VARIANTS.stream();
    }

    private static List<NoteKey> logKeys(Variant v) {
        return v.logKeys().stream().map(k -> {
            try {
                return NoteKey.parse(k);
            } catch (NoteFormatException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    private static PGPPublicKeyRing realSigner(Variant v) {
        return v.name().startsWith("app") ? appSigner : v.name().startsWith("ours-rsa4096") ? rsaSigner : ed25519Signer;
    }

    private static Path realSignerFile(Variant v) {
        Path f = dir.resolve("real-signer-" + v.name() + ".asc");
        try {
            return Files.write(f, OpenPgpKeys.armor(realSigner(v)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void verify_givesNamedCodeAndVerdict_corpusVariant(Variant v) {
        Verifier untrusting = new Verifier(List.of(), BundleLimits.DEFAULT);
        assertThat(v.zip().getFileName().toString()).as("named after its check code").endsWith("." + v.code() + ".zip");
        if (v.expect() == TamperCorpus.Expect.REJECTED) {
            assertThatThrownBy(() -> untrusting.verify(v.zip(), Optional.empty()))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA));
            RESULTS.add(v.name() + " REJECTED detected");
            return;
        }
        List<PGPPublicKeyRing> trust = v.trust().map(t -> OpenPgpKeys.readCertificates(read(t), t.toString())).orElse(List.of());
        VerificationReport r = new Verifier(trust, BundleLimits.DEFAULT).withLogKeys(logKeys(v)).verify(v.zip(), Optional.empty());
        assertThat(r.has(v.code())).as(v.name() + " reports " + v.code() + " in " + r.allChecks()).isTrue();
        switch (v.expect()) {
            case INVALID -> assertThat(r.verdict()).as(v.name()).isEqualTo(Verdict.INVALID);
            case VALID, FLAGGED -> assertThat(r.verdict()).as(v.name()).isEqualTo(Verdict.VALID);
            case ESCAPED -> {
                assertThat(r.verdict()).as(v.name()).isEqualTo(Verdict.VALID);
                Cli.Result cli = new Cli(dir.resolve("home-verifier")).run("verify", v.zip().toString());
                assertThat(cli.exit()).as(cli.err()).isZero();
                assertThat(cli.out().chars().filter(c -> c != '\n').noneMatch(c -> Character.getType(c) == Character.CONTROL
                        || (c >= 0x202a && c <= 0x202e) || c == 0x2028 || c == 0x2029)).as(cli.out()).isTrue();
                assertThat(cli.out().lines().filter(l -> l.matches("\\s*PASS\\s+signature\\.media\\.valid.*")).count()).as(cli.out()).isEqualTo(1);
            }
            case VALID_UNTRUSTED -> {
                assertThat(r.verdict()).as(v.name()).isEqualTo(Verdict.VALID);
                VerificationReport trusted = new Verifier(List.of(realSigner(v)), BundleLimits.DEFAULT).verify(v.zip(), Optional.empty());
                assertThat(trusted.verdict()).as(v.name() + " with the real key trusted").isNotEqualTo(Verdict.TRUSTED);
                Cli.Result cli = new Cli(dir.resolve("home-verifier"))
                        .run("verify", "--trust", realSignerFile(v).toString(), "--require-trusted", v.zip().toString());
                assertThat(cli.exit()).as(v.name() + " verify --trust REAL --require-trusted: " + cli.err()).isEqualTo(43);
            }
            default -> throw new IllegalStateException(v.expect().name());
        }
        RESULTS.add(v.name() + " " + v.expect() + (v.isAttack() ? " detected" : " accepted"));
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void writeSummary() throws Exception {
        long attacks = VARIANTS.stream().filter(Variant::isAttack).count();
        long detected = RESULTS.stream().filter(s -> s.endsWith(" detected")).count();
        List<String> lines = new ArrayList<>();
        lines.add("variants " + VARIANTS.size() + ", attacks " + attacks + ", detected " + detected
                + String.format(java.util.Locale.ROOT, " (%.1f%%)", attacks == 0 ? 0.0 : 100.0 * detected / attacks));
        lines.addAll(RESULTS);
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            Files.write(target.resolve("tamper-corpus.txt"), lines);
        }
    }
}
