// SPDX-License-Identifier: Apache-2.0
/**
 * Making proofs: the {@link Prover} reads each media file once for its SHA-256
 * and its detached signature, lets the context sources fill the record, signs the record's JSON and
 * CSV and stores the whole set atomically; {@link HeadStart} is all the work a proof begins before it
 * needs it (a file read early, the key unlocked while hashing, the context taken meanwhile, the writers
 * warmed), so that the prover reads as its steps; the {@link ContextReader}, which reads the record a proof
 * would have without a key ({@code inspect}); and the app's notarize-only text.
 */
package org.proofmode.prove;
