// SPDX-License-Identifier: Apache-2.0
// Load client for bench/log-intake.sh: evidence intake with 32 clients, then how long the transparency log
// takes to integrate it, how large a receipt is and how long it takes to check offline.
// Run with the JDK's source launcher and the CLI's jar on the class path:
//   java -cp proofmode.jar bench/LogLoad.java BASE_URL TOKEN CLIENTS BUNDLE_DIR LOG(true|false) NOTES
// Then NOTES notarization texts (each one log entry, no verification: the cheapest event to log).
// Prints one machine-readable line: intake_rps=R p50_ms=M p99_ms=M notes_rps=R [integrated_s=S appends_per_s=A
//   notes_appends_per_s=A receipt_bytes=B check_us=U]
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.proofmode.tlog.LogEntry;
import org.proofmode.tlog.NoteKey;
import org.proofmode.tlog.TlogProof;

public class LogLoad {
    public static void main(String[] args) throws Exception {
        String base = args[0];
        String token = args[1];
        int clients = Integer.parseInt(args[2]);
        boolean log = Boolean.parseBoolean(args[4]);
        List<byte[]> bodies = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of(args[3]))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".zip")).sorted().toList()) {
                bodies.add(Files.readAllBytes(p));
            }
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        // Warm the server's JIT with verifications that store nothing.
        for (int i = 0; i < Math.min(20, bodies.size()); i++) {
            send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/verify")).header("Content-Type", "application/zip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i))));
        }
        ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < bodies.size()) {
                    long t0 = System.nanoTime();
                    try {
                        int status = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence"))
                                .header("Content-Type", "application/zip").header("Authorization", "Bearer " + token)
                                .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i)))).statusCode();
                        if (status != 201) {
                            errors.incrementAndGet();
                            System.err.println("evidence: HTTP " + status);
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        System.err.println("evidence: " + e);
                    }
                    micros.add((System.nanoTime() - t0) / 1000);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - start) / 1e9;
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        StringBuilder out = new StringBuilder(String.format("intake_rps=%.1f p50_ms=%.0f p99_ms=%.0f errors=%d",
                bodies.size() / seconds, sorted.get(sorted.size() / 2) / 1000.0,
                sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1) / 1000.0, errors.get()));
        if (log) {
            // Every intake is one entry: wait until a checkpoint covers them all.
            long size = 0;
            while (size < bodies.size() && System.nanoTime() - start < 600e9) {
                String cp = send(http, HttpRequest.newBuilder(URI.create(base + "/log/checkpoint")).GET()).body();
                size = Long.parseLong(cp.split("\n")[1]);
                if (size < bodies.size()) {
                    Thread.sleep(20);
                }
            }
            double integrated = (System.nanoTime() - start) / 1e9;
            out.append(String.format(" integrated_s=%.2f appends_per_s=%.0f", integrated, size / integrated));
        }
        int notes = Integer.parseInt(args[5]);
        AtomicInteger nextNote = new AtomicInteger();
        ExecutorService notePool = Executors.newFixedThreadPool(clients);
        long notesStart = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            notePool.submit(() -> {
                int i;
                while ((i = nextNote.getAndIncrement()) < notes) {
                    try {
                        String text = String.format("ProofMode sha256:%064x key:%040X at:2026-12-04T20:00:00Z", i, i);
                        int status = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/notarizations"))
                                .header("Content-Type", "text/plain").header("Authorization", "Bearer " + token)
                                .POST(HttpRequest.BodyPublishers.ofString(text))).statusCode();
                        if (status != 201) {
                            errors.incrementAndGet();
                            System.err.println("notarization: HTTP " + status);
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        System.err.println("notarization: " + e);
                    }
                }
            });
        }
        notePool.shutdown();
        notePool.awaitTermination(30, TimeUnit.MINUTES);
        double notesSeconds = (System.nanoTime() - notesStart) / 1e9;
        out.append(String.format(" notes_rps=%.1f", notes / notesSeconds));
        if (log && notes > 0) {
            long size = 0;
            while (size < bodies.size() + notes && System.nanoTime() - notesStart < 600e9) {
                String cp = send(http, HttpRequest.newBuilder(URI.create(base + "/log/checkpoint")).GET()).body();
                size = Long.parseLong(cp.split("\n")[1]);
                if (size < bodies.size() + notes) {
                    Thread.sleep(20);
                }
            }
            out.append(String.format(" notes_appends_per_s=%.0f", notes / ((System.nanoTime() - notesStart) / 1e9)));
        }
        if (log) {
            // Last, since it keeps the client busy longer than the server keeps idle connections open.
            String key = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/log/key")).GET()).body().strip();
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bodies.get(bodies.size() / 2)));
            HttpResponse<String> r = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/evidence/" + sha + "/receipt"))
                    .header("Authorization", "Bearer " + token).GET());
            byte[] receipt = r.body().getBytes(StandardCharsets.UTF_8);
            List<NoteKey> keys = List.of(NoteKey.parse(key));
            // Offline check: parse the receipt, its entry, and check the proof against the signed checkpoint.
            int n = 5_000;
            long t0 = 0;
            for (int i = 0; i < 2 * n; i++) {
                if (i == n) {
                    t0 = System.nanoTime();
                }
                TlogProof p = TlogProof.parse(receipt);
                if (p.check(LogEntry.parse(p.extra().orElseThrow()).leafHash(), keys).outcome() != TlogProof.Outcome.VALID) {
                    throw new IllegalStateException("receipt does not check");
                }
            }
            double checkMicros = (System.nanoTime() - t0) / 1e3 / n;
            out.append(String.format(" receipt_bytes=%d check_us=%.0f", receipt.length, checkMicros));
        }
        System.out.println(out);
        if (errors.get() > 0) {
            System.exit(1);
        }
    }

    static HttpResponse<String> send(HttpClient http, HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
