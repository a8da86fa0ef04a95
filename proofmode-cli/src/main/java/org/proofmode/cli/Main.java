// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.proofmode.ProofMode;
import org.proofmode.cli.print.OneAnswerTerminal;
import org.proofmode.cli.print.Terminal;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** The {@code proofmode} command: verifiable photography from the command line. */
@Command(name = "proofmode",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        header = "Prove photos, videos and recordings at capture, and verify proofs from anyone.",
        description = {
            "A proof is the file's SHA-256, a snapshot of the device, and OpenPGP signatures by this "
                + "device's key, in the format of the ProofMode Android app. Anyone can check it, with this "
                + "tool or with sha256sum and gpg.",
            "",
            "Keys and proofs live in PROOFMODE_HOME (default ~/.proofmode). The device key is made on "
                + "first use; its passphrase comes from --passphrase-file, PROOFMODE_PASSPHRASE, a terminal "
                + "prompt, or is generated and kept beside the key (see 'proofmode keys protect'). A key can "
                + "live in a PKCS#11 token instead (an HSM, a TPM, a smart card: 'proofmode keys create --pkcs11 "
                + "MODULE'); its PIN comes from --pin-file, PROOFMODE_PIN or a prompt.",
            ""},
        footer = {"", "Examples:",
            "  proofmode prove IMG_0001.jpg              prove a photo into the store",
            "  proofmode prove --notes 'march' ~/DCIM    prove a folder, on every core",
            "  proofmode export --with-media -o share.zip IMG_0001.jpg",
            "  proofmode verify share.zip                check a bundle (ours or the app's)",
            "  proofmode inspect IMG_0001.jpg            what a proof would record, unsigned",
            "  proofmode redact --faces IMG_0001.jpg -o public.jpg   hide faces and metadata, keep the proof link",
            "  proofmode settings set location true      record locations from now on",
            "  proofmode verify --trust alice.asc --require-trusted share.zip",
            "  proofmode prove --ots --tsa https://tsa.example/tsr IMG_0001.jpg   prove and timestamp",
            "  proofmode timestamp sync                  retry timestamps queued while offline",
            "  proofmode publish --tor IMG_0001.jpg      send the proof and photo to your evidence server over Tor",
            "  proofmode serve                           web page and API on http://127.0.0.1:8080/",
            "  proofmode watch --recursive ~/Sync/Camera prove every photo that arrives, until stopped",
            "  proofmode agent &                         keep the key unlocked: later proves start fast",
            "  proofmode status                          what the watcher watches, its queue and errors",
            "  proofmode wipe --all                      panic wipe: proofs and keys (asks first)",
            "",
            "Help topics:",
            "  proofmode help sharing    how to share a proof, and what each way reveals",
            "",
            "Without a command, proofmode prints this help to stderr and exits 19 (missing argument).",
            "", ExitCodes.HELP_TABLE})
public final class Main implements Callable<Integer> {
    /**
     * The subcommands, in the order help lists them. Only the one being run is built (picocli reads each
     * command's annotations by reflection, which costs start-up time); help and errors get them all.
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            ProveCommand.class, VerifyCommand.class, ReportCommand.class, ExportCommand.class, PublishCommand.class, RedactCommand.class, NotarizeCommand.class, CollectCommand.class,
            TimestampCommand.class, C2paCommand.class, WatchCommand.class, StatusCommand.class, KeysCommand.class,
            InspectCommand.class, CompareCommand.class, SettingsCommand.class, WipeCommand.class, ServeCommand.class, ServerCommand.class, LogCommand.class,
            AgentCommand.class, LockCommand.class, SharingTopic.class, CommandLine.HelpCommand.class);

    final CliContext ctx;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--stacktrace", description = "Print the stack trace of an internal error.", scope = CommandLine.ScopeType.INHERIT)
    boolean stacktrace;

    Main(CliContext ctx) {
        this.ctx = ctx;
    }

    /** No command was given: the help goes to stderr, as for any command line that cannot run. */
    @Override
    public Integer call() {
        spec.commandLine().usage(ctx.err());
        ctx.err().println("proofmode: no command given: which one? (proofmode help COMMAND explains one)");
        return ExitCodes.MISSING_ARGUMENT;
    }

    ProofMode proofMode() {
        return ProofMode.at(ctx.home());
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        // A running agent takes the command before anything else is loaded.
        ClientMain.main(args);
    }

    /** Runs the command line in this process and exits with its code. */
    static void runHere(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        int code = execute(args, new CliContext(out, err, System.getenv(), Terminal.system()));
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * Runs the command line with the given streams, environment and terminal.
     *
     * @return the exit code (see {@link ExitCodes})
     */
    public static int execute(String[] args, CliContext context) {
        if (invoked(args).filter(LONG_RUNNING::contains).isPresent()) {
            return run(args, context);
        }
        // A command that needs the device key's passphrase twice (an encrypted store, then a signature) asks
        // once; the answer is cleared when the command ends. A long-running command holds no answer.
        try (OneAnswerTerminal terminal = new OneAnswerTerminal(context.terminal(), Set.of(Passphrases.DEVICE_KEY_PROMPT))) {
            return run(args, context.withTerminal(terminal));
        }
    }

    /** Commands that run until stopped. */
    private static final Set<Class<?>> LONG_RUNNING = Set.of(WatchCommand.class, AgentCommand.class, ServeCommand.class);

    private static int run(String[] args, CliContext ctx) {
        Main main = new Main(ctx);
        CommandLine cl = new CommandLine(main);
        Optional<Class<?>> invoked = invoked(args);
        if (invoked.isPresent()) {
            cl.addSubcommand(invoked.get());
        } else if (!List.of(args).equals(List.of("--version")) && !List.of(args).equals(List.of("-V"))) {
            for (Class<?> c : SUBCOMMANDS) {
                cl.addSubcommand(c);
            }
        }
        cl.setOut(ctx.out());
        cl.setErr(ctx.err());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // After the subcommands are added: a converter registered here reaches them.
        cl.registerConverter(Path.class, new CommandLinePaths(ctx.cwd()));
        cl.setParameterExceptionHandler(new ParameterErrors());
        cl.setExecutionExceptionHandler(new ExecutionErrors(main));
        try {
            return cl.execute(args);
        } finally {
            ctx.out().flush();
            ctx.err().flush();
        }
    }

    // The handlers are classes, not lambdas: picocli's types are Java 5 class files, which a class-data
    // archive holds only while nothing links them when it is made, and a lambda implementing one does
    // (as a method reference to a CommandLine method links CommandLine). See the launcher's
    // "Class-data sharing".

    /** Picocli's handler of a command line it could not parse. */
    private static final class ParameterErrors implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException e, String[] args) {
            return parameterError(e, args);
        }
    }

    /** Picocli's handler of an exception a command threw. */
    private static final class ExecutionErrors implements CommandLine.IExecutionExceptionHandler {
        private final Main main;

        ExecutionErrors(Main main) {
            this.main = main;
        }

        @Override
        public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
            return executionError(e, cmd, main);
        }
    }

    /** The subcommand the arguments name, if they name one other than {@code help}. */
    static Optional<Class<?>> invoked(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return Optional.empty();
            }
            if (!a.startsWith("-")) {
                for (Class<?> c : SUBCOMMANDS) {
                    Command command = c.getAnnotation(Command.class);
                    if (!c.equals(CommandLine.HelpCommand.class)
                            && (command.name().equals(a) || List.of(command.aliases()).contains(a))) {
                        return Optional.of(c);
                    }
                }
                return Optional.empty();
            }
        }
        return Optional.empty();
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

    private static int executionError(Exception e, CommandLine cmd, Main main) {
        PrintWriter err = cmd.getErr();
        if (e instanceof ProofModeException pme) {
            // Messages quote file names and the content of hostile files: escaped, one line.
            err.println("proofmode: " + SafeText.escape(pme.getMessage()));
            if (main.stacktrace) {
                e.printStackTrace(err);
            }
            return ExitCodes.of(pme.failure());
        }
        if (e instanceof CommandLine.ParameterException pe) {
            return parameterError(pe, new String[0]);
        }
        err.println("proofmode: internal error: " + e + (main.stacktrace ? "" : " (run with --stacktrace for details)"));
        if (main.stacktrace) {
            e.printStackTrace(err);
        }
        return ExitCodes.of(Failure.INTERNAL);
    }

    /** Reads the version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"proofmode " + (v == null ? "dev" : v),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
