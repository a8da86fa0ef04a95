// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.cli.ReportTools;
import org.proofmode.testkit.Gpg;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.ProcessResult;

/**
 * {@code proofmode report} from the packaged jar: two processes write the same bytes, and gpg checks the
 * signature; a report in Arabic is drawn shaped (the jar keeps only the part of ICU4J that shapes).
 */
class ReportIT {
    @TempDir
    Path dir;

    @Test
    void report_twoProcessesWriteTheSameBytes_andGpgVerifiesTheSignature() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path photo = Files.createDirectories(dir.resolve("camera")).resolve("photo.jpg");
        Files.copy(OwnMedia.examplePhoto(), photo);
        assertThat(pm.run("prove", "--location=-33.8688,151.2093", photo.toString()).succeeded()).isTrue();
        Path zip = dir.resolve("share.zip");
        assertThat(pm.run("export", "--with-media", "-o", zip.toString(), photo.toString()).succeeded()).isTrue();
        byte[][] pdf = new byte[2][];
        byte[][] asc = new byte[2][];
        for (int i = 0; i < 2; i++) {
            Path out = Files.createDirectories(dir.resolve("run" + i)).resolve("share.report.pdf");
            ProcessResult r = pm.run("report", "--date", "2026-03-14T09:00:00Z", "-o", out.toString(), zip.toString());
            assertThat(r.succeeded()).as(r.describe()).isTrue();
            pdf[i] = Files.readAllBytes(out);
            asc[i] = Files.readAllBytes(dir.resolve("run" + i).resolve("share.report.pdf.asc"));
        }
        assertThat(pdf[1]).isEqualTo(pdf[0]);
        assertThat(asc[1]).isEqualTo(asc[0]);
        Path key = dir.resolve("KEY.asc");
        assertThat(pm.run("keys", "export", "-o", key.toString()).succeeded()).isTrue();
        try (Gpg gpg = Gpg.create(dir)) {
            gpg.importKey(key);
            ProcessResult v = gpg.verify(dir.resolve("run0/share.report.pdf.asc"), dir.resolve("run0/share.report.pdf"));
            assertThat(v.succeeded()).as(v.describe()).isTrue();
            assertThat(v.stderr()).contains("Good signature");
        }
    }

    @Test
    void report_drawsArabicJoined_fromTheJar() throws Exception {
        ProofModeJar pm = ProofModeJar.at(dir.resolve("home"));
        Path photo = Files.createDirectories(dir.resolve("camera")).resolve("photo.jpg");
        Files.copy(OwnMedia.examplePhoto(), photo);
        assertThat(pm.run("prove", photo.toString()).succeeded()).isTrue();
        Path zip = dir.resolve("share.zip");
        assertThat(pm.run("export", "-o", zip.toString(), photo.toString()).succeeded()).isTrue();
        Path out = dir.resolve("share.ar.pdf");
        ProcessResult r = pm.run("report", "--lang", "ar", "--no-sign", "-o", out.toString(), zip.toString());
        assertThat(r.succeeded()).as(r.describe()).isTrue();
        // the title's letters in their joined (initial, medial, final) forms, as ICU4J's shaping gives them
        assertThat(ReportTools.pdftotext(out)).contains("\uFE97\uFED8\uFEAE\uFEF3\uFEAE");
    }
}
