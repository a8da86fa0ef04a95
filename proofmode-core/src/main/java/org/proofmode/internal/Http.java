package org.proofmode.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.proofmode.Failure;
import org.proofmode.ProofModeException;

/**
 * A small HTTP client for timestamp services: short timeouts, no redirects, bounded answers. A service
 * that cannot be reached, times out or answers with a server error is {@link Failure#SERVICE_UNREACHABLE};
 * an answer larger than allowed is {@link Failure#BAD_DATA}.
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

    private final HttpClient client;
    private final Timeouts timeouts;

    /** Creates a client with the given timeouts. */
    public Http(Timeouts timeouts) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.client = HttpClient.newBuilder().connectTimeout(timeouts.connect())
                .followRedirects(HttpClient.Redirect.NEVER).build();
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
        HttpResponse<InputStream> r;
        try {
            r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": no answer in time", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": cannot be reached ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": interrupted", e);
        }
        try (InputStream in = r.body()) {
            if (r.statusCode() >= 500) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": the service failed (HTTP " + r.statusCode() + ")");
            }
            long declared = r.headers().firstValueAsLong("Content-Length").orElse(-1);
            if (declared > maxBytes) {
                throw tooLarge(uri, maxBytes);
            }
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw tooLarge(uri, maxBytes);
            }
            return new Response(r.statusCode(), body);
        } catch (HttpTimeoutException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": no answer in time", e);
        } catch (IOException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": the answer broke off (" + e.getMessage() + ")", e);
        }
    }

    private static ProofModeException tooLarge(URI uri, int maxBytes) {
        return new ProofModeException(Failure.BAD_DATA, uri + ": answered with more than " + maxBytes + " bytes");
    }
}
