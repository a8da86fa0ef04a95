// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.proofmode.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.proofmode.bundle.BundleWriter;
import org.proofmode.c2pa.LocalCa;
import org.proofmode.c2pa.ManifestBuilder;
import org.proofmode.keys.Passphrase;
import org.proofmode.prove.ProveResult;
import org.proofmode.prove.Prover;
import org.proofmode.sign.StreamSigner;
import org.proofmode.testkit.OwnMedia;
import org.proofmode.testkit.Samples;

/** The API on embedded SQLite (the default database). */
class SqliteApiTest extends ApiContract {
    @Override
    Optional<String> jdbcUrl() {
        return Optional.empty();
    }

    @Override
    public String freshJdbcUrl(Path dir) {
        return "jdbc:sqlite:" + dir.resolve("evidence.db");
    }

    @Test
    void verify_reportsContentCredentials_signedMediaInBundle() throws Exception {
        LocalCa ca = new LocalCa(tmp.resolve("c2pa-ca"));
        ca.create(Passphrase.adopt("ca passphrase".toCharArray()), "TEST", false);
        byte[] signed = new ManifestBuilder().title("signed.jpg").created(ManifestBuilder.DIGITAL_CAPTURE)
                .sign(Files.readAllBytes(OwnMedia.examplePhoto()),
                        ca.signer(Passphrase.adopt("ca passphrase".toCharArray())), Optional.empty());
        Path media = Files.write(tmp.resolve("signed.jpg"), signed);
        ProveResult proved = signer.prover(signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray())),
                signer.store(), org.proofmode.ProofMode.defaultSources())
                .prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
        Path zip = tmp.resolve("signed-bundle.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(proved.proofFolder().orElseThrow(), Optional.of(media))), zip, false);

        HttpResponse<String> r = srv.postZip("/api/v1/verify?name=signed.zip", TestBundles.read(zip), Optional.empty());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = json(r);
        List<String> codes = StreamSupport.stream(report.path("checks").spliterator(), false)
                .map(c -> c.path("code").asText()).toList();
        assertThat(codes).as(r.body()).contains("c2pa.claimSignature.validated", "c2pa.assertion.dataHash.match",
                "c2pa.signingCredential.untrusted");
        assertThat(report.path("verdict").asText()).isEqualTo("VALID");
    }

    @Test
    void verify_checkNamesTheIngredientManifest_mediaWithBrokenIngredientSignature() throws Exception {
        Path media = Files.copy(Samples.c2paConformance().resolve("CIE-sig-CA.jpg"), tmp.resolve("CIE-sig-CA.jpg"));
        ProveResult proved = signer.prover(signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray())),
                signer.store(), org.proofmode.ProofMode.defaultSources())
                .prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
        Path zip = tmp.resolve("ingredient-bundle.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(proved.proofFolder().orElseThrow(), Optional.of(media))), zip, false);

        HttpResponse<String> r = srv.postZip("/api/v1/verify?name=ingredient.zip", TestBundles.read(zip), Optional.empty());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = json(r);
        List<JsonNode> mismatches = StreamSupport.stream(report.path("checks").spliterator(), false)
                .filter(c -> c.path("code").asText().equals("c2pa.claimSignature.mismatch")).toList();
        assertThat(mismatches).as(r.body()).singleElement().satisfies(c -> assertThat(c.path("subject").asText())
                .endsWith("(ingredient manifest contentauth:urn:uuid:b0e53ec5-b976-4221-9bdd-9c4ff33e106f)"));
        assertThat(report.path("verdict").asText()).isEqualTo("INVALID");
    }

    @Test
    void verify_incomplete_mediaWhoseHardBindingIsOfAnUncheckedKind() throws Exception {
        LocalCa ca = new LocalCa(tmp.resolve("c2pa-ca-boxes"));
        ca.create(Passphrase.adopt("ca passphrase".toCharArray()), "TEST", false);
        com.fasterxml.jackson.databind.node.ObjectNode boxes = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        com.fasterxml.jackson.databind.node.ObjectNode one = boxes.putArray("boxes").addObject();
        one.putArray("names").add("SOI");
        one.put("hash", new byte[32]);
        byte[] signed = new ManifestBuilder().title("boxes.jpg").created(ManifestBuilder.DIGITAL_CAPTURE).cborAssertion("c2pa.hash.collection.data", boxes)
                .sign(Files.readAllBytes(OwnMedia.examplePhoto()),
                        ca.signer(Passphrase.adopt("ca passphrase".toCharArray())), Optional.empty());
        Path media = Files.write(tmp.resolve("boxes.jpg"), signed);
        ProveResult proved = signer.prover(signer.keys().unlock(Passphrase.adopt("test passphrase".toCharArray())),
                signer.store(), org.proofmode.ProofMode.defaultSources())
                .prove(media, new Prover.Options(Optional.empty(), false, StreamSigner.Progress.NONE));
        Path zip = tmp.resolve("boxes-bundle.zip");
        BundleWriter.write(List.of(new BundleWriter.Item(proved.proofFolder().orElseThrow(), Optional.of(media))), zip, false);

        HttpResponse<String> r = srv.postZip("/api/v1/verify?name=boxes.zip", TestBundles.read(zip), Optional.empty());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = json(r);
        List<JsonNode> unchecked = StreamSupport.stream(report.path("checks").spliterator(), false)
                .filter(c -> c.path("code").asText().equals("c2pa.assertion.hardBinding.unchecked")).toList();
        assertThat(unchecked).as(r.body()).singleElement().satisfies(c -> assertThat(c.path("status").asText()).isEqualTo("WARN"));
        assertThat(report.path("verdict").asText()).as(r.body()).isEqualTo("INCOMPLETE");
    }
}
