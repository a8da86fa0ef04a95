// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofRecord;

/**
 * The device in broad strokes, as the app records it: language, country, hardware vendor and model,
 * and the operating system. Nothing here identifies one machine among many of its model.
 */
public final class DeviceSource implements MetadataSource {
    private final Path dmi;
    /**
     * Read from the moment the source is made: the language's English name loads the JDK's locale data
     * (about 50 ms in a fresh process), which then overlaps the key's unlock instead of delaying a first proof.
     */
    private final CompletableFuture<String[]> facts;

    /** Reads hardware facts from Linux's {@code /sys/class/dmi/id} where present. */
    public DeviceSource() {
        this(Path.of("/sys/class/dmi/id"));
    }

    /** Reads hardware facts from the given DMI folder (for tests). */
    public DeviceSource(Path dmiFolder) {
        this.dmi = dmiFolder;
        this.facts = CompletableFuture.supplyAsync(this::snapshot, Reused.EARLY);
    }

    @Override
    public String name() {
        return "Device";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) {
        String[] v = facts.join();
        record.put(ProofFields.LANGUAGE, v[0]);
        record.put(ProofFields.LOCALE, v[1]);
        record.put(ProofFields.MANUFACTURER, v[2]);
        record.put(ProofFields.HARDWARE, v[3]);
        record.put(ProofFields.OS, v[4]);
    }

    /** Reads the facts once: they do not change while a process runs. */
    private String[] snapshot() {
        Locale locale = Locale.getDefault();
        String vendor = read("sys_vendor").orElse("");
        String product = read("product_name").orElse(System.getProperty("os.arch", ""));
        return new String[] {
            locale.getDisplayLanguage(Locale.ENGLISH),
            country(locale),
            vendor,
            (vendor.isEmpty() || product.startsWith(vendor) ? product : vendor + " " + product).trim(),
            (System.getProperty("os.name", "") + " " + System.getProperty("os.version", "") + " "
                    + System.getProperty("os.arch", "")).trim()};
    }

    private static String country(Locale locale) {
        try {
            return locale.getISO3Country();
        } catch (MissingResourceException e) {
            return locale.getCountry();
        }
    }

    private Optional<String> read(String name) {
        try {
            String v = new String(Files.readAllBytes(dmi.resolve(name)), StandardCharsets.UTF_8).trim();
            return v.isEmpty() || v.equalsIgnoreCase("To Be Filled By O.E.M.") ? Optional.empty() : Optional.of(v);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
