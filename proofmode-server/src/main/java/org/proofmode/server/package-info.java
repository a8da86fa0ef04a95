// SPDX-License-Identifier: Apache-2.0
/**
 * The verification and evidence server ({@code proofmode serve}): its configuration, the verification
 * pool with its time limit, and the wiring of the HTTP API and the web page.
 */
package org.proofmode.server;
