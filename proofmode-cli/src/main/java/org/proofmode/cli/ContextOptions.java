// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import java.util.Map;
import java.util.Optional;
import java.util.Stack;
import org.proofmode.context.Fix;
import org.proofmode.context.SettingKey;
import org.proofmode.context.Settings;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Per-run overrides of the settings: what a proof records this time. */
final class ContextOptions {
    /** The value that {@code --location} without coordinates stands for. */
    static final String ON = "on";

    @Option(names = "--location", arity = "0..1", paramLabel = "LAT,LON[,ACC]", preprocessor = LocationValue.class,
            description = "Record the location this time: gpsd's fix, else the media's GPS tags; with "
                    + "LAT,LON[,ACCURACY] (decimal degrees, metres; write --location=LAT,LON for negative "
                    + "latitudes) record that position.")
    String location;

    @Option(names = "--no-location", description = "Record no location this time.")
    boolean noLocation;

    @Option(names = "--network", negatable = true, description = "Record (or not) interfaces, addresses, gateway and "
            + "visible Wi-Fi networks this time; MACs and BSSIDs are hashed.")
    Boolean network;

    @Option(names = "--sensors", negatable = true, description = "Record (or not) motion and environment sensors this time "
            + "(orientation, acceleration, light, proximity, humidity, temperatures; pressure only with location).")
    Boolean sensors;

    @Option(names = "--radios", negatable = true, description = "Record (or not) Bluetooth adapters and the devices seen "
            + "nearby this time; their addresses are hashed.")
    Boolean radios;

    @Option(names = "--device-ids", negatable = true, description = "Record (or not) hashed device identifiers this time "
            + "(hostname, DMI serial, machine id, camera serials).")
    Boolean deviceIds;

    /** The settings with this run's overrides applied. */
    Settings apply(Settings base) {
        if (location != null && noLocation) {
            throw new ProofModeException(Failure.INCOMPATIBLE_OPTIONS, "--location and --no-location cannot go together");
        }
        Settings s = base;
        if (location != null) {
            s = s.with(SettingKey.LOCATION, true);
        } else if (noLocation) {
            s = s.with(SettingKey.LOCATION, false);
        }
        if (network != null) {
            s = s.with(SettingKey.NETWORK, network);
        }
        if (sensors != null) {
            s = s.with(SettingKey.SENSORS, sensors);
        }
        if (radios != null) {
            s = s.with(SettingKey.RADIOS, radios);
        }
        if (deviceIds != null) {
            s = s.with(SettingKey.DEVICE_IDS, deviceIds);
        }
        return s;
    }

    /** The position given with {@code --location LAT,LON[,ACC]}, if any. */
    Optional<Fix> manualLocation() {
        if (location == null || location.equals(ON)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Fix.parse(location));
        } catch (IllegalArgumentException e) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "--location: " + e.getMessage());
        }
    }

    /**
     * Takes the next argument as the value of {@code --location} only if it looks like coordinates, so
     * {@code --location photo.jpg} means "location on" for {@code photo.jpg}.
     */
    static final class LocationValue implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandSpec spec, ArgSpec arg, Map<String, Object> info) {
            boolean attached = "=".equals(info.get("separator"));
            if (!attached && (args.isEmpty() || !args.peek().matches("[-+]?[0-9.]+,[-+]?[0-9.]+(,[-+]?[0-9.]+)?"))) {
                args.push(ON);
            }
            return false;
        }
    }
}
