// SPDX-License-Identifier: Apache-2.0
/**
 * Online collection ({@code proofmode collect URL}): a web page and the media it embeds fetched with
 * bounded size, time and redirects ({@link org.proofmode.collect.CollectLimits}), preserved in a WARC
 * (ISO 28500, on jwarc) with the server's TLS chain, and described by a signed collection record
 * ({@link org.proofmode.collect.CollectionRecord}) with the fields the Berkeley Protocol asks for: who
 * collected what, when, how, with which tool, and each record's payload digest. {@link
 * org.proofmode.collect.Collector} fetches (through {@code util.Http}'s rules: the proxy, no local look-up
 * of an {@code .onion} name) and writes everything into a staging folder moved into place at the end;
 * the page's HTML is read with jsoup, and everything from the page is untrusted.
 */
package org.proofmode.collect;
