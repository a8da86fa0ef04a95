// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.timestamp.rfc3161.TokenVerifier;
import org.proofmode.timestamp.rfc3161.TrustedRoots;
import org.proofmode.timestamp.rfc3161.TsaClient;
import org.proofmode.timestamp.rfc3161.TsaToken;
import org.proofmode.util.Http;

/** Our RFC 3161 client and verifier against {@code openssl ts}, both ways. */
class Rfc3161InteropTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private static OpensslTsa tsa;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startTsa() throws Exception {
        tsa = OpensslTsa.start(dir.resolve("tsa"), 0);
    }

    @AfterAll
    static void stopTsa() {
        tsa.close();
    }

    private static byte[] stamp(byte[] data) throws Exception {
        TsaClient client = new TsaClient(new Http(Http.Timeouts.DEFAULT), new SecureRandom());
        return client.stamp(tsa.url(), MessageDigest.getInstance("SHA-256").digest(data));
    }

    private static TokenVerifier.Candidate candidate(byte[] data) throws Exception {
        return new TokenVerifier.Candidate("the data", Optional.of(data), MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void stamp_tokenTrustedByUsAndOpenssl_withRootGiven() throws Exception {
        byte[] data = "-----BEGIN PGP SIGNATURE-----\nnot really\n-----END PGP SIGNATURE-----\n".getBytes();
        Path asc = Files.write(tmp.resolve("x.asc"), data);
        Path tsr = Files.write(tmp.resolve("x.tsr"), stamp(data));

        TokenVerifier.Result ours = new TokenVerifier(TrustedRoots.read(tsa.caPem())).verify(Files.readAllBytes(tsr), List.of(candidate(data)));
        assertThat(ours.kind()).as(ours.message()).isEqualTo(TokenVerifier.Kind.VALID);
        assertThat(ours.message()).contains("ProofMode Test TSA", "covers the data");
        assertThat(ours.genTime()).isPresent();

        ProcessResult theirs = ExternalTool.run(List.of("openssl", "ts", "-verify", "-data", asc.toString(), "-in", tsr.toString(),
                "-CAfile", tsa.caPem().toString(), "-untrusted", tsa.tsaPem().toString()), Map.of(), TIMEOUT);
        assertThat(theirs.succeeded()).as(theirs.describe()).isTrue();
        assertThat(theirs.stdout()).contains("Verification: OK");

        // openssl also checks our request against the token: same imprint, same nonce.
        List<byte[]> received = tsa.requests();
        Path tsq = Files.write(tmp.resolve("x.tsq"), received.get(received.size() - 1));
        ProcessResult byRequest = ExternalTool.run(List.of("openssl", "ts", "-verify", "-queryfile", tsq.toString(), "-in", tsr.toString(),
                "-CAfile", tsa.caPem().toString()), Map.of(), TIMEOUT);
        assertThat(byRequest.succeeded()).as(byRequest.describe()).isTrue();
        assertThat(byRequest.stdout()).contains("Verification: OK");
    }

    @Test
    void stamp_refusesBadData_forReplayedTokenOfEarlierRequest() throws Exception {
        byte[] data = "the same signature, stamped twice".getBytes();
        byte[] earlier = stamp(data);
        // An authority (or someone in between) that answers every request with that earlier token:
        // same imprint, but not the nonce of the new request.
        HttpServer replay = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        replay.createContext("/tsr", ex -> {
            try (ex) {
                ex.getRequestBody().readAllBytes();
                ex.getResponseHeaders().add("Content-Type", TsaClient.REPLY_TYPE);
                ex.sendResponseHeaders(200, earlier.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(earlier);
                }
            }
        });
        replay.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + replay.getAddress().getPort() + "/tsr");
            TsaClient client = new TsaClient(new Http(Http.Timeouts.DEFAULT), new SecureRandom());
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(data);
            assertThatThrownBy(() -> client.stamp(url, digest))
                    .isInstanceOfSatisfying(ProofModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_DATA))
                    .hasMessageContaining("does not answer our request");
        } finally {
            replay.stop(0);
        }
    }

    @Test
    void verify_untrusted_withoutRoots() throws Exception {
        byte[] data = "signature bytes".getBytes();
        TokenVerifier.Result r = new TokenVerifier(List.of()).verify(stamp(data), List.of(candidate(data)));
        assertThat(r.kind()).isEqualTo(TokenVerifier.Kind.UNTRUSTED);
        assertThat(r.message()).contains("not trusted", "--tsa-trust");
    }

    @Test
    void verify_untrusted_forTokenChainingToAnotherRoot() throws Exception {
        // The token carries the authority's whole chain, root included: that root must not count as trusted.
        Path other = Files.createDirectories(dir.resolve("other-root"));
        OpensslTsa.makeCertificates(other);
        byte[] data = "signature bytes".getBytes();
        byte[] tsr = stamp(data);
        TokenVerifier.Result r = new TokenVerifier(TrustedRoots.read(other.resolve("ca.pem"))).verify(tsr, List.of(candidate(data)));
        assertThat(r.kind()).as(r.message()).isEqualTo(TokenVerifier.Kind.UNTRUSTED);
        assertThat(r.message()).contains("does not chain to a trusted root");
        assertThat(TsaToken.parse(tsr).certificates()).as("the token carries its root").hasSize(2);
    }

    @Test
    void verify_imprintMismatchInBoth_forFlippedByte() throws Exception {
        byte[] data = "the media signature, armored".getBytes();
        Path tsr = Files.write(tmp.resolve("x.tsr"), stamp(data));
        byte[] changed = data.clone();
        changed[3] ^= 1;
        Path asc = Files.write(tmp.resolve("x.asc"), changed);

        TokenVerifier.Result ours = new TokenVerifier(TrustedRoots.read(tsa.caPem())).verify(Files.readAllBytes(tsr), List.of(candidate(changed)));
        assertThat(ours.kind()).isEqualTo(TokenVerifier.Kind.INVALID);
        assertThat(ours.message()).contains("imprint mismatch");

        ProcessResult theirs = ExternalTool.run(List.of("openssl", "ts", "-verify", "-data", asc.toString(), "-in", tsr.toString(),
                "-CAfile", tsa.caPem().toString(), "-untrusted", tsa.tsaPem().toString()), Map.of(), TIMEOUT);
        assertThat(theirs.exitCode()).as(theirs.describe()).isNotZero();
        assertThat(theirs.output()).containsIgnoringCase("message imprint mismatch");
    }

    @Test
    void verify_invalid_forTamperedTokenSignature() throws Exception {
        byte[] data = "data".getBytes();
        byte[] tsr = stamp(data);
        // The signature value is at the end of the DER: flip a byte inside it.
        tsr[tsr.length - 5] ^= 0x01;
        TokenVerifier.Result r = new TokenVerifier(TrustedRoots.read(tsa.caPem())).verify(tsr, List.of(candidate(data)));
        assertThat(r.kind()).isEqualTo(TokenVerifier.Kind.INVALID);
        assertThat(r.message()).contains("bad token signature");
    }

    @Test
    void verify_invalid_forMalformedSignatureValue() throws Exception {
        byte[] data = "data".getBytes();
        byte[] tsr = stamp(data);
        // The token ends with the ECDSA signature, SEQUENCE { INTEGER r, INTEGER s }: break the tag of r.
        int seq = -1;
        for (int i = tsr.length - 3; i >= 0 && seq < 0; i--) {
            if (tsr[i] == 0x30 && i + 2 + (tsr[i + 1] & 0xff) == tsr.length && tsr[i + 2] == 0x02) {
                seq = i;
            }
        }
        assertThat(seq).as("the signature value at the end of the token").isPositive();
        tsr[seq + 2] = (byte) 0xa9;
        TokenVerifier.Result r = new TokenVerifier(TrustedRoots.read(tsa.caPem())).verify(tsr, List.of(candidate(data)));
        assertThat(r.kind()).isEqualTo(TokenVerifier.Kind.INVALID);
        assertThat(r.message()).contains("bad token signature");
    }

    @Test
    void request_parsesWithOpenssl_andCarriesNonceAndCertRequest() throws Exception {
        stamp("anything".getBytes());
        List<byte[]> received = tsa.requests();
        Path tsq = Files.write(tmp.resolve("req.tsq"), received.get(received.size() - 1));
        ProcessResult text = ExternalTool.run(List.of("openssl", "ts", "-query", "-in", tsq.toString(), "-text"), Map.of(), TIMEOUT);
        assertThat(text.succeeded()).as(text.describe()).isTrue();
        assertThat(text.stdout()).contains("Hash Algorithm: sha256", "Certificate required: yes").containsPattern("Nonce: 0x[0-9A-F]+");
    }

    @Test
    void verify_acceptsToken_madeByOpensslForOurData() throws Exception {
        byte[] data = "made by openssl ts -query".getBytes();
        Path file = Files.write(tmp.resolve("d.asc"), data);
        Path tsq = tmp.resolve("q.tsq");
        ProcessResult query = ExternalTool.run(List.of("openssl", "ts", "-query", "-data", file.toString(), "-sha256", "-cert",
                "-out", tsq.toString()), Map.of(), TIMEOUT);
        assertThat(query.succeeded()).as(query.describe()).isTrue();
        Path tsr = tmp.resolve("r.tsr");
        ProcessResult reply = OpensslTsa.reply(dir.resolve("tsa"), tsq, tsr);
        assertThat(reply.succeeded()).as(reply.describe()).isTrue();
        TokenVerifier.Result r = new TokenVerifier(TrustedRoots.read(tsa.caPem())).verify(Files.readAllBytes(tsr), List.of(candidate(data)));
        assertThat(r.kind()).as(r.message()).isEqualTo(TokenVerifier.Kind.VALID);
    }
}
