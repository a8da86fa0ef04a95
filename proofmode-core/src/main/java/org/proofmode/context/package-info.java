// SPDX-License-Identifier: Apache-2.0
/**
 * Capture context, in one place: the settings that decide what a proof records, the
 * {@link org.proofmode.context.MetadataSource} interface, and every source that records it (the file
 * and the app-style device, the device in detail, the media's own tags, audio and video tracks, the
 * pixel and perceptual image hashes, location from gpsd or the user, the network, hashed device
 * identifiers), each adding namespaced fields to a proof record and none able to fail a proof.
 * {@link org.proofmode.context.ContextSources} chooses the sources for a settings file.
 */
package org.proofmode.context;
