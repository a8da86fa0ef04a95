// SPDX-License-Identifier: Apache-2.0
// Client for bench/search-scale.sh: evidence searches of each kind against a running server, one at a time.
// Run with the JDK's source launcher: java bench/SearchLoad.java BASE_URL TOKEN REQUESTS SIGNERS_FILE MEDIA_FILE
// Prints one line per kind: kind=K p50_ms=M p99_ms=M results=N, then a machine-readable last line.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class SearchLoad {
    private static final Pattern NEXT = Pattern.compile("\"next\" *: *\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        String base = args[0];
        String token = args[1];
        int n = Integer.parseInt(args[2]);
        List<String> signers = Files.readAllLines(Path.of(args[3])).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
        List<String> media = Files.readAllLines(Path.of(args[4])).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        Random rnd = new Random(42);
        Map<String, IntFunction<String>> kinds = new LinkedHashMap<>();
        kinds.put("newest", i -> "limit=100");
        kinds.put("signer", i -> "limit=100&signer=" + signers.get(rnd.nextInt(signers.size())));
        kinds.put("media", i -> "media=" + media.get(rnd.nextInt(media.size())));
        kinds.put("day", i -> {
            int d = rnd.nextInt(300);
            return "limit=100&from=" + java.time.LocalDate.of(2020, 2, 1).plusDays(d) + "&to=" + java.time.LocalDate.of(2020, 2, 2).plusDays(d);
        });
        kinds.put("place", i -> {
            int lat = rnd.nextInt(120) - 60;
            int lon = rnd.nextInt(358) - 179;
            return "limit=100&bbox=" + lat + "," + lon + "," + (lat + 1) + "," + (lon + 1);
        });
        StringBuilder last = new StringBuilder("search-scale");
        for (Map.Entry<String, IntFunction<String>> k : kinds.entrySet()) {
            for (int i = 0; i < 20; i++) {
                get(http, base, token, k.getValue().apply(i));
            }
            List<Double> ms = new ArrayList<>();
            long results = 0;
            for (int i = 0; i < n; i++) {
                String q = k.getValue().apply(i);
                long t0 = System.nanoTime();
                String body = get(http, base, token, q);
                ms.add((System.nanoTime() - t0) / 1e6);
                results += body.split("\"evidence\"", -1).length - 1;
            }
            Collections.sort(ms);
            double p50 = ms.get(ms.size() / 2);
            double p99 = ms.get((int) Math.ceil(0.99 * ms.size()) - 1);
            System.out.printf("kind=%s p50_ms=%.1f p99_ms=%.1f results_per_request=%.1f%n", k.getKey(), p50, p99, results / (double) n);
            last.append(String.format(" %s_p99_ms=%.1f", k.getKey(), p99));
        }
        // Deep pages: 20 pages of 500 in a row, each read after the one before (keyset).
        List<Double> ms = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 20; page++) {
            long t0 = System.nanoTime();
            String body = get(http, base, token, "limit=500" + (after == null ? "" : "&after=" + after));
            ms.add((System.nanoTime() - t0) / 1e6);
            Matcher m = NEXT.matcher(body);
            if (!m.find()) {
                break;
            }
            after = m.group(1);
        }
        System.out.printf("kind=pages-of-500 first_ms=%.1f twentieth_ms=%.1f%n", ms.get(0), ms.get(ms.size() - 1));
        System.out.println(last);
    }

    static String get(HttpClient http, String base, String token, String query) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence?" + query))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(query + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }
}
