#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: detection-to-proof latency of `proofmode watch` at a steady arrival rate, and its catch-up
# throughput after a restart against batch `proofmode prove` of the same files.
set -euo pipefail

BENCH_NAME=watch-latency
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/watch-latency.sh [--help]

1. latency: starts `proofmode watch --log-format json DIR` (device key made
   before), then drops COUNT media-looking files (JPEG magic + random bytes,
   SIZE bytes, made beforehand on the same file system) into DIR at RATE
   files/s, each touched (modified now, as if just written) and moved in
   with one rename (as sync tools do), and reads the
   detection-to-proof latency of every file from the `proved` log lines
   (latencyMs): p50, p99, max.
2. catch-up: stops the watcher (SIGTERM), puts CATCHUP new files into DIR while
   it is down, starts it again and times from its launch to the last proof
   (times from the log). Reference: `proofmode prove` of a copy of the same
   files into a fresh store, launch to exit, best of RUNS. Both are JVMs
   started with `java -jar`, with a warm page cache.

Environment:
  COUNT=400     files dropped in the latency phase
  RATE=20       files per second
  SIZE=3M       bytes per file
  CATCHUP=500   files waiting when the watcher restarts
  RUNS=2        runs of each catch-up measurement (best counts)
  SETTLE_MS=500 the watcher's --settle-ms (its default)
  PHOTOS=1      drop real photos instead: copies of the cached 3264x2448 JPEGs
                (photo_set in bench/lib.sh), each with a unique tail; SIZE is
                then ignored
  FRESH=1       touch each file before dropping it, so it must settle for
                SETTLE_MS; FRESH=0 keeps old times (files copied with their
                times are proved after a second look, without the wait)
  BENCH_DIR     where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1        keep the work dir
  STRICT=1      exit 1 when a target is missed (p99 < 1000 ms; catch-up >= 0.8 of batch)

Last stdout line (machine-readable):
  watch-latency p50_ms=N p99_ms=N max_ms=N rate=R count=N catchup_fps=F batch_fps=F catchup_ratio=R catchup=N size_bytes=N
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-400} rate=${RATE:-20} catchup=${CATCHUP:-500} runs=${RUNS:-2} settle=${SETTLE_MS:-500} size
    positive_int COUNT "$count"; positive_int RATE "$rate"; positive_int CATCHUP "$catchup"; positive_int RUNS "$runs"
    size=$(parse_size "${SIZE:-3M}")
    cd_repo_root
    require_cmd java openjdk-17-jre-headless
    ensure_cli_built
    JAR=$ROOT/proofmode-cli/target/proofmode.jar
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    KEY_HOME=$WORK/home-key WATCHED=$WORK/watched STAGE=$WORK/stage
    mkdir -p "$WATCHED" "$STAGE"
    CLEANUP_HOOKS+=("stop_watcher")

    log "warm-up: creating the device key (untimed)"
    make_media_file "$WORK/warm.jpg" 65536
    PROOFMODE_HOME=$KEY_HOME java -jar "$JAR" prove --out "$WORK/warm-out" "$WORK/warm.jpg" >/dev/null \
        || die "warm-up prove failed"

    # --- 1. latency at a steady rate ---
    log "making $count files of $size bytes"
    make_files "$STAGE/drop" "$count" "$size"
    cp -a -- "$KEY_HOME" "$WORK/home-watch"
    start_watcher "$WORK/home-watch" "$WORK/watch1.log" "$settle"
    log "dropping $count files at $rate files/s"
    drop_at_rate "$STAGE/drop" "$rate"
    await_proved "$WORK/watch1.log" "$count"
    stop_watcher
    local lat p50 p99 max
    lat=$WORK/latencies
    grep '"event":"proved"' "$WORK/watch1.log" | grep -o '"latencyMs":"[0-9]*"' | grep -o '[0-9]*' | sort -n >"$lat"
    [[ $(wc -l <"$lat") -eq $count ]] || die "expected $count proved lines, found $(wc -l <"$lat")"
    p50=$(percentile "$lat" 50); p99=$(percentile "$lat" 99); max=$(tail -n 1 "$lat")
    log "latency: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms"

    # --- 2. catch-up after a restart vs batch prove ---
    log "making $catchup files for the catch-up"
    make_files "$STAGE/catchup" "$catchup" "$size"
    warm_cache "$STAGE"/catchup/*
    local best_watch='' best_batch='' i t
    for (( i = 1; i <= runs; i++ )); do
        set_aside "$WORK/home-batch" "$WORK/batch-in"
        cp -a -- "$KEY_HOME" "$WORK/home-batch"
        cp -a -- "$STAGE/catchup" "$WORK/batch-in"
        measure "$WORK/batch.stdout" env PROOFMODE_HOME="$WORK/home-batch" java -jar "$JAR" prove "$WORK/batch-in"
        [[ $(hash_lines "$WORK/batch.stdout" | wc -l) -eq $catchup ]] || die "batch prove did not prove $catchup files"
        log "  batch prove run $i: ${M_SECONDS}s"
        best_batch=$(min_of "$best_batch" "$M_SECONDS")

        # the watcher's home already knows the dropped files; the new ones arrive while it is down
        set_aside "$WATCHED/catchup"
        cp -a -- "$STAGE/catchup" "$WATCHED/catchup.tmp"
        mv -- "$WATCHED/catchup.tmp" "$WATCHED/catchup"
        set_aside "$WORK/home-catch" && cp -a -- "$WORK/home-watch" "$WORK/home-catch"
        local t0; t0=$EPOCHREALTIME
        start_watcher "$WORK/home-catch" "$WORK/watch2.log" "$settle" --recursive
        await_proved "$WORK/watch2.log" "$catchup"
        t=$(last_proof_seconds "$WORK/watch2.log" "$t0")
        stop_watcher
        log "  catch-up run $i: ${t}s"
        best_watch=$(min_of "$best_watch" "$t")
    done
    local batch_fps catch_fps ratio ok1 ok2
    batch_fps=$(calc "$catchup / $best_batch" 1)
    catch_fps=$(calc "$catchup / $best_watch" 1)
    ratio=$(calc "($catchup / $best_watch) / ($catchup / $best_batch)" 3)
    ok1=$(verdict "$p99" '<=' 999)
    ok2=$(verdict "$ratio" '>=' 0.8)

    echo
    echo "watch-latency: $count files of $(numfmt --to=si "$size")B dropped at $rate files/s; catch-up of $catchup files"
    printf '  %-52s %10s\n' "detection-to-proof p50 (ms)" "$p50"
    printf '  %-52s %10s\n' "detection-to-proof p99 (ms), target < 1000" "$p99"
    printf '  %-52s %10s\n' "detection-to-proof max (ms)" "$max"
    printf '  %-52s %10s\n' "p99 target met" "$ok1"
    printf '  %-52s %10s\n' "catch-up after restart (files/s, best of $runs)" "$catch_fps"
    printf '  %-52s %10s\n' "batch prove of the same files (files/s, best of $runs)" "$batch_fps"
    printf '  %-52s %10s\n' "ratio catch-up/batch (target >= 0.8)" "$ratio"
    printf '  %-52s %10s\n' "catch-up target met" "$ok2"
    echo "  commands: java -jar proofmode.jar watch --log-format json --settle-ms $settle [--recursive] DIR"
    echo "            java -jar proofmode.jar prove DIR"
    echo
    echo "watch-latency p50_ms=$p50 p99_ms=$p99 max_ms=$max rate=$rate count=$count catchup_fps=$catch_fps batch_fps=$batch_fps catchup_ratio=$ratio catchup=$catchup size_bytes=$size"
    [[ ${STRICT:-0} == 1 && ( $ok1 == no || $ok2 == no ) ]] && die "a target was missed"
    return 0
}

make_files() { # DIR COUNT SIZE
    local i f
    mkdir -p "$1"
    if [[ ${PHOTOS:-0} == 1 ]]; then
        # Real photos: the cached set, each copy given a unique tail after its end-of-image marker (decoders
        # ignore it), so that every dropped file has its own SHA-256.
        [[ -z ${PHOTO_FILES+x} ]] && mapfile -t PHOTO_FILES < <(find "$(photo_set 300 3264x2448)" -name 'IMG_*.jpg' | sort)
        for (( i = 1; i <= $2; i++ )); do
            f=$(printf '%s/m%05d.jpg' "$1" "$i")
            { cat -- "${PHOTO_FILES[$(( (i - 1) % ${#PHOTO_FILES[@]} ))]}"; printf 'tail %s' "$f"; } >"$f"
        done
        return 0
    fi
    for (( i = 1; i <= $2; i++ )); do make_media_file "$(printf '%s/m%05d.jpg' "$1" "$i")" "$3"; done
}

WATCHER_PID=
start_watcher() { # HOME LOG SETTLE [OPTIONS...]
    local home=$1 logf=$2 settle=$3; shift 3
    PROOFMODE_HOME=$home java -jar "$JAR" watch --log-format json --settle-ms "$settle" "$@" "$WATCHED" 2>"$logf" &
    WATCHER_PID=$!
    local i
    for (( i = 0; i < 600; i++ )); do
        grep -q '"event":"started"' "$logf" 2>/dev/null && return 0
        kill -0 "$WATCHER_PID" 2>/dev/null || { cat "$logf" >&2; die "the watcher exited"; }
        sleep 0.1
    done
    die "the watcher did not start within 60 s"
}

stop_watcher() {
    [[ -n $WATCHER_PID ]] || return 0
    kill -TERM "$WATCHER_PID" 2>/dev/null || true
    wait "$WATCHER_PID" 2>/dev/null || true
    WATCHER_PID=
}

# Moves the files of DIR into the watched folder at RATE per second, on a fixed schedule.
drop_at_rate() { # DIR RATE
    local start=$EPOCHREALTIME i=0 f due now
    for f in "$1"/*; do
        due=$(calc "$start + $i / $2" 6)
        now=$EPOCHREALTIME
        awk -v d="$due" -v n="$now" 'BEGIN { exit !(d > n) }' && sleep "$(calc "$due - $now" 6)"
        [[ ${FRESH:-1} == 1 ]] && touch -- "$f"
        mv -- "$f" "$WATCHED/"
        i=$(( i + 1 ))
    done
}

await_proved() { # LOG COUNT
    local i n
    for (( i = 0; i < 6000; i++ )); do
        n=$(grep -c '"event":"proved"' "$1" || true)
        (( n >= $2 )) && return 0
        kill -0 "$WATCHER_PID" 2>/dev/null || { tail -n 20 "$1" >&2; die "the watcher exited"; }
        sleep 0.1
    done
    die "only $n of $2 files proved after 10 minutes"
}

# Seconds from T0 (an $EPOCHREALTIME) to the time of the last `proved` line in LOG.
last_proof_seconds() { # LOG T0
    local last
    last=$(grep '"event":"proved"' "$1" | tail -n 1 | grep -o '"time":"[^"]*"' | cut -d'"' -f4)
    elapsed "$2" "$(date -d "$last" +%s.%N)"
}

percentile() { # SORTED_FILE P
    local n idx
    n=$(wc -l <"$1")
    idx=$(awk -v n="$n" -v p="$2" 'BEGIN { i = int((n * p + 99) / 100); if (i < 1) i = 1; print i }')
    sed -n "${idx}p" "$1"
}

main "$@"
