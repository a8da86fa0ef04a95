#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where a fresh JVM's processor time goes when it verifies a folder: per thread (the start on main, the
# compilers, the verify workers, the collector), read from /proc while it runs.
set -euo pipefail

BENCH_NAME=verify-threads
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/verify-threads.sh [--help] FOLDER

Runs `proofmode verify --json FOLDER` in a fresh process (PROOFMODE_AGENT=off)
RUNS times and prints, per run, the processor seconds (user + system) of each
kind of thread of the JVM, read every 20 ms from /proc/PID/task/*/stat (the
last reading of each thread counts, so a thread's final 20 ms may be missed):
  main      `java`: JVM start, the command line, class loading, the folder's
            listing and the printing of reports
  workers   proofmode-verify-*: the bundles' verification (both cores)
  c1, c2    the client and the optimising compiler's threads (JIT)
  gc        the collector's threads
and /usr/bin/time's wall, user and system seconds of the whole launcher.
One untimed run comes first (and makes the launcher's archive for `verify`
if it has none yet, as a user's first runs do).
Checks that every report is TRUSTED unless ANY_VERDICT=1.

Environment:
  RUNS=3          runs
  JAVA_OPTS       passed on (e.g. -XX:TieredStopAtLevel=1; the launcher
                  leaves its own JIT options out when these name one)
  PROOFMODE_CDS   0: no class-data archive (see the launcher)
  PROOFMODE_HOME  the home the bundles' checks use (trusted keys and so on)
  JOBS            passed as --jobs to verify

Last stdout line (machine-readable), the medians:
  verify-threads main=S workers=S c1=S c2=S gc=S total=S wall=S runs=N
EOF2
}

# One run: sets T_MAIN T_WORKERS T_C1 T_C2 T_GC T_OTHER (seconds) and T_WALL T_CPU (from time).
sample_run() { # FOLDER
    local out=$WORK/reports.jsonl times=$WORK/time.txt pid t s name rest ticks
    local -A last=()
    PROOFMODE_AGENT=off /usr/bin/time -f '%e %U %S' -o "$times" \
        ./proofmode verify --json ${JOBS:+--jobs "$JOBS"} "$1" > "$out" &
    pid=$!
    # /usr/bin/time's child is the launcher, which exec's java: sample every thread of every process below.
    while kill -0 "$pid" 2>/dev/null; do
        for t in /proc/"$pid"/task/*/children; do
            local c
            for c in $(cat "$t" 2>/dev/null); do
                for s in /proc/"$c"/task/*/stat; do
                    rest=$(cat "$s" 2>/dev/null) || continue
                    name=${rest#*\(}; name=${name%\)*}
                    # shellcheck disable=SC2086
                    set -- ${rest##*) }
                    ticks=$(( ${12} + ${13} ))
                    t=${s%/stat}; last[${t##*/}]="$name|$ticks"
                done
            done
        done
        sleep 0.02
    done
    wait "$pid" || die "verify failed (exit $?)"
    local hz main=0 workers=0 c1=0 c2=0 gc=0 other=0 v
    hz=$(getconf CLK_TCK)
    for v in "${last[@]}"; do
        name=${v%|*}; ticks=${v##*|}
        case $name in
            java) main=$(( main + ticks )) ;;
            proofmode-verif*) workers=$(( workers + ticks )) ;;
            C1\ Compiler*) c1=$(( c1 + ticks )) ;;
            C2\ Compiler*) c2=$(( c2 + ticks )) ;;
            GC\ Thread*|G1*|VM\ Thread) gc=$(( gc + ticks )) ;;
            *) other=$(( other + ticks )) ;;
        esac
    done
    T_MAIN=$(calc "$main / $hz" 2); T_WORKERS=$(calc "$workers / $hz" 2); T_C1=$(calc "$c1 / $hz" 2)
    T_C2=$(calc "$c2 / $hz" 2); T_GC=$(calc "$gc / $hz" 2); T_OTHER=$(calc "$other / $hz" 2)
    read -r T_WALL u sy < "$times"
    T_CPU=$(calc "$u + $sy" 2)
    if [[ ${ANY_VERDICT:-0} != 1 ]]; then
        local n trusted
        n=$(wc -l < "$out"); trusted=$(grep -c '"verdict":"TRUSTED"' "$out" || true)
        (( n > 0 && n == trusted )) || die "expected every report TRUSTED: $trusted of $n"
    fi
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 1 ]] || { usage >&2; exit 2; }
    local folder runs=${RUNS:-3} i
    folder=$(cd "$1" && pwd) || die "no folder $1"
    positive_int RUNS "$runs"
    cd_repo_root
    require_gnu_time
    ensure_cli_built
    make_workdir
    log "one untimed run (the launcher builds the jar if the sources changed; lists the classes for its archive)"
    PROOFMODE_AGENT=off ./proofmode verify --json ${JOBS:+--jobs "$JOBS"} "$folder" > /dev/null || die "verify failed"
    settle_archive verify
    local m=() w=() c1=() c2=() g=() tot=() wall=()
    printf '%-4s %6s %8s %6s %6s %6s %6s %8s %6s\n' run main workers c1 c2 gc other "cpu(time)" wall
    for (( i = 1; i <= runs; i++ )); do
        sample_run "$folder"
        printf '%-4s %6s %8s %6s %6s %6s %6s %8s %6s\n' "$i" "$T_MAIN" "$T_WORKERS" "$T_C1" "$T_C2" "$T_GC" "$T_OTHER" "$T_CPU" "$T_WALL"
        m+=("$T_MAIN"); w+=("$T_WORKERS"); c1+=("$T_C1"); c2+=("$T_C2"); g+=("$T_GC"); tot+=("$T_CPU"); wall+=("$T_WALL")
    done
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "verify-threads main=$(median "${m[@]}") workers=$(median "${w[@]}") c1=$(median "${c1[@]}") c2=$(median "${c2[@]}")" \
        "gc=$(median "${g[@]}") total=$(median "${tot[@]}") wall=$(median "${wall[@]}") runs=$runs"
}

main "$@"
