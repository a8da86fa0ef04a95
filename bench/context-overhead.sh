#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: what the context snapshot adds to proving a photo.
set -euo pipefail

BENCH_NAME=context-overhead
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF_USAGE'
Usage: bench/context-overhead.sh [--help]

Makes COUNT camera-like JPEG photos (ffmpeg test pattern, SIZE pixels, tagged by
exiftool with make, model, serial, capture time and GPS), then proves the folder
with one job in three configurations, interleaved, RUNS times each:
  off:      prove --no-context (only hash, path and times; the reference)
  context:  location, network, radios, sensors and device ids on, image hashes off
            (media metadata, device, clock trust, environment, sensors,
            Bluetooth, cells, network, gpsd asked: none listens)
  +hashes:  as context, plus pixel and perceptual hashes (one decode per photo)
Per-photo time of a run = wall time / COUNT; the median over RUNS is reported
for each, with the overhead over 'off' in ms and as a ratio. Target: context
adds <= 20 ms per photo at the median.

Environment:
  COUNT=30       photos
  SIZE=4000x3000 pixels per photo (12 MP)
  RUNS=5         timed runs per configuration
  BENCH_DIR      where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1         keep the work dir
  STRICT=1       exit 1 when the target is missed
  SERVICES=mock  the system services on D-Bus: 'mock' starts a private dbus-daemon with
                 python-dbusmock's timedated, timesyncd, iio-sensor-proxy, BlueZ (one
                 adapter, two devices), oFono and ModemManager, and points the proofs at
                 it (the default when this machine has no system bus); 'system' uses
                 the machine's own bus

Needs: ffmpeg, exiftool, Java 17; with SERVICES=mock also dbus-daemon (dbus) and
/usr/bin/python3 with dbusmock (python3-dbusmock).
Last stdout line (machine-readable):
  context-overhead off_ms=A context_ms=B hashes_ms=C context_added_ms=D context_ratio=R hashes_added_ms=E count=N size=WxH runs=N
EOF_USAGE
}

TARGET_MS=20

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-30} runs=${RUNS:-5} size=${SIZE:-4000x3000}
    positive_int COUNT "$count"
    positive_int RUNS "$runs"
    [[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SIZE must be WIDTHxHEIGHT (got '$size')"

    cd_repo_root
    require_cmd ffmpeg ffmpeg
    require_cmd exiftool libimage-exiftool-perl
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}

    local photos=$WORK/photos
    mkdir -p "$photos"
    log "making $count photos of $size"
    ffmpeg -loglevel error -f lavfi -i "testsrc2=size=$size:rate=1" -frames:v "$count" -q:v 3 "$photos/IMG_%04d.jpg" \
        || die "ffmpeg failed"
    exiftool -q -overwrite_original -Make=Canon "-Model=EOS R6" -SerialNumber=012345678 "-LensModel=RF24-105mm F4 L IS USM" \
        "-DateTimeOriginal=2026:05:01 10:00:00" -OffsetTimeOriginal=+02:00 -GPSLatitude=48.1173 -GPSLatitudeRef=N \
        -GPSLongitude=11.5167 -GPSLongitudeRef=E "$photos" >/dev/null || die "exiftool failed"
    warm_cache "$photos"/*.jpg

    local services=${SERVICES:-}
    if [[ -z $services ]]; then
        if [[ -S /var/run/dbus/system_bus_socket ]]; then services=system; else services=mock; fi
    fi
    case $services in
        mock) start_mock_services ;;
        system) ;;
        *) die "SERVICES must be mock or system (got '$services')" ;;
    esac

    # Two homes: image hashes off and on. gpsd.port 1: nothing listens there, as on most laptops.
    local h_ctx=$WORK/home-context h_hash=$WORK/home-hashes
    for h in "$h_ctx" "$h_hash"; do
        PROOFMODE_HOME=$h ./proofmode keys create >/dev/null 2>&1 || die "keys create failed"
        for kv in "location true" "network true" "device-ids true" "sensors true" "radios true" "gpsd.port 1"; do
            # shellcheck disable=SC2086
            PROOFMODE_HOME=$h ./proofmode settings set $kv >/dev/null || die "settings set $kv failed"
        done
    done
    PROOFMODE_HOME=$h_ctx ./proofmode settings set image-hashes false >/dev/null
    PROOFMODE_HOME=$h_hash ./proofmode settings set image-hashes true >/dev/null

    local off=() ctx=() hashes=() i
    local cmd_off=(env "PROOFMODE_HOME=$h_ctx" ./proofmode prove --jobs 1 --force --no-context --out "$WORK/out" "$photos")
    local cmd_ctx=(env "PROOFMODE_HOME=$h_ctx" ./proofmode prove --jobs 1 --force --out "$WORK/out" "$photos")
    local cmd_hash=(env "PROOFMODE_HOME=$h_hash" ./proofmode prove --jobs 1 --force --out "$WORK/out" "$photos")
    # The launcher records its class-data archive for 'prove' in the first run after a build; a user's first
    # proof, with their sources on, decides what it holds. Record it from the fullest configuration, so that
    # the sources' classes are in it as on such a user's machine (the reference loads a subset of them).
    log "warm-up (untimed): one run of each, the first recording the launcher's class-data archive"
    rm -f proofmode-cli/target/proofmode-prove.jsa proofmode-cli/target/proofmode-prove.jsa.*.tmp
    for c in cmd_hash cmd_ctx cmd_off; do
        local -n cc=$c
        "${cc[@]}" >/dev/null 2>&1 || die "warm-up failed: $(quote_cmd "${cc[@]}")"
        rm -rf "$WORK/out"
    done
    for (( i = 1; i <= runs; i++ )); do
        measure "$WORK/off.out" "${cmd_off[@]}"; off+=("$(calc "$M_SECONDS * 1000 / $count" 2)"); rm -rf "$WORK/out"
        measure "$WORK/ctx.out" "${cmd_ctx[@]}"; ctx+=("$(calc "$M_SECONDS * 1000 / $count" 2)"); rm -rf "$WORK/out"
        measure "$WORK/hash.out" "${cmd_hash[@]}"; hashes+=("$(calc "$M_SECONDS * 1000 / $count" 2)"); rm -rf "$WORK/out"
        log "  run $i/$runs: off ${off[-1]} ms, context ${ctx[-1]} ms, +hashes ${hashes[-1]} ms per photo"
    done
    [[ $(hash_lines "$WORK/ctx.out" | wc -l) -eq $count ]] || die "prove did not print $count hashes"

    local m_off m_ctx m_hash added ratio added_h ok
    m_off=$(median "${off[@]}"); m_ctx=$(median "${ctx[@]}"); m_hash=$(median "${hashes[@]}")
    added=$(calc "$m_ctx - $m_off" 2); ratio=$(calc "$m_ctx / $m_off" 3); added_h=$(calc "$m_hash - $m_off" 2)
    ok=$(verdict "$added" "<=" "$TARGET_MS")
    echo
    echo "context-overhead: $count photos of $size, one job, median of $runs runs (per photo = wall / $count)"
    printf '  %-44s %10s\n' "configuration" "ms/photo"
    printf '  %-44s %10s\n' "off (--no-context)" "$m_off"
    printf '  %-44s %10s\n' "context (every source on; services: $services)" "$m_ctx"
    printf '  %-44s %10s\n' "context + pixel and perceptual hashes" "$m_hash"
    printf '  %-44s %10s\n' "context adds (target <= $TARGET_MS ms)" "$added"
    printf '  %-44s %10s\n' "context ratio to off" "$ratio"
    printf '  %-44s %10s\n' "context + hashes adds" "$added_h"
    printf '  %-44s %10s\n' "target met" "$ok"
    echo "  command (context): $(quote_cmd "${cmd_ctx[@]}")"
    echo
    echo "context-overhead off_ms=$m_off context_ms=$m_ctx hashes_ms=$m_hash context_added_ms=$added context_ratio=$ratio hashes_added_ms=$added_h count=$count size=$size runs=$runs"
    if [[ ${STRICT:-0} == 1 && $ok != yes ]]; then exit 1; fi
}

# A private bus with the system services' mocks, stopped when the script ends; exports its address.
start_mock_services() {
    require_cmd dbus-daemon dbus
    /usr/bin/python3 -c 'import dbusmock' 2>/dev/null || die "needs python3-dbusmock (apt-get install python3-dbusmock)"
    local bus=$WORK/bus pids=()
    mkdir -p "$bus"
    printf '%s\n' '<busconfig><type>system</type><listen>unix:path='"$bus"'/socket</listen><auth>EXTERNAL</auth>' \
        '<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>' \
        '</busconfig>' >"$bus/bus.conf"
    dbus-daemon --config-file="$bus/bus.conf" --nofork --print-address=1 >"$bus/address" 2>"$bus/daemon.err" &
    pids+=($!)
    local i
    for (( i = 0; i < 100; i++ )); do [[ -s $bus/address ]] && break; sleep 0.05; done
    export DBUS_SYSTEM_BUS_ADDRESS; DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$bus/address")
    [[ -n $DBUS_SYSTEM_BUS_ADDRESS ]] || die "dbus-daemon did not start: $(cat "$bus/daemon.err")"
    /usr/bin/python3 -m dbusmock --system --template timedated >/dev/null 2>&1 & pids+=($!)
    /usr/bin/python3 -m dbusmock --system --template bluez5 >/dev/null 2>&1 & pids+=($!)
    /usr/bin/python3 -m dbusmock --system --template ofono >/dev/null 2>&1 & pids+=($!)
    /usr/bin/python3 -m dbusmock --system net.hadess.SensorProxy /net/hadess/SensorProxy net.hadess.SensorProxy >/dev/null 2>&1 & pids+=($!)
    /usr/bin/python3 -m dbusmock --system --is-object-manager org.freedesktop.ModemManager1 /org/freedesktop/ModemManager1 \
        org.freedesktop.ModemManager1 >/dev/null 2>&1 & pids+=($!)
    CLEANUP_HOOKS+=("kill ${pids[*]}")
    /usr/bin/python3 - <<'EOF_PY' || die "the mocks did not start"
import dbus, dbusmock, os, time
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
for name in ('org.freedesktop.timedate1', 'org.bluez', 'org.ofono', 'net.hadess.SensorProxy', 'org.freedesktop.ModemManager1'):
    deadline = time.time() + 20
    while not bus.name_has_owner(name):
        if time.time() > deadline: raise SystemExit(name + ' did not appear')
        time.sleep(0.05)
m = bus.get_object('org.bluez', '/org/bluez')
m.AddAdapter('hci0', 'bench', dbus_interface='org.bluez.Mock')
m.AddDevice('hci0', '00:1B:66:AC:33:07', 'Headset', dbus_interface='org.bluez.Mock')
m.AddDevice('hci0', 'A4:C1:38:0E:5F:21', 'Phone', dbus_interface='org.bluez.Mock')
p = bus.get_object('net.hadess.SensorProxy', '/net/hadess/SensorProxy')
p.AddProperties('net.hadess.SensorProxy', {'HasAccelerometer': True, 'AccelerometerOrientation': 'normal', 'HasAmbientLight': True,
    'LightLevelUnit': 'lux', 'LightLevel': dbus.Double(120.0), 'HasProximity': True, 'ProximityNear': False}, dbus_interface=dbusmock.MOCK_IFACE)
p.AddMethods('net.hadess.SensorProxy', [(m + s, '', '', '') for m in ('Claim', 'Release') for s in ('Accelerometer', 'Light', 'Proximity')],
    dbus_interface=dbusmock.MOCK_IFACE)
mm = bus.get_object('org.freedesktop.ModemManager1', '/org/freedesktop/ModemManager1')
mm.AddObject('/org/freedesktop/ModemManager1/Modem/0', 'org.freedesktop.ModemManager1.Modem', {}, [('GetCellInfo', '', 'aa{sv}',
    "ret = [dbus.Dictionary({'cell-type': dbus.UInt32(5), 'serving': True, 'operator-id': '26201', 'tac': '3A2C', 'ci': '01A2B3C4'}, signature='sv')]")],
    dbus_interface=dbusmock.MOCK_IFACE)
EOF_PY
    log "mock system services on $DBUS_SYSTEM_BUS_ADDRESS"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

main "$@"
