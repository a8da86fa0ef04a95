// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP exchange as it went over the wire: the request's and the response's head as sent, the body
 * kept in a file (at most the bound), and the connection's facts.
 *
 * @param uri the address asked for
 * @param time when the request was sent
 * @param requestHead the request line and headers, as sent, ending with an empty line
 * @param status the response's status code
 * @param responseHead the status line and headers, ending with an empty line
 * @param body the file holding the body as kept
 * @param length the bytes kept
 * @param sha256 the SHA-256 of the kept body, hex
 * @param cut why the body was cut, or {@link Cut#NONE}
 * @param chain the server's certificates, its own first (empty over plain HTTP)
 * @param address the address connected to, when known (not through a proxy that resolves names)
 * @param location the {@code Location} header
 * @param contentType the {@code Content-Type} header
 */
record Exchange(URI uri, Instant time, String requestHead, int status, String responseHead, Path body, long length,
        String sha256, Cut cut, List<X509Certificate> chain, Optional<InetAddress> address, Optional<String> location,
        Optional<String> contentType) {
    /** Why a body was cut. */
    enum Cut { NONE, LENGTH, TIME }

    Exchange {
        Objects.requireNonNull(uri, "uri");
        chain = List.copyOf(chain);
    }

    /** Whether the status is a redirect with somewhere to go. */
    boolean isRedirect() {
        return (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) && location.isPresent();
    }
}
