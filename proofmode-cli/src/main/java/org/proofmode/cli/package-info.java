// SPDX-License-Identifier: Apache-2.0
/**
 * The {@code proofmode} command line: one picocli command class per subcommand, which parses, calls
 * the core and prints; the exit-code mapper ({@link ExitCodes}, the one place where failures become
 * exit codes); passphrases and key options. Printing is in {@code cli.print}, the agent's socket and
 * protocol in {@code cli.agent}; neither depends on this package.
 */
package org.proofmode.cli;
