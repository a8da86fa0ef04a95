// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.proofmode.server.service.ProblemType;

/**
 * The answer to requests Jetty refuses before any route sees them (a raw {@code ..} in the path, a bad
 * header, a request too slow): a problem document with the same security headers as every other answer,
 * never Jetty's HTML page.
 */
public final class JettyErrors extends ErrorHandler {
    private final Map<String, String> headers;

    /** Answers with these headers on every error. */
    public JettyErrors(Map<String, String> headers) {
        this.headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus() >= 400 ? response.getStatus() : 400;
        ProblemType type = Problems.ofStatus(status);
        ObjectNode problem = Problems.document(type, type.title(), "/");
        problem.put("status", status);
        HttpFields.Mutable h = response.getHeaders();
        headers.forEach(h::put);
        h.put("Cache-Control", "no-store");
        h.put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
        response.write(true, ByteBuffer.wrap(problem.toString().getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
