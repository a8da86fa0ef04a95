// SPDX-License-Identifier: Apache-2.0
/**
 * The proof record, an ordered flat map of strings as the ProofMode app writes it, its field names
 * (the app's in {@code ProofFields}, the capture context's in {@code ContextFields}), the record formats:
 * JSON and CSV codecs (which also read the app's older and looser forms) and CameraV's J3M document,
 * and proof times. The sources that fill a record are in {@code org.proofmode.context}.
 */
package org.proofmode.proof;
