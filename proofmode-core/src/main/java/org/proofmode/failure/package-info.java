// SPDX-License-Identifier: Apache-2.0
/**
 * The failure model, below every other package. {@link org.proofmode.failure.ProofModeException}
 * carries a {@link org.proofmode.failure.Failure}, the reason an operation could not run, which each
 * front end maps to its own codes in exactly one place (exit codes in the CLI, HTTP status in the
 * server). A failed check is never an exception: see {@code org.proofmode.verify}. This package imports
 * nothing of the project.
 */
package org.proofmode.failure;
