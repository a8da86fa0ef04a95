// SPDX-License-Identifier: Apache-2.0
/**
 * Redacted copies of photos that keep a verifiable link to their originals: planning the regions
 * (given or detected faces), writing the copy with the chosen metadata stripped, optionally with
 * content credentials naming the original, and the signed redaction record.
 */
package org.proofmode.redact;
