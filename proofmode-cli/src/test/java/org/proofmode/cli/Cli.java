// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.proofmode.cli.print.Terminal;

/** Runs the command line in-process with captured output, in a given home. */
final class Cli {
    record Result(int exit, String out, String err) {}

    private final Map<String, String> env = new HashMap<>();
    private Terminal terminal = Terminal.NONE;
    private Path cwd = Path.of("").toAbsolutePath();

    Cli(Path home) {
        env.put("PROOFMODE_HOME", home.toString());
    }

    Cli env(String name, String value) {
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        return this;
    }

    Cli terminal(Terminal t) {
        terminal = t;
        return this;
    }

    /** Runs the commands as if started in {@code folder}: relative paths on the command line are relative to it. */
    Cli cwd(Path folder) {
        cwd = folder.toAbsolutePath();
        return this;
    }

    Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new CliContext(new PrintWriter(out, true), new PrintWriter(err, true), env, terminal, cwd,
                java.util.Optional.empty(), java.util.Optional.empty()));
        return new Result(code, out.toString(), err.toString());
    }

    /**
     * Proves a photo of its own (seeded by {@code i}) with the key of another home, {@code home-<who>} in
     * {@code dir} (made on first use), and exports it with the media to {@code <who>-<i>.zip} in {@code dir}.
     */
    static Path othersBundle(Path dir, String who, int i) throws Exception {
        Cli other = new Cli(dir.resolve("home-" + who)).env("PROOFMODE_PASSPHRASE", who + " passphrase");
        Path media = ProveCommandTest.jpeg(dir.resolve("media-" + who), who + i + ".jpg", 3000 + i, 80 + i);
        Result proved = other.run("prove", media.toString());
        if (proved.exit() != 0) {
            throw new AssertionError("prove by " + who + " failed: " + proved.err());
        }
        Path zip = dir.resolve(who + "-" + i + ".zip");
        Result exported = other.run("export", "--with-media", "-o", zip.toString(), media.toString());
        if (exported.exit() != 0) {
            throw new AssertionError("export by " + who + " failed: " + exported.err());
        }
        return zip;
    }

    static Path sample(String relative) {
        return org.proofmode.testkit.Samples.file(relative);
    }
}
