// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

class SettingsFileTest {
    @TempDir
    Path dir;

    @Test
    void load_writesDocumentedDefaults_whenFileIsMissing() throws IOException {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));

        Settings s = f.load();

        assertThat(s).isEqualTo(Settings.defaults());
        assertThat(s.location()).isFalse();
        assertThat(s.network()).isFalse();
        assertThat(s.deviceIds()).isFalse();
        assertThat(s.j3m()).isFalse();
        String text = Files.readString(f.path());
        for (SettingKey k : SettingKey.values()) {
            assertThat(text).contains("\n" + k.key() + " = " + k.defaultValue() + "\n");
            assertThat(text).contains("# " + k.comment().get(0));
        }
    }

    @Test
    void set_replacesTheLineAndKeepsComments_whenKeyIsPresent() throws IOException {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));
        Files.writeString(f.path(), "# mine\nlocation = false # not a comment here\nnetwork=off\n");
        assertThatThrownBy(f::load).isInstanceOf(ProofModeException.class);
        Files.writeString(f.path(), "# mine\nlocation = false\nnetwork=off\n");

        Settings s = f.set(SettingKey.NETWORK, "yes");

        assertThat(s.network()).isTrue();
        assertThat(Files.readAllLines(f.path())).containsExactly("# mine", "location = false", "network = true");
    }

    @Test
    void set_appendsTheKeyWithItsComment_whenKeyIsAbsent() throws IOException {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));
        Files.writeString(f.path(), "location = true\n");

        f.set(SettingKey.GPSD_PORT, "29470");

        assertThat(f.load().gpsdPort()).isEqualTo(29470);
        assertThat(f.load().location()).isTrue();
        assertThat(Files.readString(f.path())).contains("# gpsd's TCP port.\ngpsd.port = 29470");
    }

    @Test
    void set_failsWithBadArgument_whenValueIsInvalid() {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));

        assertThatThrownBy(() -> f.set(SettingKey.LOCATION, "maybe"))
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_ARGUMENT))
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> f.set(SettingKey.GPSD_PORT, "70000")).isInstanceOf(ProofModeException.class);
        assertThatThrownBy(() -> f.set(SettingKey.GPSD_HOST, "two words")).isInstanceOf(ProofModeException.class);
    }

    @Test
    void load_failsNamingTheLine_whenKeyIsUnknown() throws IOException {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));
        Files.write(f.path(), List.of("# comment", "", "locaton = true"), StandardCharsets.UTF_8);

        assertThatThrownBy(f::load)
                .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                .hasMessageContaining("line 3").hasMessageContaining("unknown setting 'locaton'");
    }

    @Test
    void load_fails_whenKeyIsSetTwice() throws IOException {
        SettingsFile f = new SettingsFile(dir.resolve("settings"));
        Files.write(f.path(), List.of("network = false", "network = true"), StandardCharsets.UTF_8);

        assertThatThrownBy(f::load).isInstanceOf(ProofModeException.class).hasMessageContaining("line 2");
    }

    @Property(tries = 50)
    void setThenLoad_givesTheValue_forAnyPort(@ForAll @IntRange(min = 1, max = 65535) int port) throws IOException {
        Path d = Files.createTempDirectory("settings");
        SettingsFile f = new SettingsFile(d.resolve("settings"));

        f.set(SettingKey.GPSD_PORT, Integer.toString(port));

        assertThat(f.load().gpsdPort()).isEqualTo(port);
        assertThat(f.load().with(SettingKey.GPSD_PORT, "2947")).isEqualTo(Settings.defaults());
    }
}
