// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class SamplesTest {
    @TempDir
    Path tmp;

    @Test
    void appGoodZip_exists_locatedByBuild() {
        assertThat(Samples.appGoodZip()).isRegularFile().hasFileName("good.zip");
    }

    @Test
    void file_fails_sampleAbsent() {
        assertThatThrownBy(() -> Samples.file("proofmode/no-such-sample.zip"))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("sample missing");
    }

    @Test
    void locate_property_winsOverEnvironmentAndDefaults() throws IOException {
        Path repo = repoWithSharedAndFetched();
        Path byProperty = Files.createDirectories(tmp.resolve("by-property"));
        Path byEnv = Files.createDirectories(tmp.resolve("by-env"));
        assertThat(Samples.locate(Optional.of(byProperty.toString()), Optional.of(byEnv.toString()), Optional.of(repo)))
                .isEqualTo(byProperty);
    }

    @Test
    void locate_environment_noProperty() throws IOException {
        Path repo = repoWithSharedAndFetched();
        Path byEnv = Files.createDirectories(tmp.resolve("by-env"));
        assertThat(Samples.locate(Optional.of(" "), Optional.of(byEnv.toString()), Optional.of(repo))).isEqualTo(byEnv);
    }

    @Test
    void locate_sharedBesideRepository_nothingNamed() throws IOException {
        Path repo = repoWithSharedAndFetched();
        assertThat(Samples.locate(Optional.empty(), Optional.empty(), Optional.of(repo)))
                .isEqualTo(tmp.resolve("shared/samples"));
    }

    @Test
    void locate_fetchedFolder_noSharedBesideRepository() throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("clone"));
        Files.createDirectories(repo.resolve("target/samples"));
        assertThat(Samples.locate(Optional.empty(), Optional.empty(), Optional.of(repo)))
                .isEqualTo(repo.resolve("target/samples"));
    }

    @Test
    void locate_failsNamingFetchScript_nothingFound() throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("clone"));
        assertThatThrownBy(() -> Samples.locate(Optional.empty(), Optional.empty(), Optional.of(repo)))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("testdata/fetch-samples").hasMessageContaining("PROOFMODE_SAMPLES");
    }

    @Test
    void locate_failsNamingSource_namedFolderMissing() throws IOException {
        Path repo = repoWithSharedAndFetched();
        assertThatThrownBy(() -> Samples.locate(Optional.empty(), Optional.of(tmp.resolve("nope").toString()), Optional.of(repo)))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("from PROOFMODE_SAMPLES");
    }

    private Path repoWithSharedAndFetched() throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(tmp.resolve("shared/samples"));
        Files.createDirectories(repo.resolve("target/samples"));
        return repo;
    }
}
