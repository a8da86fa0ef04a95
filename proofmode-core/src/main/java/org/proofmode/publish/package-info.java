// SPDX-License-Identifier: Apache-2.0
/**
 * Publishing proofs to an evidence server ({@code proofmode serve}): the client of its evidence and
 * notarization API ({@link org.proofmode.publish.Publisher}), over a SOCKS5 proxy such as Tor where one is
 * set, and the queue of what could not be sent yet ({@link org.proofmode.publish.PublishQueue}), retried
 * with the timestamp queue's backoff.
 */
package org.proofmode.publish;
