// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.proofmode.ProofMode;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.server.LogPolicy;
import org.proofmode.tlog.NoteFormatException;
import org.proofmode.tlog.NoteKey;
import org.proofmode.util.InputFiles;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Option;

/** How the server's transparency-log key is made and unlocked: options shared by {@code serve} and {@code server log-key}. */
final class LogKeyOptions {
    @Option(names = "--log-origin", paramLabel = "ORIGIN", description = "Name of a new transparency log, the first line of its "
            + "checkpoints and the name of its key: a URL without scheme, e.g. evidence.example.org/log (default: HOSTNAME/proofmode-log/ and the first 8 hex digits of the new key's SHA-256, unique per installation). "
            + "Only used when the log key is made, on first start.")
    String origin;

    @Option(names = "--log-passphrase-file", paramLabel = "FILE", description = "File whose first line is the log key's passphrase. "
            + "Without it a passphrase is generated and kept owner-only beside the key (PROOFMODE_HOME/server/log-key/).")
    Path passphraseFile;

    LogPolicy policy() {
        return policy(List.of(), 0, Optional.empty());
    }

    LogPolicy policy(List<LogPolicy.WitnessRef> witnesses, int quorum, Optional<URI> tsa) {
        if (quorum < 0 || quorum > witnesses.size()) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--witness-quorum is 0 to the number of witnesses ("
                    + witnesses.size() + ")");
        }
        if (tsa.isPresent() && !List.of("http", "https").contains(String.valueOf(tsa.get().getScheme()))) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--log-tsa is an http or https URL");
        }
        return new LogPolicy(Optional.ofNullable(origin), Optional.ofNullable(passphraseFile), Duration.ofSeconds(1), witnesses, quorum, tsa);
    }

    /**
     * Reads a witnesses file: {@code <verifier key> <URL>} per line, {@code #} comments.
     *
     * @throws ProofModeException with {@link Failure#INPUT_MISSING} if there is no such file,
     *     {@link Failure#BAD_DATA} for a line that is not a witness
     */
    static List<LogPolicy.WitnessRef> witnesses(Path file) {
        InputFiles.requireRegular(file, "witnesses file");
        List<LogPolicy.WitnessRef> out = new ArrayList<>();
        String[] lines = new String(InputFiles.read(file, 1 << 20, "witnesses file"), StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            try {
                NoteKey key = NoteKey.parse(parts[0]);
                URI url = parts.length == 2 ? URI.create(parts[1]) : null;
                if (url == null || !key.cosigner() || !List.of("http", "https").contains(String.valueOf(url.getScheme()))) {
                    throw new NoteFormatException("not '<witness cosignature key> <http(s) URL>'");
                }
                out.add(new LogPolicy.WitnessRef(key, url));
            } catch (NoteFormatException | IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_DATA, file + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return out;
    }
}
