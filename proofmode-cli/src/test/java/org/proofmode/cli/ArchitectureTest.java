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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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

    private static JavaClasses all;

    @BeforeAll
    static void importClasses() {
        all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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
        Map<String, Integer> layers = mapLayers();
        List<String> violations = new ArrayList<>();
        for (JavaClass c : all) {
            if (!CORE.test(c)) {
                continue;
            }
            String from = slice(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!CORE.test(target) || slice(target).equals(from)) {
                    continue;
                }
                String to = slice(target);
                Integer a = layers.get(from);
                Integer b = layers.get(to);
                if (a == null || b == null || b >= a) {
                    violations.add(from + " (layer " + a + ") -> " + to + " (layer " + b + "): " + d.getDescription());
                }
            }
        }
        assertThat(violations).as("imports against docs/architecture.md's layers").isEmpty();
    }

    /** The layer of each core package, from the table "Core packages, bottom to top" of docs/architecture.md. */
    static Map<String, Integer> mapLayers() {
        Path map = docs().resolve("architecture.md");
        Map<String, Integer> out = new TreeMap<>();
        Pattern row = Pattern.compile("^\\| (\\d+) \\| `([a-z0-9.]+)`");
        try {
            for (String line : Files.readAllLines(map)) {
                Matcher m = row.matcher(line);
                if (m.find()) {
                    String name = m.group(2).equals("org.proofmode") ? "facade" : m.group(2);
                    out.put(name, Integer.valueOf(m.group(1)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(out).as("layer rows in %s", map).hasSizeGreaterThan(10);
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
