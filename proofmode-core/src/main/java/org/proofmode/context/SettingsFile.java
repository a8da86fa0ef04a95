// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.util.AtomicFiles;
import org.proofmode.util.Home;
import org.proofmode.util.HomeLock;

/**
 * The settings file, {@code PROOFMODE_HOME/settings}: {@code key = value} lines, {@code #} comments and
 * blank lines. A new file is written on first use with every key, its default and a comment. Changing a
 * key rewrites its line in place and keeps every other line, comments included.
 */
public final class SettingsFile {
    /** The file's name in the home folder. */
    public static final String NAME = Home.SETTINGS.path();

    /** Largest settings file read; anything bigger is not a settings file. */
    private static final int MAX_BYTES = 64 * 1024;

    private final Path file;

    /**
     * A settings file.
     *
     * @param file its path, usually {@code <home>/settings}
     */
    public SettingsFile(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    /** The file's path. */
    public Path path() {
        return file;
    }

    /**
     * Reads the settings, writing the documented default file first if there is none.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} naming the line of an unknown key or a bad
     *     value, or {@link Failure#IO} if the file cannot be read or written
     */
    public Settings load() {
        List<String> lines = readOrCreate();
        Map<SettingKey, String> values = new EnumMap<>(SettingKey.class);
        for (int i = 0; i < lines.size(); i++) {
            Optional<Entry> e = parse(lines.get(i), i + 1);
            if (e.isEmpty()) {
                continue;
            }
            SettingKey key = e.get().key();
            if (values.containsKey(key)) {
                throw bad(i + 1, key.key() + " is set twice");
            }
            try {
                values.put(key, key.canonical(e.get().value()));
            } catch (ProofModeException ex) {
                throw bad(i + 1, ex.getMessage());
            }
        }
        return Settings.fromValues(values);
    }

    /**
     * Changes one key and writes the file atomically.
     *
     * @param key the key
     * @param value its new value, checked first
     * @return the settings now in force
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the value is invalid, or as {@link #load()}
     */
    public Settings set(SettingKey key, String value) {
        String canonical = key.canonical(value);
        // Read, change and write under the home's lock: two changes at once both land.
        return HomeLock.holding(file.toAbsolutePath().getParent(), () -> setLocked(key, canonical));
    }

    private Settings setLocked(SettingKey key, String canonical) {
        load();
        List<String> lines = new ArrayList<>(readOrCreate());
        boolean replaced = false;
        for (int i = 0; i < lines.size(); i++) {
            Optional<Entry> e = parse(lines.get(i), i + 1);
            if (e.isPresent() && e.get().key() == key) {
                lines.set(i, key.key() + " = " + canonical);
                replaced = true;
            }
        }
        if (!replaced) {
            lines.add("");
            key.comment().forEach(c -> lines.add("# " + c));
            lines.add(key.key() + " = " + canonical);
        }
        write(lines, true);
        return load();
    }

    /** The text of a new settings file: every key with its comment and default. */
    public static List<String> defaultText() {
        List<String> out = new ArrayList<>();
        out.add("# ProofMode settings: what a proof records beyond the file itself.");
        out.add("# One 'key = value' per line; lines starting with # are comments.");
        out.add("# Change them here or with 'proofmode settings set KEY VALUE'; prove and inspect");
        out.add("# take per-run overrides (--location/--no-location, --network/--no-network,");
        out.add("# --device-ids/--no-device-ids; prove also --j3m/--no-j3m).");
        for (SettingKey k : SettingKey.values()) {
            out.add("");
            k.comment().forEach(c -> out.add("# " + c));
            out.add(k.key() + " = " + k.defaultValue());
        }
        return out;
    }

    private List<String> readOrCreate() {
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new ProofModeException(Failure.BAD_DATA, file + ": larger than " + MAX_BYTES + " bytes; not a settings file");
            }
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            HomeLock.run(file.toAbsolutePath().getParent(), () -> {
                if (!Files.exists(file)) {
                    write(defaultText(), false);
                }
            });
            return readOrCreate();
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private void write(List<String> lines, boolean replace) {
        byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            AtomicFiles.write(file, bytes, replace, false);
        } catch (FileAlreadyExistsException e) {
            // Another process wrote the default file first: use theirs.
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, file + ": cannot write: " + e.getMessage(), e);
        }
    }

    private record Entry(SettingKey key, String value) {}

    private Optional<Entry> parse(String line, int number) {
        String t = line.strip();
        if (t.isEmpty() || t.startsWith("#")) {
            return Optional.empty();
        }
        int eq = t.indexOf('=');
        if (eq < 0) {
            throw bad(number, "expected 'key = value', found '" + t + "'");
        }
        String name = t.substring(0, eq).strip();
        SettingKey key = SettingKey.named(name).orElseThrow(() -> bad(number,
                "unknown setting '" + name + "'; known: " + String.join(", ", SettingKey.names())));
        return Optional.of(new Entry(key, t.substring(eq + 1).strip()));
    }

    private ProofModeException bad(int line, String message) {
        return new ProofModeException(Failure.BAD_DATA, file + " line " + line + ": " + message);
    }
}
