// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.service;

import io.javalin.http.Context;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.DoubleSupplier;

/**
 * The server's Prometheus metrics (the Prometheus Java client), in a registry of its own: intakes,
 * verifications and their time, answers by status, and gauges read when scraped (the transparency log's
 * size and queue). {@code GET /metrics} serves them in the text format, to clients on this machine only
 * ({@code ProofServer} checks that): scrape from the host, or through the proxy in front of it.
 */
public final class Metrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter intakes;
    private final Counter verifications;
    private final Histogram verificationSeconds;
    private final Counter answers;

    /** Registers the metrics; {@code logSize} and {@code logQueued} are read at each scrape. */
    public Metrics(DoubleSupplier logSize, DoubleSupplier logQueued) {
        intakes = Counter.builder().name("proofmode_intakes_total").help("Evidence bundles received, new or again")
                .labelNames("result").build();
        verifications = Counter.builder().name("proofmode_verifications_total").help("Verifications by verdict")
                .labelNames("verdict").build();
        verificationSeconds = Histogram.builder().name("proofmode_verification_seconds").help("Time to verify one upload")
                .build();
        answers = Counter.builder().name("proofmode_http_answers_total").help("HTTP answers by status class and status")
                .labelNames("status").build();
        registry.register(intakes);
        registry.register(verifications);
        registry.register(verificationSeconds);
        registry.register(answers);
        registry.register(GaugeWithCallback.builder().name("proofmode_log_entries").help("Entries in the transparency log's tree")
                .callback(cb -> cb.call(logSize.getAsDouble())).build());
        registry.register(GaugeWithCallback.builder().name("proofmode_log_queued").help("Entries waiting for the next checkpoint")
                .callback(cb -> cb.call(logQueued.getAsDouble())).build());
    }

    /** Counts an intake. */
    public void intake(boolean created) {
        intakes.labelValues(created ? "new" : "again").inc();
    }

    /** Counts a verification and its time. */
    public void verified(String verdict, long nanos) {
        verifications.labelValues(verdict).inc();
        verificationSeconds.observe(nanos / 1e9);
    }

    /** Counts an answer. */
    public void answered(int status) {
        answers.labelValues(String.valueOf(status)).inc();
    }

    /** {@code GET /metrics}: the caller has checked that the client is on this machine. */
    public void serve(Context ctx) throws IOException {
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, registry.scrape());
        ctx.contentType(writer.getContentType());
        ctx.result(out.toByteArray());
    }
}
