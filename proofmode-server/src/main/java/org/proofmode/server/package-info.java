// SPDX-License-Identifier: Apache-2.0
/**
 * The verification and evidence server ({@code proofmode serve}): its configuration, the log's key,
 * sequencer and mirror, the witness, and the wiring of the HTTP API and the web page (what handlers and
 * wiring share is in {@code server.service}, below both).
 */
package org.proofmode.server;
