// SPDX-License-Identifier: Apache-2.0
/**
 * How the command line shows things, apart from what it does: the verification report as text
 * ({@link org.proofmode.cli.print.ReportPrinter}), the progress bar on a terminal, the watcher's log lines
 * (text or JSON), and the {@link org.proofmode.cli.print.Terminal} a command talks to. Everything that came
 * from outside is escaped here before it is printed. Nothing in this package depends on the commands.
 */
package org.proofmode.cli.print;
