// SPDX-License-Identifier: Apache-2.0
// Bundle maker for bench/verify-batch.sh: one share zip per proved photo, written by the library's own
// export (BundleWriter, as `proofmode export --with-media`), all in one JVM instead of one process each.
// Run with the JDK's source launcher and the CLI jar on the class path:
//   java -cp proofmode-cli/target/proofmode.jar bench/MakeBundles.java HASHES.txt PROOFS_DIR OUT_DIR
// HASHES.txt holds `proofmode prove` output lines "<sha256>  <media path>".
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.proofmode.bundle.BundleWriter;

public class MakeBundles {
    public static void main(String[] args) throws Exception {
        Path proofs = Path.of(args[1]);
        Path out = Path.of(args[2]);
        Files.createDirectories(out);
        int n = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (!line.matches("^[0-9a-f]{64}\\s+.*")) {
                continue;
            }
            String sha = line.substring(0, 64);
            Path media = Path.of(line.substring(64).trim());
            BundleWriter.write(List.of(new BundleWriter.Item(proofs.resolve(sha), Optional.of(media))),
                    out.resolve(media.getFileName() + ".zip"), true);
            n++;
        }
        System.out.println(n);
    }
}
