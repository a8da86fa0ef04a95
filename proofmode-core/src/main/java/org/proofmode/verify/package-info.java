// SPDX-License-Identifier: Apache-2.0
/**
 * Verification as data: the {@link org.proofmode.verify.Verifier} runs every check it can on a
 * bundle, proof folder or proved media file and returns a {@link
 * org.proofmode.verify.VerificationReport} of checks with stable codes ({@link
 * org.proofmode.verify.CheckCodes}) and a verdict. A failed check never throws; an exception means
 * the verification could not run.
 */
package org.proofmode.verify;
