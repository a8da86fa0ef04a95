// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * A small HTTP client for timestamp services and evidence servers: short timeouts, no redirects, bounded
 * answers, and optionally every connection through a SOCKS5 proxy that resolves host names itself (Tor).
 * A service that cannot be reached, times out or answers with a server error is
 * {@link Failure#SERVICE_UNREACHABLE}; an answer larger than allowed is {@link Failure#BAD_DATA}. For
 * {@link #get} and {@link #post} the request timeout bounds the whole exchange, body included; an
 * {@link #upload} may take as long as it needs while bytes move, and fails when none move for that long.
 *
 * <p>With a proxy, no host name of a service is ever looked up on this machine: the proxy is given the
 * name (SOCKS5 address type 3), so an {@code .onion} address works and no DNS query leaves the machine.
 * A proxy that cannot be reached fails the request; nothing goes direct.
 *
 * <p>Without a proxy, an {@code .onion} name is refused before anything is looked up or sent
 * ({@link Failure#INCOMPATIBLE_OPTIONS}): only Tor knows it, and asking this machine's resolver would tell
 * the network which hidden service the user is about to reach. Every client of a service is built here,
 * so no caller can forget the rule.
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
     * A SOCKS5 proxy that resolves the names it is given ({@code socks5h://HOST:PORT}).
     *
     * @param host the proxy's host
     * @param port its port
     */
    public record Socks(String host, int port) {
        /** Tor's own SOCKS port on this machine. */
        public static final Socks TOR = new Socks("127.0.0.1", 9050);

        /** Validates the fields. */
        public Socks {
            Objects.requireNonNull(host, "host");
            if (host.isEmpty() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("not a proxy address: " + host + ":" + port);
            }
        }

        /**
         * Reads {@code socks5h://HOST:PORT}.
         *
         * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} for anything else, saying why
         */
        public static Socks parse(String url) {
            String u = url == null ? "" : url.trim();
            String lower = u.toLowerCase(Locale.ROOT);
            if (lower.startsWith("socks5://") || lower.startsWith("socks4") || lower.startsWith("http")) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "proxy " + SafeText.escape(u)
                        + ": only socks5h://HOST:PORT is supported (the proxy resolves host names, so none is looked up here)");
            }
            if (!lower.startsWith("socks5h://")) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "proxy " + SafeText.escape(u) + ": expected socks5h://HOST:PORT");
            }
            try {
                URI parsed = new URI(u);
                if (parsed.getHost() == null || parsed.getPort() < 1 || parsed.getRawPath() != null && !parsed.getRawPath().isEmpty()
                        && !parsed.getRawPath().equals("/") || parsed.getRawUserInfo() != null) {
                    throw new IllegalArgumentException("host and port only");
                }
                String host = parsed.getHost().startsWith("[") ? parsed.getHost().substring(1, parsed.getHost().length() - 1) : parsed.getHost();
                return new Socks(host, parsed.getPort());
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                throw new ProofModeException(Failure.BAD_ARGUMENT, "proxy " + SafeText.escape(u) + ": expected socks5h://HOST:PORT", e);
            }
        }

        /** The proxy as written in settings. */
        public String url() {
            return "socks5h://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * An answer.
     *
     * @param status the HTTP status code
     * @param body the body, at most the bound asked for
     * @param headers the answer's headers, names in lower case (the first value of each)
     */
    public record Response(int status, byte[] body, Map<String, String> headers) {
        /** Copies the body and headers. */
        public Response {
            body = body.clone();
            headers = Map.copyOf(headers);
        }

        /** An answer without headers. */
        public Response(int status, byte[] body) {
            this(status, body, Map.of());
        }

        @Override
        public byte[] body() {
            return body.clone();
        }

        /** A header's value, by its name in any case. */
        public Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }
    }

    /** Looks a host name up on this machine (the system resolver, unless a test watches it). */
    @FunctionalInterface
    interface Resolver {
        /** The addresses of a host. */
        List<InetAddress> lookup(String host) throws UnknownHostException;
    }

    private final Timeouts timeouts;
    private final Optional<Socks> proxy;
    private final Resolver resolver;
    private OkHttpClient client;

    /**
     * Creates a client with the given timeouts that connects directly. The connection machinery (which
     * reads the platform's trusted certificates, a noticeable part of a second) is made at the first
     * request, so that commands which end up asking no service do not pay for it.
     */
    public Http(Timeouts timeouts) {
        this(timeouts, Optional.empty());
    }

    /** Creates a client whose every connection goes through the proxy, if one is given. */
    public Http(Timeouts timeouts, Optional<Socks> proxy) {
        this(timeouts, proxy, host -> List.of(InetAddress.getAllByName(host)));
    }

    /** Creates a client that looks host names up with this resolver when no proxy is set. */
    Http(Timeouts timeouts, Optional<Socks> proxy, Resolver resolver) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.proxy = Objects.requireNonNull(proxy, "proxy");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /** Tells whether a host is a Tor onion service's name ({@code .onion}, any case, a final dot or not). */
    public static boolean isOnion(String host) {
        String h = host == null ? "" : host.toLowerCase(Locale.ROOT);
        return h.endsWith(".onion") || h.endsWith(".onion.");
    }

    /** The proxy every connection goes through, if any. */
    public Optional<Socks> proxy() {
        return proxy;
    }

    /** The time limits. */
    public Timeouts timeouts() {
        return timeouts;
    }

    private synchronized OkHttpClient client() {
        if (client == null) {
            client = clientBuilder().build();
        }
        return client;
    }

    /**
     * A builder of a client with this one's rules (time limits, no redirects, the proxy and the name rule
     * above), for a caller that needs more of an exchange than an answer's body, such as a web page's
     * capture, which keeps the TLS handshake and streams the body. Each call makes a new builder.
     */
    public OkHttpClient.Builder clientBuilder() {
        OkHttpClient.Builder b = new OkHttpClient.Builder()
                .connectTimeout(timeouts.connect())
                .readTimeout(timeouts.request())
                .writeTimeout(timeouts.request())
                .followRedirects(false)
                .followSslRedirects(false)
                .retryOnConnectionFailure(false);
        if (proxy.isPresent()) {
            Socks s = proxy.get();
            b.proxy(new Proxy(Proxy.Type.SOCKS, new InetSocketAddress(s.host(), s.port())));
            // The proxy is given host names as they are; should anything ever ask for a local lookup
            // instead, the request fails rather than leak the name to this machine's resolver.
            b.dns(hostname -> {
                throw new UnknownHostException(hostname + ": not looked up here while a proxy is set");
            });
        } else {
            b.dns(hostname -> {
                if (isOnion(hostname)) {
                    throw new UnknownHostException(hostname + ": an .onion name is never looked up here");
                }
                return resolver.lookup(hostname);
            });
        }
        return b;
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
        return post(uri, contentType, accept, Map.of(), body, maxBytes);
    }

    /** Posts bytes with more request headers (such as {@code Authorization}); see {@link #post(URI, String, String, byte[], int)}. */
    public Response post(URI uri, String contentType, String accept, Map<String, String> headers, byte[] body, int maxBytes) {
        Request r = request(uri, accept, headers).post(RequestBody.create(body, MediaType.parse(contentType))).build();
        return send(client().newCall(r), uri, maxBytes, true);
    }

    /** Gets a resource; see {@link #post(URI, String, String, byte[], int)}. */
    public Response get(URI uri, String accept, int maxBytes) {
        return get(uri, accept, Map.of(), maxBytes);
    }

    /** Gets a resource with more request headers; see {@link #post(URI, String, String, byte[], int)}. */
    public Response get(URI uri, String accept, Map<String, String> headers, int maxBytes) {
        return send(client().newCall(request(uri, accept, headers).get().build()), uri, maxBytes, true);
    }

    /**
     * Posts a file as it is read (memory stays flat whatever its size). The exchange may take as long as
     * it needs while bytes move; it fails when none move for the request timeout.
     *
     * @see #post(URI, String, String, byte[], int)
     */
    public Response upload(URI uri, String contentType, String accept, Map<String, String> headers, Path file, int maxBytes) {
        Request r = request(uri, accept, headers).post(RequestBody.create(file.toFile(), MediaType.parse(contentType))).build();
        return send(client().newCall(r), uri, maxBytes, false);
    }

    /** Asks for a resource's headers only; see {@link #post(URI, String, String, byte[], int)}. */
    public Response head(URI uri, Map<String, String> headers) {
        return send(client().newCall(request(uri, "*/*", headers).head().build()), uri, 0, true);
    }

    /**
     * Sends the rest of a file from {@code offset} as it is read, with {@code PATCH} (a resumable upload's
     * next part); timeouts as {@link #upload}.
     */
    public Response patch(URI uri, String contentType, String accept, Map<String, String> headers, Path file, long offset, int maxBytes) {
        RequestBody body = new RequestBody() {
            @Override
            public MediaType contentType() {
                return MediaType.parse(contentType);
            }

            @Override
            public long contentLength() throws IOException {
                return java.nio.file.Files.size(file) - offset;
            }

            @Override
            public void writeTo(okio.BufferedSink sink) throws IOException {
                try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
                    ch.position(offset);
                    try (okio.Source src = okio.Okio.source(java.nio.channels.Channels.newInputStream(ch))) {
                        sink.writeAll(src);
                    }
                }
            }
        };
        return send(client().newCall(request(uri, accept, headers).patch(body).build()), uri, maxBytes, false);
    }

    private Request.Builder request(URI uri, String accept, Map<String, String> headers) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ProofModeException(Failure.UNSUPPORTED, uri + ": only http and https services are supported");
        }
        HttpUrl url = HttpUrl.get(uri.toString());
        if (proxy.isEmpty() && isOnion(url.host())) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, SafeText.escape(url.host())
                    + ": an .onion address is reached only through Tor: give --tor or --proxy socks5h://HOST:PORT "
                    + "(or set publish.proxy); it is not looked up here");
        }
        Request.Builder b = new Request.Builder().url(url).header("Accept", accept).header("User-Agent", USER_AGENT);
        headers.forEach(b::header);
        return b;
    }

    private Response send(Call call, URI uri, int maxBytes, boolean deadline) {
        if (deadline) {
            // One deadline for the whole exchange: a service that sends its answer a byte a minute must
            // not hold the command forever.
            call.timeout().timeout(timeouts.request().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        try (okhttp3.Response r = call.execute()) {
            if (r.code() >= 500) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": the service failed (HTTP " + r.code() + ")");
            }
            Map<String, String> headers = new java.util.HashMap<>();
            for (String name : r.headers().names()) {
                headers.put(name.toLowerCase(Locale.ROOT), r.header(name));
            }
            return new Response(r.code(), bounded(r.body(), uri, maxBytes), headers);
        } catch (InterruptedIOException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": interrupted", e);
            }
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": no answer in time", e);
        } catch (IOException e) {
            // the message may quote what the server sent (a malformed status line): escaped like any stranger's text
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : SafeText.escape(e.getMessage());
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, uri + ": cannot be reached ("
                    + proxy.map(p -> "through the proxy " + p.url() + ": ").orElse("") + why + ")", e);
        }
    }

    private static byte[] bounded(ResponseBody body, URI uri, int maxBytes) throws IOException {
        BufferedSource source = body.source();
        Buffer out = new Buffer();
        while (out.size() <= maxBytes) {
            if (source.read(out, 8192) == -1) {
                return out.readByteArray();
            }
        }
        throw new ProofModeException(Failure.BAD_DATA, uri + ": answered with more than " + maxBytes + " bytes");
    }
}
