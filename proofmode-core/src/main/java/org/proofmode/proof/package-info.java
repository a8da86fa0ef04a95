// SPDX-License-Identifier: Apache-2.0
/**
 * The proof record, an ordered flat map of strings as the ProofMode app writes it, its field names,
 * its JSON and CSV codecs (which also read the app's older and looser forms), proof times, and the
 * {@link MetadataSource} interface with the file and app-device sources.
 */
package org.proofmode.proof;
