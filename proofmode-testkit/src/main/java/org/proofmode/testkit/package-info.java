// SPDX-License-Identifier: Apache-2.0
/**
 * Shared test helpers: the external sample data, external tools (gpg, sqv, FFmpeg...) and tamper recipes that
 * derive invalid proofs from valid ones. Used by the other modules in test scope only.
 */
package org.proofmode.testkit;
