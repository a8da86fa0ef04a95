// SPDX-License-Identifier: Apache-2.0
package org.proofmode.collect;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Objects;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The collection record ({@code collection.json}): who collected what, when, how and with which tool, the
 * digests of the WARC and of each record's payload, the TLS chain and the media extracted, with the
 * Berkeley Protocol's purpose and notes. It is signed by the collector's device key; the signature is
 * named by the record's SHA-256, {@code <h>.asc}, like a proof's, and time-stamped the same way.
 * Optional fields are {@code null} when absent and left out of the JSON.
 *
 * @param format always {@link #FORMAT}
 * @param url the address asked for
 * @param finalUrl the address the page came from, after redirects
 * @param title the page's title, as the page wrote it (untrusted)
 * @param collected when the page was asked for (ISO 8601, UTC)
 * @param tool the software and its version
 * @param collector the collector's OpenPGP key fingerprint
 * @param method how the page was fetched (protocol, proxy)
 * @param purpose why it was collected (Berkeley Protocol), or null
 * @param notes the collector's notes, or null
 * @param address the server's address connected to, or null (through a proxy)
 * @param tls the page's TLS chain, or null over plain HTTP
 * @param warc the WARC file and its SHA-256
 * @param records every WARC record with a payload, in order
 * @param media the media extracted beside the WARC
 * @param skipped media the page named that were not kept, and why
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CollectionRecord(String format, String url, String finalUrl, String title, String collected, String tool,
        String collector, String method, String purpose, String notes, String address, Tls tls, FileDigest warc,
        List<Entry> records, List<MediaEntry> media, List<Skipped> skipped) {
    /** The format's name and version. */
    public static final String FORMAT = "proofmode-collection/1";
    /** The record's file name in a collection folder. */
    public static final String FILE = "collection.json";
    /** The WARC's file name in a collection folder. */
    public static final String WARC = "capture.warc.gz";
    /** The page's TLS chain, PEM, in a collection folder. */
    public static final String CHAIN = "tls-chain.pem";
    /** The folder of extracted media in a collection folder. */
    public static final String MEDIA = "media";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** Validates the required fields and copies the lists. */
    public CollectionRecord {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(finalUrl, "finalUrl");
        Objects.requireNonNull(collected, "collected");
        Objects.requireNonNull(warc, "warc");
        records = records == null ? List.of() : List.copyOf(records);
        media = media == null ? List.of() : List.copyOf(media);
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
    }

    /**
     * The page's TLS chain.
     *
     * @param file the PEM file's name
     * @param subject the server certificate's subject
     * @param issuer its issuer
     * @param serverSha256 the SHA-256 of the server certificate (DER), hex
     * @param certificates how many certificates the server sent
     */
    public record Tls(String file, String subject, String issuer, String serverSha256, int certificates) {}

    /**
     * A file and its digest.
     *
     * @param file the name in the collection folder
     * @param sha256 its SHA-256, hex
     */
    public record FileDigest(String file, String sha256) {}

    /**
     * One WARC record with a payload.
     *
     * @param type {@code request}, {@code response} or {@code metadata}
     * @param id its {@code WARC-Record-ID}
     * @param uri its target
     * @param status the HTTP status of a response, or null
     * @param payloadSha256 the SHA-256 of its payload (a response's body, a request's none), hex
     * @param length the payload's length
     * @param truncated why the payload was cut ({@code length}, {@code time}), or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String type, String id, String uri, Integer status, String payloadSha256, long length, String truncated) {}

    /**
     * A media file extracted from the WARC.
     *
     * @param file its path in the collection folder
     * @param uri where it came from
     * @param sha256 its SHA-256, hex (the name of its proof)
     * @param record the {@code WARC-Record-ID} of the response it was taken from
     */
    public record MediaEntry(String file, String uri, String sha256, String record) {}

    /**
     * A media address not kept.
     *
     * @param uri the address
     * @param why the reason
     */
    public record Skipped(String uri, String why) {}

    /** The record as JSON (UTF-8). */
    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new ProofModeException(Failure.INTERNAL, "collection record: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a record.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if it is not a collection record
     */
    public static CollectionRecord parse(byte[] json) {
        try {
            CollectionRecord r = JSON.readValue(json, CollectionRecord.class);
            if (!FORMAT.equals(r.format())) {
                throw new ProofModeException(Failure.BAD_DATA, FILE + ": not a collection record of format " + FORMAT);
            }
            return r;
        } catch (java.io.IOException | IllegalArgumentException | NullPointerException e) {
            throw new ProofModeException(Failure.BAD_DATA, FILE + ": not a collection record (" + e.getMessage() + ")", e);
        }
    }
}
