// SPDX-License-Identifier: Apache-2.0
/**
 * Small shared mechanisms that are not part of the library's API: crash-safe file writes, a bounded
 * HTTP client for timestamp services, operating-system commands run with time limits, read-ahead of
 * large files, hex. Nothing here is stable for callers outside the project.
 */
package org.proofmode.internal;
