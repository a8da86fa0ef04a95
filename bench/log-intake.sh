#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: what the transparency log costs evidence intake, on SQLite and PostgreSQL.
set -euo pipefail

BENCH_NAME=log-intake
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/log-intake.sh [--help]

Proves COUNT camera-like 8 MP photos (bench's cached photo set) and makes a share bundle
of each (proof and photo). Then, on SQLite and on PostgreSQL (a throw-away cluster
made with Debian's PostgreSQL 15 tools), a fresh `proofmode serve` takes every bundle
as evidence (POST /api/v1/evidence) from CLIENTS concurrent clients (bench/LogLoad.java),
in turns with the reference: the same server built from REF (the commit before the
transparency log), in the same run. For ours it also measures how long until a signed
checkpoint covers every intake (appends/s), the size of a receipt, and the time to check
one offline (parse, entry, Ed25519 checkpoint signature, inclusion proof; warm JVM).
Then NOTES notarization texts (POST /api/v1/notarizations: one entry each, nothing to
verify, so the log's share of the work is largest) from the same clients: texts/s for
both, and for ours appends/s until a checkpoint covers them all.

Environment:
  COUNT=200     bundles (one 8 MP photo each)
  NOTES=2000    notarization texts
  CLIENTS=32    concurrent clients
  RUNS=2        turns of reference and ours per database; best of each
  REF=a1cb0bd   the commit built as the reference (cached in bench/target/ref-REF)
  DBS="sqlite postgresql"
  BENCH_DIR, KEEP=1   as in the other benchmarks

Last stdout line (machine-readable):
  log-intake sqlite_ratio=R postgresql_ratio=R sqlite_appends_per_s=A postgresql_appends_per_s=A receipt_bytes=B check_us=U
EOF2
}

# one_run JAR NAME DB_URL LOG -> prints LogLoad's line
one_run() {
    local jar=$1 name=$2 url=$3 logged=$4 home
    home=$WORK/home-$name
    rm -rf "$home"
    local db=()
    [[ -n $url ]] && db=(--db "$url")
    local token; token=$(PROOFMODE_HOME=$home java -jar "$jar" server token create bench --scope admin "${db[@]}" 2>/dev/null)
    start_server "$jar" "$home" "$name" "${db[@]}"
    local pid=$SERVER_PID port=$SERVER_PORT
    local line
    line=$(java -cp "$ROOT/proofmode-cli/target/proofmode.jar" "$ROOT/bench/LogLoad.java" "http://127.0.0.1:$port" "$token" \
        "$CLIENTS" "$WORK/bundles" "$logged" "$NOTES") || { kill "$pid"; die "load run $name failed"; }
    kill "$pid"; wait "$pid" 2>/dev/null || true
    printf '%s' "$line"
}

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-200} runs=${RUNS:-2} ref=${REF:-a1cb0bd}
    CLIENTS=${CLIENTS:-32}
    NOTES=${NOTES:-2000}
    positive_int COUNT "$count"
    positive_int CLIENTS "$CLIENTS"
    positive_int RUNS "$runs"
    require_cmd python3
    cd_repo_root
    ensure_cli_built
    make_workdir
    local jar=$ROOT/proofmode-cli/target/proofmode.jar

    local refdir=$ROOT/bench/target/ref-$ref
    if [[ ! -f $refdir/proofmode-cli/target/proofmode.jar ]]; then
        log "building the reference $ref in $refdir (once; cached)"
        rm -rf "$refdir"
        git -C "$ROOT" archive --format=tar --prefix=ref/ "$ref" | tar -x -C "$WORK"
        mv "$WORK/ref" "$refdir"
        (cd "$refdir" && ./mvnw -B -q -o -DskipTests package -pl proofmode-cli -am) || die "cannot build $ref"
    fi
    local refjar=$refdir/proofmode-cli/target/proofmode.jar

    local photos; photos=$(photo_set 300 3264x2448)
    log "proving $count photos and making their bundles"
    mkdir -p "$WORK/media" "$WORK/bundles"
    find "$photos" -name 'IMG_*.jpg' | sort | sed -n "1,${count}p" | xargs -I{} cp {} "$WORK/media/"
    PROOFMODE_HOME=$WORK/signer java -jar "$jar" prove --out "$WORK/proofs" "$WORK/media" > "$WORK/hashes.txt"
    share_bundles "$WORK/hashes.txt" "$WORK/proofs" "$WORK/bundles"
    PGPORT=""
    local summary=() last=""
    printf '%-11s %-4s %-9s %10s %8s %8s %12s %10s %9s %12s\n' database run server "intake/s" "p50 ms" "p99 ms" "appends/s" "log lag s" \
        "texts/s" "appends/s"
    for dbname in ${DBS:-sqlite postgresql}; do
        local best_ref=0 best_ours=0 appends=0 receipt=0 check=0 notes_ref=0 notes_ours=0
        for r in $(seq 1 "$runs"); do
            for which in ref ours; do
                local url=""
                if [[ $dbname == postgresql ]]; then
                    [[ -n $PGPORT ]] || start_postgres
                    "${PG_AS[@]}" psql -q -h 127.0.0.1 -p "$PGPORT" -U postgres -c "CREATE DATABASE run_${which}_$r" >/dev/null
                    url="jdbc:postgresql://127.0.0.1:$PGPORT/run_${which}_$r?user=postgres"
                fi
                local line
                if [[ $which == ref ]]; then
                    line=$(one_run "$refjar" "$dbname-ref-$r" "$url" false)
                else
                    line=$(one_run "$jar" "$dbname-ours-$r" "$url" true)
                fi
                local rps; rps=$(field intake_rps "$line")
                local lag=""
                if [[ $which == ours ]]; then
                    lag=$(calc "$(field integrated_s "$line") - $count / $rps" 2)
                    appends=$(max_of "$appends" "$(field ' appends_per_s' "$line")")
                    receipt=$(field receipt_bytes "$line")
                    check=$(field check_us "$line")
                    best_ours=$(max_of "$best_ours" "$rps")
                    notes_ours=$(max_of "$notes_ours" "$(field notes_rps "$line")")
                else
                    best_ref=$(max_of "$best_ref" "$rps")
                    notes_ref=$(max_of "$notes_ref" "$(field notes_rps "$line")")
                fi
                printf '%-11s %-4s %-9s %10s %8s %8s %12s %10s %9s %12s\n' "$dbname" "$r" "$which" "$rps" "$(field p50_ms "$line")" \
                    "$(field p99_ms "$line")" "$(field ' appends_per_s' "$line")" "$lag" "$(field notes_rps "$line")" \
                    "$(field notes_appends_per_s "$line")"
            done
        done
        local ratio; ratio=$(calc "$best_ours / $best_ref" 2)
        printf '%s: best intake %s/s with the log, %s/s without: ratio %s (target >= 0.90: %s)\n' "$dbname" "$best_ours" "$best_ref" \
            "$ratio" "$(verdict "$ratio" '>=' 0.90)"
        local nratio; nratio=$(calc "$notes_ours / $notes_ref" 2)
        printf '%s: notarization texts %s/s with the log, %s/s without: ratio %s\n' "$dbname" "$notes_ours" "$notes_ref" "$nratio"
        summary+=("${dbname}_ratio=$ratio ${dbname}_appends_per_s=$appends ${dbname}_notes_ratio=$nratio")
        last="receipt_bytes=$receipt check_us=$check"
    done
    printf 'receipt: %s bytes; checked offline in %s us (warm JVM)\n' "$(sed 's/receipt_bytes=\([0-9]*\).*/\1/' <<<"$last")" \
        "$(sed 's/.*check_us=//' <<<"$last")"
    printf 'log-intake %s %s\n' "${summary[*]}" "$last"
}

main "$@"
