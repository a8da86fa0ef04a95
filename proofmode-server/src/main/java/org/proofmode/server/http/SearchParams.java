// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import io.javalin.http.Context;
import java.util.Locale;
import java.util.Optional;
import org.proofmode.proof.ProofTimes;
import org.proofmode.server.service.ApiException;
import org.proofmode.server.service.ProblemType;
import org.proofmode.server.store.DbTime;
import org.proofmode.server.store.EvidenceSearch;
import org.proofmode.util.Hex;

/** Reads the query parameters of an evidence search. */
final class SearchParams {
    private SearchParams() {}

    static EvidenceSearch.Query query(Context ctx) {
        Optional<String> signer = param(ctx, "signer").map(s -> {
            String f = s.replace(" ", "");
            if (!f.matches("(?i)[0-9a-f]{40}")) {
                throw new ApiException(ProblemType.BAD_REQUEST, "signer is a key fingerprint, 40 hex digits");
            }
            return f.toUpperCase(Locale.ROOT);
        });
        Optional<String> media = param(ctx, "media").map(m -> {
            if (!Hex.isSha256(m)) {
                throw new ApiException(ProblemType.BAD_REQUEST, "media is a SHA-256, 64 hex digits");
            }
            return m.toLowerCase(Locale.ROOT);
        });
        Optional<String> from = param(ctx, "from").map(t -> time("from", t));
        Optional<String> to = param(ctx, "to").map(t -> time("to", t));
        Optional<double[]> box = param(ctx, "bbox").map(SearchParams::box);
        int limit = param(ctx, "limit").map(SearchParams::limit).orElse(100);
        Optional<EvidenceSearch.Cursor> after = param(ctx, "after").map(a -> EvidenceSearch.Cursor.parse(a).orElseThrow(() ->
                new ApiException(ProblemType.BAD_REQUEST, "after is the 'next' value of the page before")));
        return new EvidenceSearch.Query(signer, media, from, to, box, limit, after);
    }

    private static Optional<String> param(Context ctx, String name) {
        return Optional.ofNullable(ctx.queryParam(name)).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static String time(String name, String text) {
        String t = text.matches("\\d{4}-\\d{2}-\\d{2}") ? text + "T00:00:00Z" : text;
        return ProofTimes.parse(t).map(DbTime::format).orElseThrow(() ->
                new ApiException(ProblemType.BAD_REQUEST, name + " is a date (2024-05-01) or an ISO-8601 time"));
    }

    private static double[] box(String text) {
        String[] p = text.split(",");
        if (p.length != 4) {
            throw new ApiException(ProblemType.BAD_REQUEST, "bbox is south,west,north,east in degrees");
        }
        double[] b = new double[4];
        try {
            for (int i = 0; i < 4; i++) {
                b[i] = Double.parseDouble(p[i].strip());
                if (!Double.isFinite(b[i])) {
                    throw new ApiException(ProblemType.BAD_REQUEST, "bbox is south,west,north,east in degrees, finite numbers");
                }
            }
        } catch (NumberFormatException e) {
            throw new ApiException(ProblemType.BAD_REQUEST, "bbox is south,west,north,east in degrees");
        }
        if (Math.abs(b[0]) > 90 || Math.abs(b[2]) > 90 || Math.abs(b[1]) > 180 || Math.abs(b[3]) > 180 || b[0] > b[2]) {
            throw new ApiException(ProblemType.BAD_REQUEST, "bbox is south,west,north,east in degrees, south <= north");
        }
        return b;
    }

    private static int limit(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= EvidenceSearch.MAX_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the problem below
        }
        throw new ApiException(ProblemType.BAD_REQUEST, "limit is 1 to " + EvidenceSearch.MAX_LIMIT);
    }
}
