#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: how long help takes to print, against `proofmode --version` in the same run.
set -euo pipefail

BENCH_NAME=help
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/help.sh [--help]

Whole command wall time through the repository's launcher (`./proofmode`, no
agent, class-data archives made by untimed runs first, as a user's third run
has them): `proofmode --version` (the reference), `proofmode --help`,
`proofmode help` and `proofmode COMMAND --help` for each COMMAND, RUNS
interleaved rounds; medians, and each median over the reference's.
Target: every ratio <= 1.5.

Environment:
  RUNS=7           rounds
  COMMANDS="..."   the commands whose --help is timed (default: all of them)
  BENCH_DIR, KEEP=1, STRICT=1 as in the other scripts

Last stdout line (machine-readable):
  help version_s=S help_s=S help_ratio=R worst=COMMAND worst_ratio=R runs=N
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local runs=${RUNS:-7}
    positive_int RUNS "$runs"
    cd_repo_root
    ensure_cli_built
    make_workdir
    export PROOFMODE_HOME=$WORK/home
    local commands=${COMMANDS:-"prove verify report export publish redact notarize timestamp c2pa watch status keys inspect compare settings wipe serve server log agent lock"}
    local cases=("--version" "--help" "help") c
    for c in $commands; do cases+=("$c --help"); done

    log "untimed runs: the class lists of --version and of help (every --help maps help's archive), then the archives"
    local round
    for round in 1 2; do
        for c in "${cases[@]}"; do
            # shellcheck disable=SC2086 # a case is a command line split on spaces
            ./proofmode $c >/dev/null 2>&1 || true
        done
        settle_archive default
        settle_archive help
    done

    declare -A times=()
    for (( round = 1; round <= runs; round++ )); do
        for c in "${cases[@]}"; do
            # shellcheck disable=SC2086
            measure "$WORK/out" ./proofmode $c
            times[$c]+="$M_SECONDS "
        done
    done

    local ref med ratio worst="" worst_ratio=0 help_med help_ratio
    # shellcheck disable=SC2086
    ref=$(median ${times[--version]})
    echo
    echo "help: whole command through ./proofmode, $runs rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-28s %10s %8s\n' "command line" "median (s)" "ratio"
    for c in "${cases[@]}"; do
        # shellcheck disable=SC2086
        med=$(median ${times[$c]})
        ratio=$(calc "$med / $ref" 2)
        printf '  %-28s %10s %8s\n' "proofmode $c" "$med" "$ratio"
        if [[ $c != --version ]] && awk -v a="$ratio" -v b="$worst_ratio" 'BEGIN { exit !(a > b) }'; then
            worst=$c worst_ratio=$ratio
        fi
    done
    # shellcheck disable=SC2086
    help_med=$(median ${times[--help]})
    help_ratio=$(calc "$help_med / $ref" 2)
    printf '  %-28s %10s\n' "worst ratio (target <= 1.5)" "$worst_ratio ($worst)"
    echo
    echo "help version_s=$ref help_s=$help_med help_ratio=$help_ratio worst=${worst// /_} worst_ratio=$worst_ratio runs=$runs"
    [[ ${STRICT:-0} == 1 && $(verdict "$worst_ratio" '<=' 1.5) == no ]] && die "a target was missed"
    return 0
}

main "$@"
