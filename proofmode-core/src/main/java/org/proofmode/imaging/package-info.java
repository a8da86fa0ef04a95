// SPDX-License-Identifier: Apache-2.0
/**
 * Everything that decodes pixels: the pixel and perceptual hashes of a photo, the redaction filters
 * and the encoder of redacted copies, and face detection. It is the only package that uses desktop
 * imaging APIs, so that a port to another platform replaces this package alone.
 */
package org.proofmode.imaging;
