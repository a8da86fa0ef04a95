// SPDX-License-Identifier: Apache-2.0
/**
 * Capture context, in one place: the settings that decide what a proof records, the
 * {@link org.proofmode.context.MetadataSource} interface, and every source that records it (the file
 * and the app-style device, the device in detail with the clock's trust, the environment's integrity,
 * the media's own tags, audio and video tracks, the pixel and perceptual image hashes, motion and
 * environment sensors, Bluetooth, mobile cells, location from gpsd or the user, the network, hashed
 * device identifiers), each adding namespaced fields to a proof record and none able to fail a proof.
 * System services (iio-sensor-proxy, BlueZ, ModemManager, oFono, timedated, timesyncd) are asked over
 * the D-Bus system bus, each exchange bounded in time.
 * {@link org.proofmode.context.ContextSources} chooses the sources for a settings file.
 */
package org.proofmode.context;
