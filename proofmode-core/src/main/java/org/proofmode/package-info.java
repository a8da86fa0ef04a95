// SPDX-License-Identifier: Apache-2.0
/**
 * The facade and the failure model. {@link ProofMode} is the front door of the library:
 * one home folder with its device keys and proof store, and the provers, verifiers, redactors and
 * timestampers wired for it. {@link ProofModeException} carries a {@link
 * Failure}, the reason an operation could not run, which each front end maps to its own
 * codes in exactly one place. A failed check is never an exception: see {@code org.proofmode.verify}.
 * The map of all packages is docs/architecture.md.
 */
package org.proofmode;
