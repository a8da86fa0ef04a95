// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.service.ProblemType;

/** Pins the one mapping from failures to problem documents; docs/http-api.md prints the same table. */
class ProblemsTest {
    @Test
    void of_mapsEveryFailure_pinnedTable() {
        Map<Failure, ProblemType> expected = new EnumMap<>(Failure.class);
        expected.put(Failure.INPUT_MISSING, ProblemType.NOT_FOUND);
        expected.put(Failure.BAD_DATA, ProblemType.BAD_BUNDLE);
        expected.put(Failure.BAD_ARGUMENT, ProblemType.BAD_REQUEST);
        expected.put(Failure.UNSUPPORTED, ProblemType.UNSUPPORTED);
        expected.put(Failure.KEY_LOCKED, ProblemType.INTERNAL);
        expected.put(Failure.OUTPUT_EXISTS, ProblemType.CONFLICT);
        expected.put(Failure.INCOMPATIBLE_OPTIONS, ProblemType.BAD_REQUEST);
        expected.put(Failure.SERVICE_UNREACHABLE, ProblemType.UPSTREAM);
        expected.put(Failure.IO, ProblemType.UNAVAILABLE);
        expected.put(Failure.INTERNAL, ProblemType.INTERNAL);
        for (Failure f : Failure.values()) {
            assertThat(Problems.of(f)).as(f.name()).isEqualTo(expected.get(f));
        }
    }

    @Test
    void problemTypes_haveStableStatusesAndSlugs_pinnedTable() {
        String table = Arrays.stream(ProblemType.values()).map(t -> t.status() + " " + t.slug())
                .collect(Collectors.joining(", "));
        assertThat(table).isEqualTo("400 bad-request, 401 unauthorized, 403 forbidden, 403 scope, 404 not-found, "
                + "405 method-not-allowed, 409 conflict, 413 too-large, 415 unsupported-media-type, 422 bad-bundle, "
                + "422 unsupported, 429 rate-limited, 500 internal, 502 upstream, 503 unavailable, 507 insufficient-storage");
    }

    @Test
    void document_hidesDetail_internalAndStorageFailures() {
        ObjectNode io = Problems.document(new ProofModeException(Failure.IO, "/srv/secret/path: disk full"), "/api/v1/evidence");
        assertThat(io.get("status").asInt()).isEqualTo(503);
        assertThat(io.toString()).doesNotContain("/srv/secret");
        ObjectNode bug = Problems.document(new IllegalStateException("/srv/secret"), "/x");
        assertThat(bug.get("type").asText()).isEqualTo("urn:proofmode:problem:internal");
        assertThat(bug.toString()).doesNotContain("/srv/secret");
    }

    @Test
    void document_keepsDetail_badBundle() {
        ObjectNode p = Problems.document(new ProofModeException(Failure.BAD_DATA, "x.zip: unsafe entry name ../a"), "/api/v1/verify");
        assertThat(p.get("type").asText()).isEqualTo("urn:proofmode:problem:bad-bundle");
        assertThat(p.get("detail").asText()).isEqualTo("x.zip: unsafe entry name ../a");
        assertThat(p.get("instance").asText()).isEqualTo("/api/v1/verify");
    }
}
