// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportJsonReadTest {
    @Test
    void read_givesBackTheReportThatWasWritten() {
        String h = "bd22aac03e413025d8c9215016e64d99e5e84694bd5e89441b3356df48226f57";
        VerificationReport r = new VerificationReport("share.zip", Verdict.VALID,
                List.of(new Check(CheckCodes.BUNDLE_PUBKEY_PRESENT, Status.PASS, "pubkey.asc", "public key X")),
                List.of(new ProofReport(h, Optional.of(h), Optional.of("IMG <1>.jpg"), Verdict.VALID,
                        List.of(new Check(CheckCodes.MEDIA_HASH_MATCH, Status.PASS, "IMG <1>.jpg", "matches"),
                                new Check(CheckCodes.SIGNER_UNTRUSTED, Status.WARN, "F", "not trusted")),
                        Optional.of(new Signer("2203B54EA283FFE875249ACE5B7F901C5B584B2B", "ed25519", "me", false)),
                        Map.of("Notes", "a\nb", "Location.Latitude", "52.5"), Map.of("Proof Generated", "2026-03-14T09:00:00Z"))));
        VerificationReport back = ReportJson.read(ReportJson.toNode(r));
        assertThat(back).isEqualTo(r);
        assertThat(ReportJson.write(back)).isEqualTo(ReportJson.write(r));
    }

    @Test
    void read_refusesWhatIsNotAReport() throws Exception {
        assertThatThrownBy(() -> ReportJson.read(new ObjectMapper().readTree("{\"verdict\":\"VALID\"}")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReportJson.read(new ObjectMapper().readTree(
                "{\"source\":\"x\",\"verdict\":\"MAYBE\",\"checks\":[],\"proofs\":[]}"))).isInstanceOf(IllegalArgumentException.class);
    }
}
