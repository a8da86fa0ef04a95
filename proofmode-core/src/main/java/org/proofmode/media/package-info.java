// SPDX-License-Identifier: Apache-2.0
/**
 * What a file is and how to read it cheaply: recognising photo, video and audio formats by their
 * leading bytes, the media types and kinds, digests, the walk over a JPEG's marker segments, and the
 * small container parsers no library covers here (ID3 tags, MP3 frame counts, RIFF/WAV durations).
 */
package org.proofmode.media;
