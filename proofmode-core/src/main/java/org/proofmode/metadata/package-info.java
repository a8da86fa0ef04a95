// SPDX-License-Identifier: Apache-2.0
/**
 * Capture context: the settings that decide what a proof records, and the sources that record it (the
 * device in detail, the media's own tags, location from gpsd or the user, the network, hashed device
 * identifiers), each adding namespaced fields to a proof record and none able to fail a proof; also
 * CameraV's J3M document.
 */
package org.proofmode.metadata;
