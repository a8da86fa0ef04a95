// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.proofmode.ProofMode;
import org.proofmode.server.ProofServer;
import org.proofmode.watch.WatchDb;

/**
 * The layering that docs/architecture.md draws, checked on the compiled classes of every module: the
 * table of core packages is read from the map itself, so a change that breaks the layering, or adds a
 * package the map does not name, fails here until the code or the map is put right.
 */
class ArchitectureTest {
    /** The modules built on the core: the front ends, the watcher and the test kit. */
    private static final String[] ABOVE_CORE = {"org.proofmode.cli..", "org.proofmode.server..", "org.proofmode.watch..",
        "org.proofmode.testkit.."};
    private static final String[] DATABASES = {"java.sql..", "org.sqlite..", "org.flywaydb..", "org.postgresql.."};
    /** Core: every package of the project that is not in a module built on it. */
    private static final DescribedPredicate<JavaClass> CORE =
            resideInAPackage("org.proofmode..").and(not(resideInAnyPackage(ABOVE_CORE))).as("core");

    private static final String CORE_TABLE = "## Core packages, bottom to top";
    private static final String SERVER_TABLE = "## Server packages, bottom to top";
    private static final String CLI_TABLE = "## CLI packages, bottom to top";
    private static JavaClasses all;

    @BeforeAll
    static void importClasses() {
        // Tests are left out whether they come as test-classes folders (a module's own) or as a module's test jar
        // (the server's tests, which a full build puts on this module's class path as proofmode-server-…-tests.jar).
        all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("org.proofmode");
    }

    @Test
    void classesImported_fromEveryModule() {
        // A guard that saw no classes would pass whatever the code did.
        for (String p : new String[] {"org.proofmode", "org.proofmode.verify", "org.proofmode.cli", "org.proofmode.server",
            "org.proofmode.watch"}) {
            assertThat(all.stream().anyMatch(c -> c.getPackageName().equals(p))).as(p).isTrue();
        }
    }

    @Test
    void core_usesNoFrontEnd() {
        noClasses().that(CORE).should().dependOnClassesThat().resideInAnyPackage(
                "picocli..", "io.javalin..", "org.eclipse.jetty..", "org.proofmode.cli..", "org.proofmode.server..",
                "org.proofmode.watch..", "org.proofmode.testkit..").check(all);
    }

    @Test
    void core_usesNoDatabase() {
        noClasses().that(CORE).should().dependOnClassesThat().resideInAnyPackage(DATABASES).check(all);
    }

    @Test
    void watcher_usesNoFrontEnd() {
        noClasses().that().resideInAPackage("org.proofmode.watch..").should().dependOnClassesThat().resideInAnyPackage(
                "picocli..", "io.javalin..", "org.eclipse.jetty..", "org.proofmode.cli..", "org.proofmode.server..",
                "org.proofmode.testkit..").check(all);
    }

    @Test
    void server_usesNeitherTheCommandLineNorTheWatcher() {
        noClasses().that().resideInAPackage("org.proofmode.server..").should().dependOnClassesThat()
                .resideInAnyPackage("org.proofmode.cli..", "org.proofmode.watch..").check(all);
    }

    @Test
    void printersAndAgent_doNotUseTheCommands() {
        noClasses().that().resideInAnyPackage("org.proofmode.cli.print..", "org.proofmode.cli.agent..").should()
                .dependOnClassesThat().resideInAPackage("org.proofmode.cli").check(all);
    }

    @Test
    void agent_loadsNeitherPicocliNorThePrinters() {
        // A command handed to a running agent loads the agent's client and little else: that is its speed.
        noClasses().that().resideInAPackage("org.proofmode.cli.agent..").should().dependOnClassesThat()
                .resideInAnyPackage("picocli..", "org.proofmode.cli.print..").check(all);
    }

    /**
     * Commands still doing more than parse, call one use case, print: over {@link #COMMAND_LINES} lines or
     * using another command class. The slimming of the CLI empties this list, one command at a time, and
     * nothing is added to it: a new or changed command that needs an entry here belongs in core instead.
     */
    private static final Set<String> PENDING_THIN = Set.of();
    /** The most lines a command's source file may have (house style: aim under ~300 a class). */
    private static final int COMMAND_LINES = 250;

    @Test
    void commands_useNoOtherCommand() {
        // A command that calls into another shares a use case that belongs in core. The root Main is the one
        // exception, both ways: it builds the command line from its list of subcommands (SUBCOMMANDS, added
        // at run time so that only the one being run is built; the help, the docs and the agent read the
        // list too), and every command reaches the shared context and the version through it (its
        // @ParentCommand field, Main.Version). Neither is a use case. A command's own nested subcommands
        // (publish login, log keep) are part of it, and so is a group's listing of the subcommand classes
        // it is made of in its @Command(subcommands = ...) (keys create, keys rotate): the listing names
        // them, it calls nothing of theirs, and they reach the home through their own CommandSpec.
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : all) {
            String from = commandOf(c);
            if (from == null || from.equals("Main")) {
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = commandOf(d.getTargetClass());
                if (to != null && !to.equals(from) && !to.equals("Main") && !listedSubcommands(c).contains(to)) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
        }
        uses.keySet().removeAll(PENDING_THIN);
        assertThat(uses).as("commands using another command class (move what they share to core)").isEmpty();
    }

    @Test
    void commands_areShort() throws IOException {
        Path sources = docs().getParent().resolve("proofmode-cli/src/main/java/org/proofmode/cli");
        Set<String> commands = new TreeSet<>();
        all.stream().map(ArchitectureTest::commandOf).filter(java.util.Objects::nonNull).forEach(commands::add);
        assertThat(commands).as("command classes found").contains("Main", "WipeCommand", "ServeCommand").hasSizeGreaterThan(15);
        Map<String, Integer> tooLong = new TreeMap<>();
        for (String command : commands) {
            int lines = Files.readAllLines(sources.resolve(command + ".java")).size();
            if (lines > COMMAND_LINES && !PENDING_THIN.contains(command)) {
                tooLong.put(command, lines);
            }
        }
        assertThat(tooLong).as("commands over %d lines (parse, call one use case, print)", COMMAND_LINES).isEmpty();
    }

    @Test
    void pendingThin_namesOnlyCommandsThatStillNeedIt() throws IOException {
        // The allow-list only shrinks: an entry whose command is now thin must go.
        Path sources = docs().getParent().resolve("proofmode-cli/src/main/java/org/proofmode/cli");
        for (String command : PENDING_THIN) {
            boolean long_ = Files.readAllLines(sources.resolve(command + ".java")).size() > COMMAND_LINES;
            boolean usesOther = all.stream().filter(c -> command.equals(commandOf(c))).flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .map(d -> commandOf(d.getTargetClass())).anyMatch(t -> t != null && !t.equals(command) && !t.equals("Main"));
            assertThat(long_ || usesOther).as("%s is thin now: take it off PENDING_THIN", command).isTrue();
        }
    }

    /**
     * The top-level picocli command a class of {@code org.proofmode.cli} belongs to (itself or the class it
     * is nested in, when that one is annotated {@code @Command}), or null.
     */
    /** The simple names of the classes a command class lists in its {@code @Command(subcommands = ...)}. */
    private static Set<String> listedSubcommands(JavaClass c) {
        if (!c.isAnnotatedWith(picocli.CommandLine.Command.class)) {
            return Set.of();
        }
        Set<String> names = new TreeSet<>();
        for (Class<?> sub : c.reflect().getAnnotation(picocli.CommandLine.Command.class).subcommands()) {
            names.add(sub.getSimpleName());
        }
        return names;
    }

    private static String commandOf(JavaClass c) {
        if (!c.getPackageName().equals("org.proofmode.cli")) {
            return null;
        }
        JavaClass top = c;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top.isAnnotatedWith(picocli.CommandLine.Command.class) ? top.getSimpleName() : null;
    }

    @Test
    void jpegSegments_areWalkedByOneClass_everyReaderOfThem() {
        // One walk of a JPEG's marker segments (media.JpegSegments, as metadata-extractor's JpegSegmentReader):
        // each reader of them, whatever it wants from the segments, goes through it.
        for (String reader : List.of("media.JpegStructure", "imaging.FastJpeg", "c2pa.EmbeddedStore", "c2pa.UpdateManifests",
                "c2pa.Embedding", "c2pa.BoxHash")) {
            String name = "org.proofmode." + reader;
            assertThat(all.stream().filter(c -> c.getName().equals(name) || c.getName().startsWith(name + "$"))
                    .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .map(d -> d.getTargetClass().getName()))
                    .as("%s walks JPEG segments through media.JpegSegments", reader)
                    .anyMatch(t -> t.startsWith("org.proofmode.media.JpegSegments"));
        }
    }

    @Test
    void homeEntries_areNamedByHomeOnly() throws IOException {
        // util.Home names every file and folder of the home: a class that wrote "keys/secret.asc", "watch.db"
        // or resolve("proofs") itself would be a second owner of the layout, which wipe, status and the
        // threat model's table would not know of.
        Set<String> names = new TreeSet<>();
        for (org.proofmode.util.Home e : org.proofmode.util.Home.values()) {
            String p = e.isFolder() ? e.path().substring(0, e.path().length() - 1) : e.path();
            names.add(p);
            names.add(p.split("/")[0]);
        }
        Pattern literal = Pattern.compile("resolve\\(\"([^\"]+)\"\\)|\"([a-z-]+(?:/[a-z.-]+)+|[a-z-]+\\.(?:db|lock|conf|asc|age|txt|json))\"");
        Map<String, List<String>> found = new TreeMap<>();
        Path root = docs().getParent();
        try (var files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/")
                    && !f.toString().contains("/target/") && !f.endsWith("util/Home.java"))::iterator) {
                Matcher m = literal.matcher(Files.readString(f));
                while (m.find()) {
                    String n = m.group(1) != null ? m.group(1) : m.group(2);
                    if (names.contains(n)) {
                        found.computeIfAbsent(root.relativize(f).toString(), k -> new ArrayList<>()).add(n);
                    }
                }
            }
        }
        assertThat(found).as("home entries named outside util.Home").isEmpty();
    }

    @Test
    void failureModel_importsNothingOfTheProject() {
        classes().that().resideInAPackage("org.proofmode.failure").should().onlyDependOnClassesThat(
                not(resideInAPackage("org.proofmode..")).or(resideInAPackage("org.proofmode.failure"))).check(all);
    }

    @Test
    void util_importsOnlyTheFailureModel() {
        classes().that().resideInAPackage("org.proofmode.util").should().onlyDependOnClassesThat(
                not(resideInAPackage("org.proofmode..")).or(resideInAnyPackage("org.proofmode.util", "org.proofmode.failure")))
                .check(all);
    }

    @Test
    void corePackages_formNoCycle() {
        slices().assignedFrom(new CorePackages()).should().beFreeOfCycles().check(all);
    }

    @Test
    void everyCorePackage_isOnTheMap() {
        Map<String, Integer> layers = mapLayers();
        Set<String> packages = new TreeSet<>();
        all.stream().filter(CORE).map(ArchitectureTest::slice).forEach(packages::add);
        assertThat(packages).as("core packages; add a new one to docs/architecture.md").isSubsetOf(layers.keySet());
    }

    @Test
    void corePackages_importOnlyLowerLayers_asTheMapSays() {
        assertThat(layerViolations(CORE, ArchitectureTest::slice, mapLayers()))
                .as("imports against docs/architecture.md's layers").isEmpty();
    }

    @Test
    void serverPackages_importOnlyLowerLayers_asTheMapSays() {
        assertThat(layerViolations(resideInAPackage("org.proofmode.server.."), ArchitectureTest::packageName,
                mapLayers(SERVER_TABLE))).as("imports against the server's layers in docs/architecture.md").isEmpty();
    }

    @Test
    void cliPackages_importOnlyLowerLayers_asTheMapSays() {
        assertThat(layerViolations(resideInAPackage("org.proofmode.cli.."), ArchitectureTest::packageName,
                mapLayers(CLI_TABLE))).as("imports against the CLI's layers in docs/architecture.md").isEmpty();
    }

    @Test
    void everyServerAndCliPackage_isOnTheMap() {
        Set<String> server = new TreeSet<>();
        Set<String> cli = new TreeSet<>();
        all.stream().filter(resideInAPackage("org.proofmode.server..")).map(ArchitectureTest::packageName).forEach(server::add);
        all.stream().filter(resideInAPackage("org.proofmode.cli..")).map(ArchitectureTest::packageName).forEach(cli::add);
        assertThat(server).as("server packages; add a new one to docs/architecture.md").isEqualTo(mapLayers(SERVER_TABLE).keySet());
        assertThat(cli).as("CLI packages; add a new one to docs/architecture.md").isEqualTo(mapLayers(CLI_TABLE).keySet());
    }

    @Test
    void everyClassTheMapNames_exists() throws IOException {
        // The feature index and the tables name classes as `package.Class`: each must still be there.
        String map = Files.readString(docs().resolve("architecture.md"));
        Matcher m = Pattern.compile("`((?:[a-z0-9]+\\.)+[A-Z][A-Za-z0-9]*)[`.]").matcher(map);
        Set<String> named = new TreeSet<>();
        while (m.find()) {
            named.add(m.group(1).startsWith("org.proofmode.") ? m.group(1) : "org.proofmode." + m.group(1));
        }
        assertThat(named).as("classes named in docs/architecture.md").hasSizeGreaterThan(40);
        // The module table names the server's classes from its own package down (`store.TokenScope`).
        assertThat(named.stream().filter(n -> !all.contain(n) && !all.contain(n.replace("org.proofmode.", "org.proofmode.server.")))
                .toList()).as("classes named in the map but not found").isEmpty();
    }

    @Test
    void packages_formNoCycle_inEveryModule() {
        // Each package its own slice (the core test above puts subpackages in their parent's).
        for (String module : new String[] {"org.proofmode..", "org.proofmode.watch..", "org.proofmode.server..",
            "org.proofmode.cli.."}) {
            slices().assignedFrom(new Packages(module)).should().beFreeOfCycles().check(all);
        }
    }

    @Test
    void everyPackage_hasPackageInfo_inEveryModule() throws IOException {
        Path root = docs().getParent();
        List<String> missing = new ArrayList<>();
        int packages = 0;
        for (String module : new String[] {"proofmode-core", "proofmode-watch", "proofmode-server", "proofmode-cli",
            "proofmode-testkit"}) {
            try (var dirs = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                for (Path d : dirs.filter(Files::isDirectory).toList()) {
                    boolean hasJava;
                    try (var files = Files.list(d)) {
                        hasJava = files.anyMatch(f -> f.toString().endsWith(".java"));
                    }
                    if (hasJava) {
                        packages++;
                        if (!Files.isRegularFile(d.resolve("package-info.java"))) {
                            missing.add(root.relativize(d).toString());
                        }
                    }
                }
            }
        }
        assertThat(packages).as("packages found").isGreaterThan(25);
        assertThat(missing).as("packages without a package-info.java saying what they own").isEmpty();
    }

    @Test
    void facade_isAtMost350Lines_withOneVerifierMethod() throws IOException {
        // The front door hands out use cases, not internals: one verifier, made from one verify.Trust value.
        Path facade = docs().getParent().resolve("proofmode-core/src/main/java/org/proofmode/ProofMode.java");
        assertThat(Files.readAllLines(facade)).as("lines of ProofMode.java").hasSizeLessThanOrEqualTo(350);
        assertThat(Arrays.stream(ProofMode.class.getMethods()).filter(m -> m.getName().equals("verifier")).toList())
                .as("public methods of ProofMode named verifier").hasSize(1);
    }

    @Test
    void jdeps_findsNoPackageCycle_inEveryModule() throws Exception {
        // The JDK's own dependency analyser, as a second opinion on the compiled classes of each module.
        var jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("this JDK has no jdeps"));
        for (Class<?> module : new Class<?>[] {ProofMode.class, WatchDb.class, ProofServer.class, ExitCodes.class}) {
            String classes = Path.of(module.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            StringWriter out = new StringWriter();
            int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-e", "org\\.proofmode\\..*", classes);
            assertThat(rc).as("jdeps on %s: %s", classes, out).isZero();
            Map<String, Set<String>> graph = new TreeMap<>();
            int lines = 0;
            Matcher m = Pattern.compile("(?m)^\\s+(org\\.proofmode\\S*)\\s+->\\s+(org\\.proofmode\\S*)\\s+(.+)$").matcher(out.toString());
            while (m.find()) {
                lines++;
                if (!m.group(1).equals(m.group(2)) && !m.group(3).equals("not found")) {
                    graph.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
                }
            }
            assertThat(lines).as("package dependencies jdeps found in %s: %s", classes, out).isPositive();
            assertThat(cycle(graph)).as("a package cycle in %s", classes).isEmpty();
        }
    }

    /** A cycle in the graph, as its packages; empty if there is none. */
    static List<String> cycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new TreeMap<>(); // 1 on the path, 2 done
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            if (cycleFrom(start, graph, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean cycleFrom(String p, Map<String, Set<String>> graph, Map<String, Integer> state, List<String> path) {
        Integer s = state.get(p);
        if (s != null) {
            if (s == 1) {
                path.add(p);
            }
            return s == 1;
        }
        state.put(p, 1);
        path.add(p);
        for (String q : graph.getOrDefault(p, Set.of())) {
            if (cycleFrom(q, graph, state, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        state.put(p, 2);
        return false;
    }

    /** Each import from a package of {@code module} to one of its packages that is not on a lower layer. */
    private static List<String> layerViolations(DescribedPredicate<JavaClass> module, Function<JavaClass, String> slice,
            Map<String, Integer> layers) {
        List<String> violations = new ArrayList<>();
        for (JavaClass c : all) {
            if (!module.test(c)) {
                continue;
            }
            String from = slice.apply(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!module.test(target) || slice.apply(target).equals(from)) {
                    continue;
                }
                String to = slice.apply(target);
                Integer a = layers.get(from);
                Integer b = layers.get(to);
                if (a == null || b == null || b >= a) {
                    violations.add(from + " (layer " + a + ") -> " + to + " (layer " + b + "): " + d.getDescription());
                }
            }
        }
        return violations;
    }

    /** The layer of each core package, from the table "Core packages, bottom to top" of docs/architecture.md. */
    static Map<String, Integer> mapLayers() {
        Map<String, Integer> out = mapLayers(CORE_TABLE);
        assertThat(out).as("core layer rows in docs/architecture.md").hasSizeGreaterThan(10);
        return out;
    }

    /**
     * The layer of each package in the table under a heading of docs/architecture.md: its rows
     * {@code | N | `name` |} up to the next heading; {@code org.proofmode} is "facade".
     */
    static Map<String, Integer> mapLayers(String heading) {
        Path map = docs().resolve("architecture.md");
        Map<String, Integer> out = new TreeMap<>();
        Pattern row = Pattern.compile("^\\| (\\d+) \\| `([a-z0-9.]+)`");
        boolean in = false;
        try {
            for (String line : Files.readAllLines(map)) {
                if (line.startsWith("## ")) {
                    in = line.equals(heading);
                }
                Matcher m = row.matcher(line);
                if (in && m.find()) {
                    String name = m.group(2).equals("org.proofmode") ? "facade" : m.group(2);
                    out.put(name, Integer.valueOf(m.group(1)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out).as("layer rows under %s in %s", heading, map).isNotEmpty();
        return out;
    }

    private static Path docs() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/architecture.md"))) {
                return p.resolve("docs");
            }
        }
        throw new IllegalStateException("docs/architecture.md not found above " + Path.of("").toAbsolutePath());
    }

    /** The core package a class belongs to: the first name below org.proofmode, or "facade" for the root. */
    static String slice(JavaClass c) {
        String p = c.getPackageName();
        if (p.equals("org.proofmode")) {
            return "facade";
        }
        String rest = p.substring("org.proofmode.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** The package below org.proofmode: "server.http", "cli"… */
    static String packageName(JavaClass c) {
        return c.getPackageName().substring("org.proofmode.".length());
    }

    /** One slice per package of a module (each subpackage its own). */
    private static final class Packages implements SliceAssignment {
        private final DescribedPredicate<JavaClass> module;

        Packages(String module) {
            this.module = module.equals("org.proofmode..") ? CORE : resideInAPackage(module);
        }

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return module.test(c) ? SliceIdentifier.of(c.getPackageName()) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "packages of " + module.getDescription();
        }
    }

    /** One slice per core package below org.proofmode (subpackages in their parent's), the root as "facade". */
    private static final class CorePackages implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return CORE.test(c) ? SliceIdentifier.of(slice(c)) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "core packages";
        }
    }
}
