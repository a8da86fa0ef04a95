// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

/** What happened to an item, as the chain-of-custody log records it. */
public enum CustodyAction {
    /** The bundle was received, verified and stored. */
    INTAKE,
    /** The same bytes were received again; the stored copy was kept. */
    RESUBMIT,
    /** The stored bundle was verified again. */
    REVERIFY,
    /** The stored bundle was downloaded. */
    DOWNLOAD,
    /** A verification report (PDF) of the stored bundle was made and downloaded. */
    REPORT,
    /** A notarization text received earlier was matched to this bundle's media. */
    NOTARIZATION_MATCH
}
