// SPDX-License-Identifier: Apache-2.0
package org.proofmode.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.age.StoreIdentity;
import org.proofmode.bundle.ProofStore;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.Http;

class PublishQueueTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private static final URI SERVER = URI.create("https://desk.example.org");

    @TempDir
    Path tmp;

    @Test
    void add_countsAttemptsWithBackoff_perProofAndWhat() throws Exception {
        PublishQueue q = new PublishQueue(tmp.resolve("publish-queue"));
        Instant t = Instant.parse("2026-12-04T12:00:00Z");

        QueuedPublish first = q.add(A, Publisher.What.WITH_MEDIA, SERVER, Optional.empty(), t, "down");
        QueuedPublish second = q.add(A, Publisher.What.WITH_MEDIA, SERVER, Optional.empty(), t.plusSeconds(90), "still down");
        q.add(A, Publisher.What.NOTARIZE_ONLY, SERVER, Optional.of(Http.Socks.TOR), t, "down");
        q.add(B, Publisher.What.PROOF_ONLY, SERVER, Optional.empty(), t, "down");

        assertThat(first.nextTry()).isEqualTo(t.plus(Duration.ofMinutes(1)));
        assertThat(second.attempts()).isEqualTo(2);
        assertThat(second.queuedAt()).isEqualTo(t);
        assertThat(second.nextTry()).isEqualTo(t.plusSeconds(90).plus(Duration.ofMinutes(2)));
        assertThat(second.lastError()).contains("still down");
        assertThat(q.list()).extracting(QueuedPublish::sha256, QueuedPublish::what).containsExactly(
                org.assertj.core.groups.Tuple.tuple(A, Publisher.What.NOTARIZE_ONLY),
                org.assertj.core.groups.Tuple.tuple(A, Publisher.What.WITH_MEDIA),
                org.assertj.core.groups.Tuple.tuple(B, Publisher.What.PROOF_ONLY));
        assertThat(q.get(A, Publisher.What.WITH_MEDIA)).contains(second);
        assertThat(q.get(A, Publisher.What.NOTARIZE_ONLY).orElseThrow().proxy()).as("kept with its route").contains(Http.Socks.TOR);
        assertThat(q.add(A, Publisher.What.NOTARIZE_ONLY, SERVER, Optional.empty(), t, "again").proxy())
                .as("a later attempt without the proxy does not drop it").contains(Http.Socks.TOR);
        assertThat(second.due(t.plusSeconds(90))).isFalse();
        assertThat(second.due(t.plusSeconds(90 + 120))).isTrue();
        assertThat(Files.getPosixFilePermissions(q.folder().resolve(A + ".with-media.json")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));

        q.remove(A, Publisher.What.WITH_MEDIA);
        q.remove(A, Publisher.What.WITH_MEDIA);
        assertThat(q.list()).hasSize(2);
    }

    @Test
    void list_saysWhichFileIsBroken_badData() throws Exception {
        PublishQueue q = new PublishQueue(tmp.resolve("publish-queue"));
        q.add(A, Publisher.What.PROOF_ONLY, SERVER, Optional.empty(), Instant.now(), "down");
        Files.writeString(q.folder().resolve(B + ".proof-only.json"), "{\"sha256\": 1");
        Files.writeString(q.folder().resolve("notes.txt"), "not an item");

        assertThatThrownBy(q::list).isInstanceOf(ProofModeException.class)
                .satisfies(e -> assertThat(((ProofModeException) e).failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining(B + ".proof-only.json").hasMessageNotContaining("\n");
    }

    @Test
    void list_isEmpty_noFolder() {
        assertThat(new PublishQueue(tmp.resolve("none")).list()).isEmpty();
    }

    @Test
    void sealed_itemsPerProofAndWhat_underRandomNames_readWithTheIdentity() throws Exception {
        StoreIdentity id = StoreIdentity.generate();
        Path dir = tmp.resolve("publish-queue");
        PublishQueue q = new PublishQueue(dir, ProofStore.encrypted(tmp.resolve("proofs"), StoreIdentity.sealer(id.recipient()),
                Optional.of(id.opener())).queueSealing());
        Instant t = Instant.parse("2026-12-04T12:00:00Z");

        q.add(A, Publisher.What.WITH_MEDIA, SERVER, Optional.empty(), t, "down");
        QueuedPublish second = q.add(A, Publisher.What.WITH_MEDIA, SERVER, Optional.empty(), t.plusSeconds(90), "still down");
        q.add(A, Publisher.What.NOTARIZE_ONLY, SERVER, Optional.empty(), t, "down");

        assertThat(second.attempts()).isEqualTo(2);
        assertThat(q.count()).isEqualTo(2);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                assertThat(p.getFileName().toString()).matches("[0-9a-f]{32}\\.age");
                assertThat(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)).doesNotContain(A).doesNotContain("desk.example");
            }
        }
        assertThat(q.list()).extracting(QueuedPublish::what).containsExactly(Publisher.What.NOTARIZE_ONLY, Publisher.What.WITH_MEDIA);
        q.remove(A, Publisher.What.WITH_MEDIA);
        assertThat(q.list()).extracting(QueuedPublish::what).containsExactly(Publisher.What.NOTARIZE_ONLY);
        PublishQueue locked = new PublishQueue(dir, ProofStore.encrypted(tmp.resolve("proofs"), StoreIdentity.sealer(id.recipient()),
                Optional.empty()).queueSealing());
        assertThat(locked.count()).isEqualTo(1);
        assertThatThrownBy(locked::list)
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.KEY_LOCKED));
    }
}
