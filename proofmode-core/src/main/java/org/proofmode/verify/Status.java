// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

/** The outcome of one check. */
public enum Status {
    /** The check ran and passed. */
    PASS,
    /** The check ran and failed: the proof is invalid. */
    FAIL,
    /** Something a careful reader should know; does not make the proof invalid. */
    WARN,
    /** For information only. */
    INFO
}
