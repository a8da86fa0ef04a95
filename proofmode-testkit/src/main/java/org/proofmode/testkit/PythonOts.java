// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an {@code .ots} file with the reference Python library (Debian's python3-opentimestamps):
 * its file digest, its attestations, and its own serialisation of what it read.
 *
 * @param fileHash the file hash operation's name, e.g. {@code sha256}
 * @param digest the file digest, hex
 * @param attestations one line per attestation: {@code pending <uri> <msg hex>} or {@code bitcoin <height> <msg hex>}
 * @param reserialized the library's serialisation of the file, hex
 */
public record PythonOts(String fileHash, String digest, List<String> attestations, String reserialized) {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final String SCRIPT = String.join("\n",
            "import sys",
            "from opentimestamps.core.timestamp import DetachedTimestampFile",
            "from opentimestamps.core.serialize import StreamDeserializationContext, BytesSerializationContext",
            "from opentimestamps.core.notary import PendingAttestation, BitcoinBlockHeaderAttestation",
            "with open(sys.argv[1], 'rb') as f:",
            "    d = DetachedTimestampFile.deserialize(StreamDeserializationContext(f))",
            "print('hash', d.file_hash_op.TAG_NAME)",
            "print('digest', d.file_digest.hex())",
            "for msg, a in d.timestamp.all_attestations():",
            "    if isinstance(a, PendingAttestation):",
            "        print('att pending', a.uri, msg.hex())",
            "    elif isinstance(a, BitcoinBlockHeaderAttestation):",
            "        print('att bitcoin', a.height, msg.hex())",
            "    else:",
            "        print('att other', a.TAG.hex(), msg.hex())",
            "ctx = BytesSerializationContext()",
            "d.serialize(ctx)",
            "print('bytes', ctx.getbytes().hex())", "");

    /**
     * Finds a Python 3 that can import OpenTimestamps (Debian package python3-opentimestamps): the
     * system's {@code /usr/bin/python3}, where Debian installs the package, or else the first
     * {@code python3} on the PATH.
     *
     * @return the interpreter to run
     * @throws AssertionError if none can import it: the test fails, it is never skipped
     */
    public static String python() {
        String last = "no python3 found";
        for (String python : List.of("/usr/bin/python3", "python3")) {
            Optional<Path> exe = python.startsWith("/") ? Optional.of(Path.of(python)).filter(Files::isExecutable)
                    : ExternalTool.find(python);
            if (exe.isEmpty()) {
                continue;
            }
            ProcessResult r = ExternalTool.run(List.of(exe.get().toString(), "-c", "import opentimestamps.core.timestamp"), Map.of(), TIMEOUT);
            if (r.succeeded()) {
                return exe.get().toString();
            }
            last = r.stderr();
        }
        throw new AssertionError("python3 cannot import opentimestamps, and this interop test needs it; install it: "
                + "apt-get install python3-opentimestamps; .ci/run does (" + last.strip() + ")");
    }

    /**
     * Parses a file with Python.
     *
     * @throws AssertionError if Python or the library is missing, or the library rejects the file
     */
    public static PythonOts read(Path ots) {
        ProcessResult r = ExternalTool.run(List.of(python(), "-c", SCRIPT, ots.toAbsolutePath().toString()), Map.of(), TIMEOUT);
        if (!r.succeeded()) {
            throw new AssertionError("the reference library rejects " + ots + ": " + r.describe());
        }
        String out = r.stdout();
        String hash = null;
        String digest = null;
        String bytes = null;
        List<String> atts = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("hash ")) {
                hash = line.substring(5).trim();
            } else if (line.startsWith("digest ")) {
                digest = line.substring(7).trim();
            } else if (line.startsWith("att ")) {
                atts.add(line.substring(4).trim());
            } else if (line.startsWith("bytes ")) {
                bytes = line.substring(6).trim();
            }
        }
        return new PythonOts(hash, digest, atts, bytes);
    }
}
