// SPDX-License-Identifier: Apache-2.0
/**
 * What a file is and how to read it cheaply: recognising photo, video and audio formats by their
 * leading bytes, the media types and kinds, digests, and the walk over a JPEG's marker segments.
 */
package org.proofmode.media;
