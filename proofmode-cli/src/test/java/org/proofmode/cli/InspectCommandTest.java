// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.media.Digests;
import org.proofmode.testkit.OwnMedia;

class InspectCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private Cli cli;
    private Path home;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        cli = new Cli(home);
    }

    @Test
    void inspect_printsTheRecord_withoutKeyOrStore() throws Exception {
        Path photo = OwnMedia.examplePhoto();

        Cli.Result r = cli.run("inspect", "--json", photo.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode n = JSON.readTree(r.out());
        assertThat(n.get("File Hash SHA256").asText()).isEqualTo(Digests.sha256(photo));
        assertThat(n.get("EXIF.Make").asText()).isEqualTo("ProofMode"); // written by exiftool: examples/README.md
        assertThat(n.get("EXIF.Model").asText()).isEqualTo("Test Pattern Camera");
        assertThat(n.get("Image.PerceptualHash").asText()).matches("[0-9a-f]{16}");
        assertThat(n.has("Proof.Signer")).isFalse();
        assertThat(n.has("Location.Latitude")).isFalse();
        assertThat(n.has("EXIF.GPSLatitude")).isFalse();
        assertThat(home.resolve("keys")).doesNotExist();
        assertThat(home.resolve("proofs")).doesNotExist();
    }

    @Test
    void inspect_recordsTheGivenPosition_withLocationCoordinates() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 1);

        JsonNode n = JSON.readTree(cli.run("inspect", "--json", "--location=-33.8568,151.2153,12", f.toString()).out());

        assertThat(n.get("Location.Latitude").asText()).isEqualTo("-33.8568");
        assertThat(n.get("Location.Longitude").asText()).isEqualTo("151.2153");
        assertThat(n.get("Location.Accuracy").asText()).isEqualTo("12");
        assertThat(n.get("Location.Provider").asText()).isEqualTo("manual");
    }

    @Test
    void location_withoutValue_turnsLocationOnAndLeavesThePathAlone() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 1);
        cli.run("settings", "set", "gpsd.port", "1");

        Cli.Result r = cli.run("inspect", "--json", "--location", f.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(JSON.readTree(r.out()).get("Warning.Location").asText()).contains("gpsd not reachable at 127.0.0.1:1");
    }

    @Test
    void location_exits37_forBadCoordinates_and83_withNoLocation() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 1);

        assertThat(cli.run("inspect", "--location", "95,10", f.toString()).exit()).isEqualTo(37);
        assertThat(cli.run("inspect", "--location", "--no-location", f.toString()).exit()).isEqualTo(83);
    }

    @Test
    void inspect_exits13_forAFileThatIsNotMedia() throws Exception {
        Path f = Files.writeString(tmp.resolve("notes.txt"), "hello");

        assertThat(cli.run("inspect", f.toString()).exit()).isEqualTo(13);
        assertThat(cli.run("inspect", tmp.resolve("missing.jpg").toString()).exit()).isEqualTo(61);
    }

    @Test
    void noOptions_turnOffForThisRun_whatTheSettingsTurnOn() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 1);
        for (String key : new String[] {"location", "network", "device-ids"}) {
            assertThat(cli.run("settings", "set", key, "true").exit()).isZero();
        }
        cli.run("settings", "set", "gpsd.port", "1");

        JsonNode on = JSON.readTree(cli.run("inspect", "--json", f.toString()).out());
        Cli.Result r = cli.run("inspect", "--json", "--no-location", "--no-network", "--no-device-ids", f.toString());

        assertThat(on.has("Network.Interfaces")).isTrue();
        assertThat(on.has("Device.Hostname")).isTrue();
        assertThat(on.has("Warning.Location")).isTrue();
        assertThat(r.exit()).as(r.err()).isZero();
        java.util.List<String> names = new java.util.ArrayList<>();
        JSON.readTree(r.out()).fieldNames().forEachRemaining(names::add);
        assertThat(names).contains("Device.OS.Name").noneMatch(n -> n.startsWith("Network.") || n.startsWith("Location.")
                || n.equals("Warning.Location") || n.equals("Device.Hostname") || n.equals("Device.MachineId"));
        assertThat(cli.run("settings", "get", "network").out().strip()).isEqualTo("true");
    }

    @Test
    void inspect_exits37WithOneLine_forAFolder() throws Exception {
        Cli.Result r = cli.run("inspect", tmp.toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(37);
        assertThat(r.err().strip()).isEqualTo("proofmode: " + tmp + ": is a folder, not a photo, video or audio file");
    }

    @Test
    void prove_writesASignedJ3mDocument_withJ3m() throws Exception {
        Path f = ProveCommandTest.jpeg(tmp, "a.jpg", 100, 4);
        String h = Digests.sha256(f);

        Cli.Result r = cli.env("PROOFMODE_PASSPHRASE", "pw").run("prove", "--j3m", "--notes", "for the desk", f.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        Path folder = home.resolve("proofs").resolve(h);
        JsonNode j3m = JSON.readTree(folder.resolve(h + ".j3m.json").toFile());
        JsonNode proof = JSON.readTree(folder.resolve(h + ".proof.json").toFile());
        assertThat(j3m.at("/genealogy/hashes/0").asText()).isEqualTo(h);
        assertThat(j3m.at("/genealogy/createdOnDevice").asText()).isEqualTo(proof.get("Proof.Signer").asText());
        assertThat(j3m.at("/genealogy/j3m_version").asText()).isEqualTo("J3M version 1.0");
        assertThat(j3m.at("/intent/intendedDestination").asText()).isEqualTo("for the desk");
        assertThat(j3m.at("/data/sensorCapture/0/captureType").asInt()).isEqualTo(271);
        assertThat(folder.resolve(h + ".j3m.json.asc")).exists();
        Cli.Result v = cli.run("verify", f.toString());
        assertThat(v.exit()).as(v.out()).isZero();
        assertThat(v.out()).contains("PASS  signature.j3m.valid");

        java.nio.file.Files.writeString(folder.resolve(h + ".j3m.json"),
                java.nio.file.Files.readString(folder.resolve(h + ".j3m.json")).replace("for the desk", "for the dusk"));
        Cli.Result tampered = cli.run("verify", f.toString());
        assertThat(tampered.exit()).as(tampered.out()).isEqualTo(3);
        assertThat(tampered.out()).contains("FAIL  signature.j3m.invalid");
    }
}
