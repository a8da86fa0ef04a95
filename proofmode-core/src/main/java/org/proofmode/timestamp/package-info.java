// SPDX-License-Identifier: Apache-2.0
/**
 * Trusted timestamps for proofs, offline first: which services to ask (the timestamp settings),
 * asking them for the media signature file, and the queue of requests that wait for an unreachable
 * service. The formats are in the sub-packages.
 */
package org.proofmode.timestamp;
