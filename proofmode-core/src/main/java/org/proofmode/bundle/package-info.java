// SPDX-License-Identifier: Apache-2.0
/**
 * Proof sets at rest and in transit: the proof store ({@code <home>/proofs/<sha256>/}), share bundles
 * read from zips or folders without extracting anything (bounded by {@link
 * BundleLimits} against hostile archives), and the writer of the app's flat
 * share zip with its plain-language instructions; a plain store made encrypted ({@link StoreEncryption}).
 */
package org.proofmode.bundle;
