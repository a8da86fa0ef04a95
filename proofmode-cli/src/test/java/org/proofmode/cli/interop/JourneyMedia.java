// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.proofmode.testkit.Ffmpeg;
import org.proofmode.testkit.ProcessResult;

/** What the people of {@link JourneysIT} carry: a folder of camera photos, and the share zip of them. */
final class JourneyMedia {
    private JourneyMedia() {}

    /** A folder of {@code count} real JPEG photos (FFmpeg's test picture, each in another hue). */
    static Path photos(Path folder, int count) throws IOException {
        Files.createDirectories(folder);
        for (int i = 1; i <= count; i++) {
            Ffmpeg.make(folder.resolve("IMG_000" + i + ".jpg"), "-f", "lavfi", "-i", "testsrc=size=640x480:rate=1", "-vf",
                    "hue=h=" + (i * 50), "-frames:v", "1");
        }
        return folder;
    }

    /** The files of a folder, by name. */
    static List<Path> list(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        }
    }

    /** The names of a folder's files that {@code which} picks. */
    static List<String> names(Path folder, Predicate<String> which) throws IOException {
        List<String> names = new ArrayList<>();
        for (Path p : list(folder)) {
            if (which.test(p.getFileName().toString())) {
                names.add(p.getFileName().toString());
            }
        }
        return names;
    }

    /**
     * Proves {@code count} photos in {@code pm}'s home and shares them as one zip with their media
     * ({@code export --with-media -o share.zip PHOTOS...}), in a folder of {@code dir} named after the home.
     */
    static Path share(ProofModeJar pm, Path dir, int count) throws IOException {
        String who = pm.home().getFileName().toString();
        List<Path> photos = list(photos(dir.resolve(who + "-photos"), count));
        List<String> args = new ArrayList<>(List.of("prove"));
        photos.forEach(p -> args.add(p.toString()));
        ProcessResult proved = pm.run(args.toArray(String[]::new));
        assertThat(proved.exitCode()).as(proved.describe()).isZero();
        Path zip = dir.resolve(who + "-share.zip");
        args.set(0, "export");
        args.addAll(1, List.of("--with-media", "-o", zip.toString()));
        ProcessResult exported = pm.run(args.toArray(String[]::new));
        assertThat(exported.exitCode()).as(exported.describe()).isZero();
        return zip;
    }
}
