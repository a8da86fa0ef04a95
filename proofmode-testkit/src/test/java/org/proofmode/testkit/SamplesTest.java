package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class SamplesTest {
    @Test
    void appGoodZip_exists_propertySetByBuild() {
        assertThat(Samples.appGoodZip()).isRegularFile().hasFileName("good.zip");
    }

    @Test
    void file_fails_sampleAbsent() {
        assertThatThrownBy(() -> Samples.file("proofmode/no-such-sample.zip"))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("sample missing");
    }
}
