// SPDX-License-Identifier: Apache-2.0
package org.proofmode.failure;

/**
 * Why an operation could not run. Each front end maps these to its own codes in exactly one place
 * (exit codes in the CLI, HTTP status in the server).
 */
public enum Failure {
    /** A file or proof named by the caller does not exist. */
    INPUT_MISSING,
    /** Input is not what it claims to be: a corrupt zip, an unparseable key or signature. */
    BAD_DATA,
    /** A value given by the caller is not acceptable: an unknown setting, malformed coordinates. */
    BAD_ARGUMENT,
    /** An algorithm, format or version this library does not support. */
    UNSUPPORTED,
    /** A secret key is locked: the passphrase is missing or wrong. */
    KEY_LOCKED,
    /** An output already exists and overwriting was not asked for. */
    OUTPUT_EXISTS,
    /** The caller combined options that cannot go together. */
    INCOMPATIBLE_OPTIONS,
    /** A network service (a timestamp authority, a calendar) could not be reached, timed out or failed. */
    SERVICE_UNREACHABLE,
    /** Reading or writing local storage failed (disk full, permissions). */
    IO,
    /** A bug: something that should never happen did. */
    INTERNAL
}
