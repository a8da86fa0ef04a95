// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import picocli.CommandLine;

/**
 * How the command line reports what stopped it: a command line picocli could not parse, and an exception a
 * command threw, each as one escaped line on stderr and an exit code of {@link ExitCodes}.
 */
final class CommandErrors {
    private CommandErrors() {}

    // The handlers are classes, not lambdas: picocli's types are Java 5 class files, which a class-data
    // archive holds only while nothing links them when it is made, and a lambda implementing one does
    // (as a method reference to a CommandLine method links CommandLine). See the launcher's
    // "Class-data sharing".

    /** Picocli's handler of a command line it could not parse. */
    static final class Parameters implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException e, String[] args) {
            return parameterError(e, args);
        }
    }

    /** Picocli's handler of an exception a command threw. */
    static final class Execution implements CommandLine.IExecutionExceptionHandler {
        private final BooleanSupplier stacktrace;

        /** With the stack trace of an internal error printed when {@code stacktrace} says so ({@code --stacktrace}). */
        Execution(BooleanSupplier stacktrace) {
            this.stacktrace = stacktrace;
        }

        @Override
        public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
            return executionError(e, cmd, stacktrace.getAsBoolean());
        }
    }

    private static int parameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        Optional<Mistake> mistake = Mistake.of(e);
        if (mistake.isPresent()) {
            err.println("proofmode: " + mistake.get().line());
            return mistake.get().exitCode();
        }
        err.println("proofmode: " + SafeText.escape(String.valueOf(e.getMessage())));
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        if (e instanceof CommandLine.MissingParameterException) {
            return ExitCodes.MISSING_ARGUMENT;
        }
        if (e instanceof CommandLine.MutuallyExclusiveArgsException) {
            return ExitCodes.INCOMPATIBLE_OPTIONS;
        }
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                && cmd.getSubcommands().size() > 0 && !u.getUnmatched().get(0).startsWith("-")) {
            return ExitCodes.UNKNOWN_SUBCOMMAND;
        }
        return ExitCodes.BAD_OPTION;
    }

    private static int executionError(Exception e, CommandLine cmd, boolean stacktrace) {
        PrintWriter err = cmd.getErr();
        if (e instanceof ProofModeException pme) {
            // Messages quote file names and the content of hostile files: escaped, one line.
            err.println("proofmode: " + SafeText.escape(pme.getMessage()));
            if (stacktrace) {
                e.printStackTrace(err);
            }
            return ExitCodes.of(pme.failure());
        }
        if (e instanceof CommandLine.ParameterException pe) {
            return parameterError(pe, new String[0]);
        }
        err.println("proofmode: internal error: " + e + (stacktrace ? "" : " (run with --stacktrace for details)"));
        if (stacktrace) {
            e.printStackTrace(err);
        }
        return ExitCodes.of(Failure.INTERNAL);
    }
}
