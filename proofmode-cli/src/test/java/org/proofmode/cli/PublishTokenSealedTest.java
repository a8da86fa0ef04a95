// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.server.ProofServer;
import org.proofmode.server.ServerConfig;
import org.proofmode.server.store.TokenScope;
import org.proofmode.server.store.TokenStore;

/**
 * The upload token in a home whose store is encrypted: sealed to the store, never in clear on disk,
 * {@code status} tells it is set while the home is locked, and {@code publish} unlocks it as any sealed read.
 */
class PublishTokenSealedTest {
    @TempDir
    Path tmp;

    private ProofServer server;
    private String token;
    private Path home;
    private Path photo;

    @BeforeEach
    void setUp() throws Exception {
        server = ProofServer.start(ServerConfig.defaults(tmp.resolve("server")).withListen("127.0.0.1", 0));
        token = new TokenStore(server.database()).create("field-anna", TokenScope.UPLOAD).secret();
        home = tmp.resolve("home");
        photo = ProveCommandTest.jpeg(tmp, "photo.jpg", 120, 41);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Cli unlocked() {
        return new Cli(home).env("PROOFMODE_PASSPHRASE", "field passphrase");
    }

    /** Every file under the home that holds the token, with or without its prefix. */
    private List<Path> holdingToken() throws IOException {
        try (Stream<Path> files = Files.walk(home)) {
            return files.filter(Files::isRegularFile).filter(f -> {
                try {
                    return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(token.substring(3));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @Test
    void login_sealsTheToken_encryptedHome() throws Exception {
        Cli cli = unlocked();
        assertThat(cli.run("keys", "create", "--encrypt-store").exit()).isZero();
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        Path t = Files.writeString(tmp.resolve("token"), token + "\n");

        Cli.Result login = new Cli(home).run("publish", "login", "--token-file", t.toString(), "http://127.0.0.1:" + server.port());
        assertThat(login.exit()).as(login.err()).isZero();
        assertThat(login.out()).contains("the server takes the token 'field-anna', scope upload", "token.age", "sealed");
        assertThat(holdingToken()).isEmpty();
        assertThat(home.resolve("publish/token")).doesNotExist();

        Cli.Result status = new Cli(home).run("status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("upload token: set, sealed to the encrypted store");

        Cli.Result locked = new Cli(home).run("publish", "--proof-only", photo.toString());
        assertThat(locked.exit()).isEqualTo(ExitCodes.KEY_LOCKED);

        Cli.Result published = cli.run("publish", "--proof-only", photo.toString());
        assertThat(published.exit()).as(published.err()).isZero();
        assertThat(published.out()).startsWith(Digests.sha256(photo) + "  published  ");

        Cli.Result wiped = cli.run("wipe", "--keys", "--yes");
        assertThat(wiped.exit()).as(wiped.err()).isZero();
        assertThat(wiped.err()).contains("upload token overwritten and removed");
        assertThat(home.resolve("publish/token.age")).doesNotExist();
    }

    @Test
    void encryptStore_sealsAClearTokenAndRemovesIt_tokenKeptBefore() throws Exception {
        Cli cli = unlocked();
        assertThat(cli.run("keys", "create").exit()).isZero();
        assertThat(cli.run("prove", photo.toString()).exit()).isZero();
        Path t = Files.writeString(tmp.resolve("token"), token + "\n");
        assertThat(cli.run("publish", "login", "--token-file", t.toString(), "http://127.0.0.1:" + server.port()).exit()).isZero();
        assertThat(holdingToken()).containsExactly(home.resolve("publish/token"));
        Files.delete(t);

        Cli.Result encrypted = cli.run("keys", "encrypt-store");
        assertThat(encrypted.exit()).as(encrypted.err()).isZero();
        assertThat(holdingToken()).isEmpty();
        assertThat(home.resolve("publish/token.age")).isRegularFile();

        Cli.Result published = cli.run("publish", "--proof-only", photo.toString());
        assertThat(published.exit()).as(published.err()).isZero();
        assertThat(published.out()).startsWith(Digests.sha256(photo) + "  published  ");
    }
}
