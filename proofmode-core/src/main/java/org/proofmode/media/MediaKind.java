// SPDX-License-Identifier: Apache-2.0
package org.proofmode.media;

/** The kinds of media a proof is made for. */
public enum MediaKind {
    /** A still image: photo, scan, raw capture. */
    IMAGE,
    /** A moving picture, with or without sound. */
    VIDEO,
    /** A sound recording. */
    AUDIO
}
