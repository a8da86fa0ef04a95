// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Asks a gpsd daemon for the current position over its JSON protocol (TCP, default port 2947): sends
 * {@code ?WATCH={"enable":true,"json":true}} and reads reports until a TPV report with a 2D or 3D fix
 * arrives or the time is up.
 *
 * <p>Security: gpsd's answers are untrusted input: lines are capped at {@value #MAX_LINE} bytes and the
 * whole exchange at the timeout.
 */
public final class GpsdClient {
    /** gpsd's registered port. */
    public static final int DEFAULT_PORT = 2947;

    /** Longest report line read; gpsd's SKY reports with many satellites stay well below. */
    static final int MAX_LINE = 64 * 1024;

    /** Made when gpsd first answers: most machines have no gpsd, and a mapper costs a cold process ~100 ms. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }
    private static final byte[] WATCH = "?WATCH={\"enable\":true,\"json\":true}\n".getBytes(StandardCharsets.US_ASCII);

    private final String host;
    private final int port;
    private final Duration timeout;

    /**
     * A client for one daemon.
     *
     * @param host gpsd's host
     * @param port gpsd's port
     * @param timeout how long one {@link #poll()} may take in all
     */
    public GpsdClient(String host, int port, Duration timeout) {
        this.host = Objects.requireNonNull(host, "host");
        this.port = port;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** {@code host:port}, for messages. */
    public String address() {
        return host + ":" + port;
    }

    /**
     * Connects, watches, and returns the first fix.
     *
     * @return the fix, or empty if gpsd answered but had no 2D/3D fix within the timeout
     * @throws IOException if gpsd cannot be reached or breaks the protocol
     */
    public Optional<Fix> poll() throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Fix withoutTime = null;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
            OutputStream out = s.getOutputStream();
            out.write(WATCH);
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    break;
                }
                s.setSoTimeout((int) left);
                Optional<String> line;
                try {
                    line = readLine(in);
                } catch (SocketTimeoutException e) {
                    break;
                }
                if (line.isEmpty()) {
                    break;
                }
                Optional<Fix> fix = tpv(line.get());
                if (fix.isPresent()) {
                    if (fix.get().time().isPresent()) {
                        return fix;
                    }
                    withoutTime = fix.get();
                }
            }
        }
        return Optional.ofNullable(withoutTime);
    }

    /** Reads a TPV report with a 2D or 3D fix; anything else gives empty. */
    static Optional<Fix> tpv(String line) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(line);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (n == null || !"TPV".equals(n.path("class").asText()) || n.path("mode").asInt(0) < 2
                || !n.path("lat").isNumber() || !n.path("lon").isNumber()) {
            return Optional.empty();
        }
        OptionalDouble accuracy = n.path("eph").isNumber() ? OptionalDouble.of(n.get("eph").asDouble())
                : n.path("epx").isNumber() && n.path("epy").isNumber()
                        ? OptionalDouble.of(Math.hypot(n.get("epx").asDouble(), n.get("epy").asDouble()))
                        : OptionalDouble.empty();
        JsonNode alt = n.path("altMSL").isNumber() ? n.get("altMSL") : n.path("alt");
        OptionalDouble altitude = n.path("mode").asInt() >= 3 && alt.isNumber() ? OptionalDouble.of(alt.asDouble()) : OptionalDouble.empty();
        Optional<Instant> time = Optional.empty();
        if (n.path("time").isTextual()) {
            try {
                time = Optional.of(Instant.parse(n.get("time").asText()));
            } catch (DateTimeParseException e) {
                // a fix without a usable time is still a fix
            }
        }
        try {
            return Optional.of(new Fix(n.get("lat").asDouble(), n.get("lon").asDouble(), accuracy, altitude, time, Fix.Provider.GPSD));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** One line without its end; empty at the end of the stream. */
    private static Optional<String> readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                return Optional.of(line.toString(StandardCharsets.UTF_8));
            }
            if (line.size() >= MAX_LINE) {
                throw new IOException("gpsd sent a line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        return line.size() == 0 ? Optional.empty() : Optional.of(line.toString(StandardCharsets.UTF_8));
    }
}
