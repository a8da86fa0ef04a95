// SPDX-License-Identifier: Apache-2.0
/**
 * The facade. {@link ProofMode} is the front door of the library: one home folder with its device keys
 * and proof store, and the provers, the verifier ({@code verifier(Trust)}), redactors and timestampers wired
 * for it; its stored proofs found and published ({@code HomeProofs}). Beside it, use cases the commands call
 * in one step: {@link HomeWipe}, {@link Publishers}, {@link LogMonitoring}, {@link Receipts}. How an operation
 * fails is in {@code org.proofmode.failure}, below every other package. The map of all packages is
 * docs/architecture.md.
 */
package org.proofmode;
