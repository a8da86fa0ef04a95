// SPDX-License-Identifier: Apache-2.0
/**
 * OpenTimestamps: the {@code .ots} file format (reader and writer of our own, byte-compatible with
 * the reference client), its commitment operations and attestations, and the calendar protocol client.
 */
package org.proofmode.timestamp.ots;
