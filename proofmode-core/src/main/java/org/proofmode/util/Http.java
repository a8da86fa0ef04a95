// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * A small HTTP client for timestamp services: short timeouts, no redirects, bounded answers. A service
 * that cannot be reached, times out or answers with a server error is {@link Failure#SERVICE_UNREACHABLE};
 * an answer larger than allowed is {@link Failure#BAD_DATA}. The request timeout bounds the whole
 * exchange, body included; bodies are collected only up to their bound.
 */
public final class Http {
    /** The User-Agent sent with every request. */
    public static final String USER_AGENT = "proofmode-jvm";

    /**
     * How long to wait.
     *
     * @param connect for the connection
     * @param request for the whole answer
     */
    public record Timeouts(Duration connect, Duration request) {
        /** 10 seconds to connect, 30 seconds for an answer. */
        public static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(30));

        /** Validates the durations. */
        public Timeouts {
            if (connect.isNegative() || connect.isZero() || request.isNegative() || request.isZero()) {
                throw new IllegalArgumentException("timeouts must be positive");
            }
        }
    }

    /**
     * An answer.
     *
     * @param status the HTTP status code
     * @param body the body, at most the bound asked for
     */
    public record Response(int status, byte[] body) {
        /** Copies the body. */
        public Response {
            body = body.clone();
        }

        @Override
        public byte[] body() {
            return body.clone();
        }
    }

    private final Timeouts timeouts;
    private HttpClient client;

    /**
     * Creates a client with the given timeouts. The connection machinery (which reads the platform's
     * trusted certificates, a noticeable part of a second) is made at the first request, so that
     * commands which end up asking no service do not pay for it.
     */
    public Http(Timeouts timeouts) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    }

    private synchronized HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder().connectTimeout(timeouts.connect()).followRedirects(HttpClient.Redirect.NEVER).build();
        }
        return client;
    }

    /**
     * Posts bytes.
     *
     * @param uri an http or https URI
     * @param contentType the body's media type
     * @param accept the media type asked for
     * @param body the request body
     * @param maxBytes most bytes of the answer accepted
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if the service cannot be reached,
     *     times out or answers 5xx, {@link Failure#BAD_DATA} if the answer is too large
     */
    public Response post(URI uri, String contentType, String accept, byte[] body, int maxBytes) {
        return send(builder(uri, accept).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), maxBytes);
    }

    /** Gets a resource; see {@link #post}. */
    public Response get(URI uri, String accept, int maxBytes) {
        return send(builder(uri, accept).GET().build(), maxBytes);
    }

    private HttpRequest.Builder builder(URI uri, String accept) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ProofModeException(Failure.UNSUPPORTED, uri + ": only http and https services are supported");
        }
        return HttpRequest.newBuilder(uri).timeout(timeouts.request()).header("Accept", accept)
                .header("User-Agent", USER_AGENT);
    }

    private Response send(HttpRequest request, int maxBytes) {
        URI uri = request.uri();
        // One deadline for the whole exchange: the request timeout alone ends at the headers, and a
        // service that then sends its body a byte a minute must not hold the command forever.
        CompletableFuture<HttpResponse<byte[]>> f = client().sendAsync(request, info -> new Bounded(maxBytes));
        HttpResponse<byte[]> r;
        try {
            r = f.get(timeouts.request().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": no answer in time", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof TooLarge) {
                throw new ProofModeException(Failure.BAD_DATA, uri + ": answered with more than " + maxBytes + " bytes", c);
            }
            if (c instanceof HttpTimeoutException) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": no answer in time", c);
            }
            String why = c == null || c.getMessage() == null ? (c == null ? "unknown" : c.getClass().getSimpleName()) : c.getMessage();
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": cannot be reached (" + why + ")", c == null ? e : c);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": interrupted", e);
        }
        if (r.statusCode() >= 500) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": the service failed (HTTP " + r.statusCode() + ")");
        }
        return new Response(r.statusCode(), r.body());
    }

    /** The answer was larger than allowed. */
    private static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("answer too large");
        }
    }

    /** Collects a body up to a bound, and cancels the exchange past it. */
    private static final class Bounded implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Bounded(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (result.isDone()) {
                    return;
                }
                if (buffer.size() + (long) b.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLarge());
                    return;
                }
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                buffer.write(bytes, 0, bytes.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(buffer.toByteArray());
        }
    }
}
