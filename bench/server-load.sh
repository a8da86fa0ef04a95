#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the evidence server under concurrent verify and evidence uploads on loopback.
set -euo pipefail

BENCH_NAME=server-load
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/server-load.sh [--help]

Makes COUNT distinct share bundles (small JPEG-looking media proved by the CLI),
starts `proofmode serve` on 127.0.0.1 (SQLite in a fresh PROOFMODE_HOME, or
PostgreSQL with DB=jdbc:postgresql://...), then with CLIENTS concurrent clients
(bench/ServerLoad.java, the JDK's HttpClient):
  verify:   POST /api/v1/verify, every bundle ROUNDS times (after 20 warm-up calls, and WARMUP more)
  evidence: POST /api/v1/evidence, every bundle once (all new items)
and fetches every stored bundle back, comparing its bytes (lost items).
Reference, same run: `proofmode verify --json` of the same bundles in one
process (JVM start included; it verifies on every core), as bundles/second. Ratio = server verify req/s
over CLI bundles/s.

Environment:
  COUNT=200     bundles
  CLIENTS=32    concurrent clients
  ROUNDS=3      verify passes over the bundles
  WARMUP=0      more verify requests before the counted ones, at full concurrency (a server that has
                run a while has compiled its code; a fresh one spends much of a short run compiling)
  DB            JDBC URL of a PostgreSQL database (default: SQLite)
  BUNDLES=DIR   take the first COUNT *.zip bundles of DIR instead of making small
                ones (e.g. the 8 MP photo bundles of bench/verify-batch.sh run with KEEP=1)
  SERVER_JAVA_OPTS    JVM options of the server alone (e.g. a profiler agent), split on spaces
  BENCH_DIR, KEEP=1   as in the other benchmarks

Exits 1 on any error or lost item.
Last stdout line (machine-readable):
  server-load ratio=R cli_bps=B clients=N verify_rps=R verify_p99_ms=M evidence_rps=R evidence_p99_ms=M errors=0 lost=0 bundles=N
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-200} clients=${CLIENTS:-32} rounds=${ROUNDS:-3} warmup=${WARMUP:-0}
    positive_int COUNT "$count"
    [[ $warmup =~ ^[0-9]+$ ]] || die "WARMUP must be a number of requests (0 or more), not '$warmup'"
    positive_int CLIENTS "$clients"
    positive_int ROUNDS "$rounds"
    require_cmd python3
    cd_repo_root
    ensure_cli_built
    make_workdir
    local jar=$ROOT/proofmode-cli/target/proofmode.jar
    export PROOFMODE_HOME=$WORK/home

    mkdir -p "$WORK/media" "$WORK/bundles"
    if [[ -n ${BUNDLES:-} ]]; then
        log "taking $count bundles from $BUNDLES"
        find "$BUNDLES" -maxdepth 1 -name '*.zip' | sort | sed -n "1,${count}p" | xargs -I{} cp {} "$WORK/bundles/"
    else
    log "making $count bundles"
    python3 - "$WORK/media" "$count" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(os.path.join(d, f"p{i:05d}.jpg"), "wb") as f:
        f.write(b"\xff\xd8\xff\xe0" + os.urandom(20000))
PY
    java -jar "$jar" prove --out "$WORK/proofs" "$WORK/media" > "$WORK/hashes.txt"
    share_bundles "$WORK/hashes.txt" "$WORK/proofs" "$WORK/bundles"
    fi
    local n; n=$(find "$WORK/bundles" -name '*.zip' | wc -l)
    (( n == count )) || die "made $n bundles, expected $count"

    log "reference: proofmode verify --json of $count bundles in one process"
    local t0 t1 cli_s
    t0=$EPOCHREALTIME
    java -jar "$jar" verify --json "$WORK"/bundles/*.zip > "$WORK/cli.json" || die "CLI verify failed"
    t1=$EPOCHREALTIME
    cli_s=$(elapsed "$t0" "$t1")

    local token; token=$(java -jar "$jar" server token create bench --scope admin ${DB:+--db "$DB"} 2>/dev/null)
    # shellcheck disable=SC2086 # SERVER_JAVA_OPTS: JVM options of the server alone (a profiler agent), split on spaces
    java ${SERVER_JAVA_OPTS:-} -jar "$jar" serve --port 0 --rate 1000000 ${DB:+--db "$DB"} > "$WORK/serve.out" 2> "$WORK/serve.err" &
    local pid=$!
    CLEANUP_HOOKS+=("kill $pid")
    local port="" i
    for i in $(seq 1 100); do
        port=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$WORK/serve.out")
        [[ -n $port ]] && break
        sleep 0.2
    done
    [[ -n $port ]] || die "server did not start: $(cat "$WORK/serve.err")"
    log "server on port $port (pid $pid); $clients clients, $rounds verify rounds after $warmup more warm-up requests"

    local out; out=$(java "$ROOT/bench/ServerLoad.java" "http://127.0.0.1:$port" "$token" "$clients" "$rounds" "$WORK/bundles" "$warmup") \
        || { printf '%s\n' "$out"; die "load run failed (errors or lost items)"; }
    printf '%s\n' "$out" | sed '$d'
    local last cli_bps verify_rps ratio
    last=$(printf '%s\n' "$out" | tail -n 1)
    cli_bps=$(calc "$count / $cli_s" 1)
    verify_rps=$(sed -n 's/.*verify_rps=\([0-9.]*\).*/\1/p' <<<"$last")
    ratio=$(calc "$verify_rps / $cli_bps" 2)
    printf 'cli verify: %d bundles in %s s = %s bundles/s (one process, JVM start included)\n' "$count" "$cli_s" "$cli_bps"
    printf 'server verify / cli verify: %s\n' "$ratio"
    printf 'server-load ratio=%s cli_bps=%s %s\n' "$ratio" "$cli_bps" "${last#server-load }"
}

main "$@"
