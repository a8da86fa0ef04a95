// SPDX-License-Identifier: Apache-2.0
/**
 * Small shared mechanisms, public on purpose because the command line and the server use them too:
 * the home folder's layout ({@link org.proofmode.util.Home}), crash-safe file writes ({@link org.proofmode.util.AtomicFiles}), the home's lock, a bounded HTTP
 * client for timestamp services, input files checked before they are read, operating-system commands
 * run with time limits, read-ahead of large files, text made safe to print ({@link
 * org.proofmode.util.SafeText}), hex. It imports only the failure model.
 */
package org.proofmode.util;
