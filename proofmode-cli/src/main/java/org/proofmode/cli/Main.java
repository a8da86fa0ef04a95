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
        if (HelpClasses.listing()) {
            HelpClasses.printEvery(System.getenv());
        }
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
        CommandLine cl = commandLine(main, args);
        cl.setOut(ctx.out());
        cl.setErr(ctx.err());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // After the subcommands are added: a converter registered here reaches them.
        cl.registerConverter(Path.class, new CommandLinePaths(ctx.cwd()));
        cl.setParameterExceptionHandler(new CommandErrors.Parameters());
        cl.setExecutionExceptionHandler(new CommandErrors.Execution(() -> main.stacktrace));
        try {
            return cl.execute(args);
        } finally {
            ctx.out().flush();
            ctx.err().flush();
        }
    }

    /**
     * The command line for these arguments: the command they run, built in full; without one (help, the
     * list of commands, a mistyped command), every command as the list of commands shows it, by its names
     * and header only, except the one {@code help COMMAND} names: reading each command's options by
     * reflection, with the types they name, was most of the time {@code proofmode --help} took.
     */
    static CommandLine commandLine(Main main, String[] args) {
        CommandLine cl = new CommandLine(main);
        Optional<Class<?>> invoked = invoked(args);
        if (invoked.isPresent()) {
            cl.addSubcommand(invoked.get());
        } else if (!List.of(args).equals(List.of("--version")) && !List.of(args).equals(List.of("-V"))) {
            Optional<Class<?>> topic = helpTopic(args);
            for (Class<?> c : SUBCOMMANDS) {
                if (c.equals(CommandLine.HelpCommand.class) || topic.filter(c::equals).isPresent()) {
                    cl.addSubcommand(c);
                } else {
                    cl.addSubcommand(listed(c));
                }
            }
            SharingTopic.acceptLanguage(cl);
        }
        return cl;
    }

    /** A command as the list of commands shows it: its names, header, description and whether it is hidden. */
    private static CommandLine.Model.CommandSpec listed(Class<?> c) {
        Command command = c.getAnnotation(Command.class);
        CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create().name(command.name()).aliases(command.aliases());
        spec.usageMessage().header(command.header()).description(command.description()).hidden(command.hidden());
        return spec;
    }

    /** The command {@code help COMMAND} names, if the arguments are that. */
    static Optional<Class<?>> helpTopic(String[] args) {
        boolean help = false;
        for (String a : args) {
            if (a.startsWith("-")) {
                continue;
            }
            if (help) {
                return invoked(new String[] {a});
            }
            if (!a.equals("help")) {
                return Optional.empty();
            }
            help = true;
        }
        return Optional.empty();
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
