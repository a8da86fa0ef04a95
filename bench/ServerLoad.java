// SPDX-License-Identifier: Apache-2.0
// Load client for bench/server-load.sh: concurrent verify and evidence uploads on loopback.
// Run with the JDK's source launcher: java bench/ServerLoad.java BASE_URL TOKEN CLIENTS ROUNDS BUNDLE_DIR
// Prints a table and, last, one machine-readable line. CPU_PIDS="name:pid ..." (environment): the processor
// time each of those processes used during the intakes, per intake, is added to that line.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

public class ServerLoad {
    record Phase(String name, int requests, int errors, double seconds, List<Long> micros) {
        double rate() { return requests / seconds; }
        double pct(double p) {
            List<Long> s = new ArrayList<>(micros);
            Collections.sort(s);
            return s.isEmpty() ? 0 : s.get((int) Math.min(s.size() - 1, Math.ceil(p * s.size()) - 1)) / 1000.0;
        }
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        String token = args[1];
        int clients = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        List<Path> bundles;
        try (Stream<Path> s = Files.list(Path.of(args[4]))) {
            bundles = s.filter(p -> p.toString().endsWith(".zip")).sorted().toList();
        }
        List<byte[]> bodies = new ArrayList<>();
        for (Path b : bundles) {
            bodies.add(Files.readAllBytes(b));
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        // Warm up the server's JIT (not counted): a few verifications one at a time, then, if asked, more at
        // full concurrency (args[5]: how many), as a server that has run a while has had.
        for (int i = 0; i < Math.min(20, bodies.size()); i++) {
            post(http, base + "/api/v1/verify", bodies.get(i), null);
        }
        int warmup = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        if (warmup > 0) {
            List<byte[]> warmWork = new ArrayList<>();
            for (int i = 0; i < warmup; i++) {
                warmWork.add(bodies.get(i % bodies.size()));
            }
            run("warm-up", http, clients, warmWork, base + "/api/v1/verify", null, 200);
        }
        List<byte[]> verifyWork = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            verifyWork.addAll(bodies);
        }
        Phase verify = run("verify", http, clients, verifyWork, base + "/api/v1/verify", null, 200);
        // Processor time of other processes during the intakes alone (env CPU_PIDS="name:pid ..."; e.g. the server, a store)
        String[] watched = System.getenv().getOrDefault("CPU_PIDS", "").trim().split("\\s+");
        long[] before = new long[watched.length];
        for (int i = 0; i < watched.length; i++) {
            before[i] = watched[i].isEmpty() ? 0 : cpuMillis(watched[i]);
        }
        Phase evidence = run("evidence", http, clients, bodies, base + "/api/v1/evidence", token, 201);
        StringBuilder cpu = new StringBuilder();
        for (int i = 0; i < watched.length; i++) {
            if (!watched[i].isEmpty()) {
                cpu.append(String.format(" cpu_ms_per_intake_%s=%.2f", watched[i].split(":")[0],
                        (cpuMillis(watched[i]) - before[i]) / (double) bodies.size()));
            }
        }

        // Every stored item must be there, whole: fetch each bundle back and compare its hash.
        int lost = 0;
        for (byte[] b : bodies) {
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence/" + sha + "/bundle"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200 || !java.util.Arrays.equals(r.body(), b)) {
                lost++;
            }
        }
        System.out.printf("%-9s %8s %7s %10s %9s %9s %9s%n", "phase", "requests", "errors", "req/s", "p50 ms", "p99 ms", "max ms");
        for (Phase p : List.of(verify, evidence)) {
            System.out.printf("%-9s %8d %7d %10.1f %9.1f %9.1f %9.1f%n", p.name(), p.requests(), p.errors(), p.rate(),
                    p.pct(0.50), p.pct(0.99), p.pct(1.0));
        }
        System.out.printf("stored %d bundles, lost %d%n", bodies.size(), lost);
        System.out.printf("server-load clients=%d verify_rps=%.1f verify_p99_ms=%.1f evidence_rps=%.1f evidence_p99_ms=%.1f "
                + "errors=%d lost=%d bundles=%d%s%n", clients, verify.rate(), verify.pct(0.99), evidence.rate(),
                evidence.pct(0.99), verify.errors() + evidence.errors(), lost, bodies.size(), cpu);
        if (verify.errors() + evidence.errors() + lost > 0) {
            System.exit(1);
        }
    }

    /** The processor time (user + system) process "name:pid" has used so far, in milliseconds. */
    static long cpuMillis(String namePid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + namePid.split(":")[1] + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 1000 / 100; // fields 14 and 15, in ticks of 1/100 s
    }

    static Phase run(String name, HttpClient http, int clients, List<byte[]> work, String url, String token, int expect)
            throws Exception {
        ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < work.size()) {
                    long t0 = System.nanoTime();
                    try {
                        int status = post(http, url, work.get(i), token);
                        if (status != expect) {
                            errors.incrementAndGet();
                            System.err.println(name + ": HTTP " + status);
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        System.err.println(name + ": " + e);
                    }
                    micros.add((System.nanoTime() - t0) / 1000);
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.MINUTES)) {
            throw new IllegalStateException(name + " did not finish in 30 minutes");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Phase(name, work.size(), errors.get(), seconds, new ArrayList<>(micros));
    }

    static int post(HttpClient http, String url, byte[] body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/zip")
                .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
