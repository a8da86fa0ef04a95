// SPDX-License-Identifier: Apache-2.0
/**
 * Verification as data: the {@link Verifier} runs every check it can on a
 * bundle, proof folder or proved media file and returns a {@link
 * VerificationReport} of checks with stable codes ({@link
 * CheckCodes}) and a verdict. A failed check never throws; an exception means
 * the verification could not run. What a verifier trusts is one value, {@link Trust} (its files read
 * here); what a path given to {@code verify} stands for, and its report, is {@link Targets}.
 */
package org.proofmode.verify;
