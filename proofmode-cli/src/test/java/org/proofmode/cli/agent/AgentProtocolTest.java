// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's wire format and which commands it takes; the agent at work is in the CLI's AgentTest. */
class AgentProtocolTest {
    @TempDir
    Path dir;

    @Test
    void forwardable_onlyProveWithoutOtherSecretsAndVerify() {
        assertThat(AgentServer.forwardable(List.of("prove", "a.jpg"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("--stacktrace", "prove", "--notes", "x", "a.jpg"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("prove", "--c2pa", "a.jpg"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("prove", "--help"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("verify", "a.zip"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("verify", "--help"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("export", "--proof-only", "-o", "s.zip", "a.jpg"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("status", "--json"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("export", "--help"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("compare", "a.mp4", "b.mp4"))).isTrue();
        assertThat(AgentServer.forwardable(List.of("compare", "--passphrase-file", "p", "a.mp4", "b.mp4"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("inspect", "a.zip"))).isFalse();
        assertThat(AgentServer.forwardable(List.of("keys", "export", "prove"))).isFalse();
        assertThat(AgentServer.forwardable(List.of())).isFalse();
    }

    @Test
    void read_fails_notARequest() {
        byte[] junk = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> AgentProtocol.Request.read(new DataInputStream(new ByteArrayInputStream(junk))))
                .isInstanceOf(IOException.class).hasMessage("not a proofmode agent request");
    }

    @Test
    void read_roundTrips_request() throws Exception {
        AgentProtocol.Request r = new AgentProtocol.Request(AgentProtocol.Kind.RUN, "b", dir, true,
                List.of("prove", "ünïcode.jpg"), Map.of("LANG", "de_DE.UTF-8"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.write(new DataOutputStream(bytes));
        assertThat(AgentProtocol.Request.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())))).isEqualTo(r);
    }
}
