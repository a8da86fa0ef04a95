// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.testkit.LifecycleKeys;
import org.proofmode.testkit.LifecycleKeys.Key;
import org.proofmode.testkit.LifecycleKeys.Reason;

/** The server's {@code --trust} key is judged by its copy merged with the bundle's: a stripped revocation still counts. */
class TrustedKeyRevocationTest {
    @TempDir
    Path home;

    @Test
    void verify_reportsInvalidKeyRevoked_bundleShipsKeyWithoutRevocation() throws Exception {
        Key old = LifecycleKeys.primaryOnly("owner <o@example.org>");
        Key revoked = old.revoke(LifecycleKeys.BORN.plus(Duration.ofDays(15)), Reason.COMPROMISED);
        Map<String, byte[]> bundle = old.proofEntries("photo.jpg", "photo".getBytes(StandardCharsets.US_ASCII),
                LifecycleKeys.BORN.plus(Duration.ofDays(25)), Map.of(), old.certificate());
        ServerConfig defaults = ServerConfig.defaults(home).withListen("127.0.0.1", 0);

        try (TestServer trusting = TestServer.start(defaults.withStorage(defaults.blobDir(), List.of(revoked.certificate())));
                TestServer live = TestServer.start(ServerConfig.defaults(home.resolve("other")).withListen("127.0.0.1", 0)
                        .withStorage(home.resolve("other-blobs"), List.of(old.certificate())))) {
            HttpResponse<String> r = trusting.postZip("/api/v1/verify", TestBundles.zip(bundle), Optional.empty());
            JsonNode report = TestServer.json(r);
            assertThat(report.get("verdict").asText()).as(r.body()).isEqualTo("INVALID");
            assertThat(r.body()).contains("signature.media.keyRevoked");

            HttpResponse<String> before = live.postZip("/api/v1/verify", TestBundles.zip(bundle), Optional.empty());
            assertThat(TestServer.json(before).get("verdict").asText()).as(before.body()).isEqualTo("TRUSTED");
        }
    }
}
