// SPDX-License-Identifier: Apache-2.0
/**
 * The agent: a process that keeps the device key unlocked, like {@code gpg-agent}, and runs the
 * {@code prove}, {@code verify}, {@code export} and {@code status} commands of the same user sent over an owner-only Unix socket
 * ({@link org.proofmode.cli.agent.AgentServer}); the client that hands a command to it
 * ({@link org.proofmode.cli.agent.AgentClient}) and their wire format
 * ({@link org.proofmode.cli.agent.AgentProtocol}). The commands themselves are run by a
 * {@link org.proofmode.cli.agent.AgentServer.Runner} the command line gives; nothing here depends on the
 * commands, picocli or the printers, so that a command handed to the agent loads almost nothing.
 */
package org.proofmode.cli.agent;
