// SPDX-License-Identifier: Apache-2.0
/**
 * The {@code proofmode} command line: one picocli command class per subcommand, which parses, calls
 * the core and prints; the exit-code mapper ({@link ExitCodes}, the one place where
 * failures become exit codes); the printers of reports; and the agent, which keeps the device key
 * unlocked and serves commands of the same user over an owner-only Unix socket.
 */
package org.proofmode.cli;
