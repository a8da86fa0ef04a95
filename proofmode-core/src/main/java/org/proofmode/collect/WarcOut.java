// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.proofmode.media.Digests;
import org.proofmode.util.SafeText;

/**
 * Writes exchanges into a WARC (ISO 28500 / WARC 1.1, each record gzipped on its own, by jwarc): a
 * request and a response record per exchange, concurrent to each other, with the payload's SHA-256 as
 * {@code WARC-Payload-Digest}, the address connected to, and {@code WARC-Truncated} for a cut body; then
 * one metadata record about the collection.
 */
final class WarcOut implements AutoCloseable {
    private final Path path;
    private final WarcWriter writer;
    private final List<CollectionRecord.Entry> entries = new ArrayList<>();

    WarcOut(Path path) throws IOException {
        this.path = path;
        this.writer = new WarcWriter(FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), WarcCompression.GZIP);
    }

    /** Writes one exchange; returns the response record's ID. */
    String write(Exchange x) throws IOException {
        byte[] requestHead = x.requestHead().getBytes(StandardCharsets.ISO_8859_1);
        WarcRequest request = new WarcRequest.Builder(x.uri()).date(x.time())
                .body(MediaType.HTTP_REQUEST, requestHead)
                .payloadDigest(new WarcDigest("sha256", Digests.newSha256().digest(new byte[0])))
                .build();
        writer.write(request);
        entries.add(new CollectionRecord.Entry("request", request.id().toString(), x.uri().toString(), null,
                HexFormat.of().formatHex(Digests.newSha256().digest(new byte[0])), 0, null));
        byte[] head = x.responseHead().getBytes(StandardCharsets.ISO_8859_1);
        try (InputStream body = Files.newInputStream(x.body());
                InputStream all = new SequenceInputStream(new ByteArrayInputStream(head), body)) {
            WarcResponse.Builder b = new WarcResponse.Builder(x.uri()).date(x.time()).concurrentTo(request.id())
                    .body(MediaType.HTTP_RESPONSE, Channels.newChannel(all), head.length + x.length())
                    .payloadDigest(new WarcDigest("sha256", HexFormat.of().parseHex(x.sha256())));
            x.address().ifPresent(b::ipAddress);
            if (x.cut() != Exchange.Cut.NONE) {
                b.truncated(x.cut() == Exchange.Cut.LENGTH ? WarcTruncationReason.LENGTH : WarcTruncationReason.TIME);
            }
            WarcResponse response = b.build();
            writer.write(response);
            entries.add(new CollectionRecord.Entry("response", response.id().toString(), x.uri().toString(), x.status(),
                    x.sha256(), x.length(), x.cut() == Exchange.Cut.NONE ? null : x.cut().name().toLowerCase(java.util.Locale.ROOT)));
            return response.id().toString();
        }
    }

    /** Writes the metadata record about the page: each value on one line, control characters escaped. */
    void metadata(URI page, Instant time, Map<String, String> fields) throws IOException {
        Map<String, List<String>> f = new LinkedHashMap<>();
        fields.forEach((k, v) -> f.put(k, List.of(SafeText.escape(v).replaceAll("[\\r\\n]", " "))));
        WarcMetadata m = new WarcMetadata.Builder().targetURI(page).date(time).fields(f).build();
        writer.write(m);
        entries.add(new CollectionRecord.Entry("metadata", m.id().toString(), page.toString(), null, null, 0, null));
    }

    /** The records written so far. */
    List<CollectionRecord.Entry> entries() {
        return List.copyOf(entries);
    }

    @Override
    public void close() throws IOException {
        writer.close();
        try (FileChannel written = FileChannel.open(path, StandardOpenOption.WRITE)) {
            written.force(true);
        }
    }
}
