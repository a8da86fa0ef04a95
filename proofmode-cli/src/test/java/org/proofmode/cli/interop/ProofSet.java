// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.proofmode.testkit.ProcessResult;
import org.proofmode.testkit.Tamper;

/**
 * The files of one proof: a folder holding {@code <h>.proof.json}, {@code <h>.proof.csv}, their
 * signatures, the media signature {@code <h>.asc} and {@code pubkey.asc}, plus the media file (in the
 * folder for a bundle, elsewhere for a stored proof).
 *
 * @param folder the folder of the proof files
 * @param sha256 the media's SHA-256, lower-case hex
 * @param media the media file
 */
record ProofSet(Path folder, String sha256, Path media) {
    /** One signature and the file it signs. */
    record Signed(String subject, Path signature, Path data) {}

    /**
     * Proves {@code media} with {@code proofmode prove OPTIONS MEDIA} and returns its stored proof.
     * Fails the test unless the command succeeds and prints the media's real SHA-256.
     */
    static ProofSet prove(ProofModeJar pm, Path media, String... options) throws IOException {
        String[] args = new String[options.length + 2];
        args[0] = "prove";
        System.arraycopy(options, 0, args, 1, options.length);
        args[args.length - 1] = media.toString();
        ProcessResult r = pm.run(args);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        String sha = TestMedia.sha256(media);
        assertThat(r.stdout()).as(r.describe()).isEqualTo(sha + "  " + media + "\n");
        ProofSet set = new ProofSet(pm.proofFolder(sha), sha, media);
        for (Signed s : set.signed()) {
            assertThat(s.signature()).isRegularFile();
        }
        assertThat(set.pubkey()).isRegularFile();
        return set;
    }

    /**
     * Unzips a flat share bundle into {@code folder} (entry names reduced to their file names) and
     * returns its proof.
     *
     * @param mediaName the media file's name inside the bundle
     */
    static ProofSet unzip(Path zip, Path folder, String sha256, String mediaName) throws IOException {
        Files.createDirectories(folder);
        for (Map.Entry<String, byte[]> e : Tamper.readZip(zip).entrySet()) {
            Files.write(folder.resolve(Path.of(e.getKey()).getFileName().toString()), e.getValue());
        }
        return new ProofSet(folder, sha256, folder.resolve(mediaName));
    }

    /** {@code <h>.asc}. */
    Path mediaSig() {
        return folder.resolve(sha256 + ".asc");
    }

    /** {@code <h>.proof.json}. */
    Path json() {
        return folder.resolve(sha256 + ".proof.json");
    }

    /** {@code <h>.proof.json.asc}. */
    Path jsonSig() {
        return folder.resolve(sha256 + ".proof.json.asc");
    }

    /** {@code <h>.proof.csv}. */
    Path csv() {
        return folder.resolve(sha256 + ".proof.csv");
    }

    /** {@code <h>.proof.csv.asc}. */
    Path csvSig() {
        return folder.resolve(sha256 + ".proof.csv.asc");
    }

    /** {@code pubkey.asc}. */
    Path pubkey() {
        return folder.resolve("pubkey.asc");
    }

    /** The three signatures with the files they sign: media, proof JSON, proof CSV. */
    List<Signed> signed() {
        return List.of(new Signed("media", mediaSig(), media), new Signed("proofJson", jsonSig(), json()),
                new Signed("proofCsv", csvSig(), csv()));
    }

    /**
     * Copies the proof files and the media into {@code dir}, making a bundle folder as a recipient
     * would unpack it.
     */
    ProofSet bundleIn(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Path f : List.of(mediaSig(), json(), jsonSig(), csv(), csvSig(), pubkey())) {
            Files.copy(f, dir.resolve(f.getFileName()));
        }
        Path m = Files.copy(media, dir.resolve(media.getFileName()));
        return new ProofSet(dir, sha256, m);
    }
}
