// SPDX-License-Identifier: Apache-2.0
// Image hashes alone, for bench/prove-photos.sh: the pixel and perceptual hashes of every photo
// (ImageHashes.of, as a proof with image hashes on makes them), on THREADS threads of one warm JVM,
// without the rest of a proof. Run with the JDK's source launcher and the CLI jar on the class path:
//   java -cp proofmode-cli/target/proofmode.jar bench/ImageHashRate.java THREADS RUNS FILES0
// FILES0 lists the photos, each name ended by a NUL byte. One untimed pass warms the JVM; prints the best
// of RUNS timed passes over all the photos, in seconds.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.proofmode.imaging.ImageHashes;

public class ImageHashRate {
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        List<Path> photos = new ArrayList<>();
        for (String name : new String(Files.readAllBytes(Path.of(args[2])), StandardCharsets.UTF_8).split("\0")) {
            if (!name.isEmpty()) {
                photos.add(Path.of(name));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            pass(pool, threads, photos);
            double best = Double.MAX_VALUE;
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                pass(pool, threads, photos);
                best = Math.min(best, (System.nanoTime() - t0) / 1e9);
            }
            System.out.printf("%.3f%n", best);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Hashes every photo once, each thread taking the next photo not yet taken. */
    private static void pass(ExecutorService pool, int threads, List<Path> photos) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                for (int i; (i = next.getAndIncrement()) < photos.size(); ) {
                    if (!ImageHashes.of(photos.get(i)).pixelHash().startsWith(ImageHashes.V2)) {
                        throw new IllegalStateException(photos.get(i) + ": not hashed by TurboJPEG (version 2)");
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
    }
}
