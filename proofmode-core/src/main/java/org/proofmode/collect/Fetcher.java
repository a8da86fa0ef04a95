// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.util.Http;
import org.proofmode.util.SafeText;

/**
 * Makes one GET and keeps it as it went over the wire: the heads as sent, the body streamed into a file
 * up to the bound (never more than one byte past it is read), the TLS chain and the address. HTTP/1.1
 * only, with {@code Accept-Encoding: identity}, so that the kept body is the bytes the server sent.
 */
final class Fetcher {
    private static final int BUFFER = 64 * 1024;

    private final OkHttpClient client;
    private final CollectLimits limits;
    private final Clock clock;
    private final boolean proxied;

    Fetcher(Http http, List<X509Certificate> extraRoots, CollectLimits limits, Clock clock) {
        this.limits = limits;
        this.clock = clock;
        this.proxied = http.proxy().isPresent();
        // A connection of its own for each address: a server that closes after an answer without saying so
        // (HTTP/1.0) leaves no pooled connection to fail on, and each answer keeps its own TLS handshake.
        OkHttpClient.Builder b = http.clientBuilder().protocols(List.of(Protocol.HTTP_1_1)).readTimeout(limits.timeout())
                .connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS));
        if (!extraRoots.isEmpty()) {
            X509TrustManager tm = trustManager(extraRoots);
            try {
                SSLContext ssl = SSLContext.getInstance("TLS");
                ssl.init(null, new TrustManager[] {tm}, null);
                b.sslSocketFactory(ssl.getSocketFactory(), tm);
            } catch (java.security.GeneralSecurityException e) {
                throw new ProofModeException(Failure.INTERNAL, "TLS: " + e.getMessage(), e);
            }
        }
        this.client = b.build();
    }

    /**
     * Fetches one address into {@code bodyFile}.
     *
     * @throws ProofModeException with {@link Failure#SERVICE_UNREACHABLE} if nothing came back in time or
     *     the server could not be reached or trusted, {@link Failure#INCOMPATIBLE_OPTIONS} for an
     *     {@code .onion} address without a proxy, {@link Failure#IO} if the file cannot be written
     */
    Exchange fetch(URI uri, Path bodyFile) {
        HttpUrl url = HttpUrl.parse(uri.toString());
        if (url == null) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, SafeText.escape(uri.toString()) + ": not an http(s) address");
        }
        if (!proxied && Http.isOnion(url.host())) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, SafeText.escape(url.host())
                    + ": an .onion address is reached only through Tor: give --tor or --proxy socks5h://HOST:PORT; it is not looked up here");
        }
        AtomicReference<Request> sent = new AtomicReference<>();
        AtomicReference<InetSocketAddress> peer = new AtomicReference<>();
        OkHttpClient c = client.newBuilder().addNetworkInterceptor(chain -> {
            sent.set(chain.request());
            if (chain.connection() != null) {
                peer.set(chain.connection().route().socketAddress());
            }
            return chain.proceed(chain.request());
        }).build();
        Request request = new Request.Builder().url(url).header("User-Agent", Http.USER_AGENT)
                .header("Accept", "*/*").header("Accept-Encoding", "identity").get().build();
        Call call = c.newCall(request);
        call.timeout().timeout(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
        Instant time = clock.instant();
        String where = SafeText.escape(uri.toString());
        try (Response r = call.execute()) {
            MessageDigest sha = Digests.newSha256();
            long kept = 0;
            Exchange.Cut cut = Exchange.Cut.NONE;
            try (InputStream in = r.body().byteStream(); OutputStream out = Files.newOutputStream(bodyFile)) {
                byte[] buf = new byte[BUFFER];
                while (true) {
                    int want = (int) Math.min(buf.length, limits.maxBytes() - kept);
                    if (want == 0) {
                        if (in.read() != -1) {
                            cut = Exchange.Cut.LENGTH;
                        }
                        break;
                    }
                    int n = in.read(buf, 0, want);
                    if (n == -1) {
                        break;
                    }
                    out.write(buf, 0, n);
                    sha.update(buf, 0, n);
                    kept += n;
                }
            } catch (IOException e) {
                // The exchange's deadline closes the stream under the read: the body is cut by time.
                if (!(e instanceof InterruptedIOException) && !call.isCanceled()) {
                    throw e;
                }
                cut = Exchange.Cut.TIME;
            }
            List<X509Certificate> chain = new ArrayList<>();
            if (r.handshake() != null) {
                r.handshake().peerCertificates().forEach(x -> chain.add((X509Certificate) x));
            }
            Optional<InetAddress> address = Optional.ofNullable(peer.get()).filter(a -> !proxied && !a.isUnresolved())
                    .map(InetSocketAddress::getAddress);
            return new Exchange(uri, time, requestHead(sent.get() == null ? request : sent.get()), r.code(),
                    responseHead(r, kept), bodyFile, kept, HexFormat.of().formatHex(sha.digest()), cut, chain, address,
                    Optional.ofNullable(r.header("Location")), Optional.ofNullable(r.header("Content-Type")));
        } catch (InterruptedIOException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, where + ": no answer within " + limits.timeout().toSeconds() + " s", e);
        } catch (SSLException e) {
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, where + ": the TLS connection failed ("
                    + oneLine(e) + "); a server whose certificate comes from a private CA needs --ca CA.pem", e);
        } catch (IOException e) {
            if (Files.exists(bodyFile) && e instanceof java.nio.file.FileSystemException) {
                throw new ProofModeException(Failure.IO, bodyFile + ": " + e.getMessage(), e);
            }
            throw new ProofModeException(Failure.SERVICE_UNREACHABLE, where + ": cannot be reached (" + oneLine(e) + ")", e);
        }
    }

    private static String oneLine(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : SafeText.escape(e.getMessage().replaceAll("\\s+", " "));
    }

    private static String requestHead(Request r) {
        HttpUrl u = r.url();
        StringBuilder s = new StringBuilder("GET ").append(u.encodedPath());
        if (u.encodedQuery() != null) {
            s.append('?').append(u.encodedQuery());
        }
        s.append(" HTTP/1.1\r\n");
        Headers h = r.headers();
        if (h.get("Host") == null) {
            s.append("Host: ").append(u.host()).append(u.port() == HttpUrl.defaultPort(u.scheme()) ? "" : ":" + u.port()).append("\r\n");
        }
        for (int i = 0; i < h.size(); i++) {
            s.append(h.name(i)).append(": ").append(h.value(i)).append("\r\n");
        }
        return s.append("\r\n").toString();
    }

    /**
     * The status line and headers. The body is kept de-chunked, so a {@code Transfer-Encoding} header is
     * kept under the name {@code X-Proofmode-Transfer-Encoding} and a {@code Content-Length} of the kept
     * bytes is added when the server sent none: readers of the WARC then find the body where it says.
     */
    private static String responseHead(Response r, long kept) {
        StringBuilder s = new StringBuilder("HTTP/1.1 ").append(r.code()).append(' ').append(r.message()).append("\r\n");
        Headers h = r.headers();
        for (int i = 0; i < h.size(); i++) {
            String name = h.name(i);
            s.append(name.equalsIgnoreCase("Transfer-Encoding") ? "X-Proofmode-Transfer-Encoding" : name).append(": ").append(h.value(i)).append("\r\n");
        }
        if (h.get("Content-Length") == null) {
            s.append("Content-Length: ").append(kept).append("\r\n");
        }
        return s.append("\r\n").toString();
    }

    /** A trust manager that accepts the platform's roots and the given ones. */
    private static X509TrustManager trustManager(List<X509Certificate> extraRoots) {
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            for (int i = 0; i < extraRoots.size(); i++) {
                ks.setCertificateEntry("collect-ca-" + i, extraRoots.get(i));
            }
            X509TrustManager extra = first(ks);
            X509TrustManager platform = first(null);
            return new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    platform.checkClientTrusted(chain, authType);
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    try {
                        extra.checkServerTrusted(chain, authType);
                    } catch (CertificateException e) {
                        platform.checkServerTrusted(chain, authType);
                    }
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    List<X509Certificate> all = new ArrayList<>(List.of(platform.getAcceptedIssuers()));
                    all.addAll(extraRoots);
                    return all.toArray(X509Certificate[]::new);
                }
            };
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new ProofModeException(Failure.INTERNAL, "TLS trust: " + e.getMessage(), e);
        }
    }

    private static X509TrustManager first(KeyStore ks) throws java.security.GeneralSecurityException {
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init(ks);
        for (TrustManager t : f.getTrustManagers()) {
            if (t instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new java.security.KeyStoreException("no X.509 trust manager");
    }

}
