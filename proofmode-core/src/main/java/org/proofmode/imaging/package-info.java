// SPDX-License-Identifier: Apache-2.0
/**
 * Everything that decodes pixels: the pixel and perceptual hashes of a photo, the frame hashes of a
 * video and the sample hashes of a recording (computed by an FFmpeg process, so that FFmpeg alone
 * reproduces them), the redaction filters and the encoder of redacted copies, and face detection. It is
 * the only package that uses desktop imaging APIs or runs a decoder, so that a port to another platform
 * replaces this package alone.
 */
package org.proofmode.imaging;
