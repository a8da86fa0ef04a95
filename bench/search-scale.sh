#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: evidence search as the archive grows (10 thousand to a million items), on PostgreSQL.
set -euo pipefail

BENCH_NAME=search-scale
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/search-scale.sh [--help]

For each size in SIZES, fills a fresh PostgreSQL database (a throw-away PostgreSQL 15
cluster) with that many synthetic evidence items, made straight in the database by
proofmode-server's search-fill.sql (500 signers, a capture every 17 minutes, two thirds
with a place), starts `proofmode serve` on it and times REQUESTS searches of each kind
through the HTTP API, one at a time (bench/SearchLoad.java): the newest 100, by signer, by
media hash, one day, a 1°×1° box, and 20 pages of 500 read one after the other (keyset).
Also the database's bytes per item.

Environment:
  SIZES="10000 100000 1000000"
  REQUESTS=200   searches per kind and size
  BENCH_DIR, KEEP=1   as in the other benchmarks

Last stdout line (machine-readable), per size:
  search-scale items=N newest_p99_ms=M signer_p99_ms=M media_p99_ms=M day_p99_ms=M place_p99_ms=M db_bytes_per_item=B
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local requests=${REQUESTS:-200}
    positive_int REQUESTS "$requests"
    cd_repo_root
    ensure_cli_built
    make_workdir
    local jar=$ROOT/proofmode-cli/target/proofmode.jar
    local fill=$ROOT/proofmode-server/src/test/resources/org/proofmode/server/store/search-fill.sql
    start_postgres
    local summary=()
    for n in ${SIZES:-10000 100000 1000000}; do
        positive_int SIZES "$n"
        "${PG_AS[@]}" psql -q -h 127.0.0.1 -p "$PGPORT" -U postgres -c "CREATE DATABASE items_$n" >/dev/null
        local url="jdbc:postgresql://127.0.0.1:$PGPORT/items_$n?user=postgres" home=$WORK/home-$n
        local token; token=$(PROOFMODE_HOME=$home java -jar "$jar" server token create bench --scope admin --db "$url" 2>/dev/null)
        log "filling $n items"
        local t0=$EPOCHREALTIME
        sed "s/ITEMS/$n/g" "$fill" | "${PG_AS[@]}" psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U postgres -d "items_$n" >/dev/null
        log "filled in $(elapsed "$t0" "$EPOCHREALTIME") s"
        local q=("${PG_AS[@]}" psql -At -h 127.0.0.1 -p "$PGPORT" -U postgres -d "items_$n" -c)
        "${q[@]}" "SELECT DISTINCT signer FROM evidence_proofs LIMIT 100" > "$WORK/signers-$n"
        "${q[@]}" "SELECT media_sha256 FROM evidence_proofs TABLESAMPLE SYSTEM (1) LIMIT 500" > "$WORK/media-$n"
        local bytes; bytes=$("${q[@]}" "SELECT (pg_total_relation_size('evidence') + pg_total_relation_size('evidence_proofs')) / $n")
        start_server "$jar" "$home" "$n" --db "$url"
        local pid=$SERVER_PID port=$SERVER_PORT
        printf '%s items (%s bytes per item in the database):\n' "$n" "$bytes"
        local out
        out=$(java "$ROOT/bench/SearchLoad.java" "http://127.0.0.1:$port" "$token" "$requests" "$WORK/signers-$n" "$WORK/media-$n") \
            || { kill "$pid"; die "search run failed at $n items"; }
        kill "$pid"; wait "$pid" 2>/dev/null || true
        printf '%s\n' "$out" | sed '$d' | sed 's/^/  /'
        summary+=("$(printf '%s\n' "$out" | tail -n 1 | sed "s/^search-scale/items=$n/") db_bytes_per_item=$bytes")
    done
    local s
    for s in "${summary[@]}"; do printf 'search-scale %s\n' "$s"; done
}

main "$@"
