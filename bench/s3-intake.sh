#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: evidence intake with the bundles in an S3 bucket against the blob folder, in the same run.
set -euo pipefail

BENCH_NAME=s3-intake
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/s3-intake.sh [--help]

Measures how fast `proofmode serve` takes new evidence (POST /api/v1/evidence:
receive, verify, store, commit) when its bundles go to an S3-compatible bucket
(--blobs s3://bench/intake: s3proxy over a folder of this machine's disk, on
127.0.0.1 with SigV4 keys from the environment, started here from the server
module's test class path) against the same server keeping them in a folder
(the default --blobs). Each store gets its own fresh home (SQLite), the same
COUNT bundles (small JPEG-looking media proved by the CLI, or with PHOTOS=1
camera-like 8 MP photos with EXIF, about 3.1 MB each), first WARMUP
other bundles taken in (not counted: a server runs for days, and its JIT
compiles the store's code, the AWS SDK's in a bucket run, during the first
intakes), 20 warm-up verifications, and CLIENTS concurrent clients
(bench/ServerLoad.java with no verify rounds); every stored bundle is then
fetched back and compared. The runs
alternate folder, bucket, RUNS times; each store's best run counts.
Ratio = bucket intakes/s over folder intakes/s (target >= 0.8). Also prints
the processor time per intake of the server and of s3proxy while the counted
intakes ran, and their ratio for the server (folder over bucket: the
throughput ratio of a server whose store runs elsewhere, when processing
bounds it), and the bytes per item in the bucket and in the folder.

Environment:
  COUNT=300     bundles
  WARMUP=200    intakes of other bundles before the counted ones (0: none)
  CLIENTS=16    concurrent clients
  PHOTOS=0      1: bundles of real camera-like photos (bench/lib.sh photo_set), not 20 kB files
  CPUS=shared   shared: every process on every processor; split: the server alone on
                processor 0, s3proxy and the clients on the others (a store and clients
                on other machines, as in a real archive)
  RUNS=2        runs of each store
  BENCH_DIR, KEEP=1   as in the other benchmarks

Needs the AWS CLI (Debian: awscli) to make the bucket and count its bytes.
Exits 1 on any error or lost item.
Last stdout line (machine-readable):
  s3-intake ratio=R cpu_ratio=C folder_rps=F s3_rps=S folder_p99_ms=M s3_p99_ms=M folder_server_cpu_ms=T
  s3_server_cpu_ms=T s3proxy_cpu_ms=T bucket_bytes_per_item=B folder_bytes_per_item=B bundles=N
EOF2
}

# intake NAME HOME [SERVE_ARGS...] -> runs one intake on a fresh server; sets RPS, P99, and the processor
#   time per intake, while the counted intakes ran, of the server (SERVER_CPU) and of s3proxy (S3_CPU)
intake() {
    local name=$1 home=$2 jar=$ROOT/proofmode-cli/target/proofmode.jar
    shift 2
    local token; token=$(PROOFMODE_HOME=$home java -jar "$jar" server token create bench --scope admin 2>/dev/null)
    start_server "$jar" "$home" "$name" "$@"
    CLEANUP_HOOKS+=("kill $SERVER_PID")
    if (( WARMUP > 0 )); then
        # the intake path warmed up (the JIT compiles the store's code, the AWS SDK's in a bucket run): not counted
        $OTHERS java "$ROOT/bench/ServerLoad.java" "http://127.0.0.1:$SERVER_PORT" "$token" "$CLIENTS" 0 "$WORK/warmup" >/dev/null \
            || die "$name: warm-up intakes failed"
    fi
    local out; out=$(CPU_PIDS="server:$SERVER_PID s3proxy:$S3_PID" $OTHERS java "$ROOT/bench/ServerLoad.java" \
        "http://127.0.0.1:$SERVER_PORT" "$token" "$CLIENTS" 0 "$WORK/bundles") \
        || { printf '%s\n' "$out"; die "$name: load run failed (errors or lost items)"; }
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    local last; last=$(printf '%s\n' "$out" | tail -n 1)
    RPS=$(sed -n 's/.*evidence_rps=\([0-9.]*\).*/\1/p' <<<"$last")
    P99=$(sed -n 's/.*evidence_p99_ms=\([0-9.]*\).*/\1/p' <<<"$last")
    SERVER_CPU=$(sed -n 's/.*cpu_ms_per_intake_server=\([0-9.]*\).*/\1/p' <<<"$last")
    S3_CPU=$(sed -n 's/.*cpu_ms_per_intake_s3proxy=\([0-9.]*\).*/\1/p' <<<"$last")
    printf '%-7s %10s %10s %12s %13s\n' "$name" "$RPS" "$P99" "$SERVER_CPU" "$S3_CPU"
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    COUNT=${COUNT:-300} CLIENTS=${CLIENTS:-16} WARMUP=${WARMUP:-200}
    OTHERS=""
    case ${CPUS:-shared} in
        shared) ;;
        split)
            # the server on processor 0; s3proxy and the clients on the others, as a store and clients on other machines
            (( $(nproc) >= 2 )) || die "CPUS=split needs two processors or more"
            require_cmd taskset util-linux
            SERVER_CPUS=0 OTHERS="taskset -c 1-$(( $(nproc) - 1 ))"
            export SERVER_CPUS ;;
        *) die "CPUS must be shared or split, not $CPUS" ;;
    esac
    local runs=${RUNS:-2}
    positive_int COUNT "$COUNT"
    positive_int CLIENTS "$CLIENTS"
    [[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be 0 or more, not $WARMUP"
    positive_int RUNS "$runs"
    require_cmd python3
    require_cmd aws awscli
    cd_repo_root
    ensure_cli_built
    make_workdir
    local jar=$ROOT/proofmode-cli/target/proofmode.jar

    log "the server module's test class path (s3proxy)"
    ./mvnw -B -q -o -pl proofmode-server dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$WORK/s3proxy.classpath" >/dev/null || die "cannot resolve s3proxy's class path (build the project first)"

    log "making $COUNT bundles and $WARMUP for warming up"
    mkdir -p "$WORK/media" "$WORK/bundles" "$WORK/warmup" "$WORK/s3"
    local photos=""
    # real photos: the cached camera-like set, each copy given a unique tail after its end-of-image marker
    [[ ${PHOTOS:-0} == 1 ]] && photos=$(photo_set 300 3264x2448)
    python3 - "$WORK/media" "$((COUNT + WARMUP))" "$photos" <<'PY'
import os, sys
d, n, photos = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sources = sorted(os.path.join(photos, f) for f in os.listdir(photos) if f.startswith("IMG_")) if photos else []
for i in range(n):
    with open(os.path.join(d, f"p{i:05d}.jpg"), "wb") as f:
        if sources:
            with open(sources[i % len(sources)], "rb") as src:
                f.write(src.read() + b"tail %d" % i)
        else:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(20000))
PY
    PROOFMODE_HOME=$WORK/signer java -jar "$jar" prove --out "$WORK/proofs" "$WORK/media" > "$WORK/hashes.txt"
    share_bundles "$WORK/hashes.txt" "$WORK/proofs" "$WORK/bundles"
    local all; mapfile -t all < <(find "$WORK/bundles" -name '*.zip' | sort)
    (( WARMUP == 0 )) || mv -t "$WORK/warmup" "${all[@]:0:WARMUP}"
    local n; n=$(find "$WORK/bundles" -name '*.zip' | wc -l)
    (( n == COUNT )) || die "made $n bundles, expected $COUNT"

    # Keys made for this run, only in the environment (never on a command line).
    export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY
    AWS_SECRET_ACCESS_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(20))')
    export AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
    export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
    local s3port; s3port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    $OTHERS java -cp "$(cat "$WORK/s3proxy.classpath")" "$ROOT/bench/S3ProxyServer.java" "$s3port" "$WORK/s3" > "$WORK/s3proxy.out" 2> "$WORK/s3proxy.err" &
    S3_PID=$!
    CLEANUP_HOOKS+=("kill $S3_PID")
    local i
    for i in $(seq 1 150); do
        grep -qs listening "$WORK/s3proxy.out" && break
        sleep 0.2
    done
    grep -qs listening "$WORK/s3proxy.out" || die "s3proxy did not start: $(tail -n 5 "$WORK/s3proxy.err")"
    export AWS_ENDPOINT_URL=http://127.0.0.1:$s3port
    aws --endpoint-url "$AWS_ENDPOINT_URL" s3 mb s3://bench >/dev/null || die "cannot make the bucket"
    log "s3proxy on port $s3port (pid $S3_PID); $COUNT bundles, $CLIENTS clients, $runs runs of each store"

    local folder_best="" s3_best="" folder_p99="" s3_p99="" s3_cpu="" folder_cpu="" bucket_cpu="" r
    printf '%-7s %10s %10s %12s %13s\n' "store" "intakes/s" "p99 ms" "server ms/it" "s3proxy ms/it"
    for r in $(seq 1 "$runs"); do
        intake folder "$WORK/home-folder-$r"
        if [[ -z $folder_best ]] || awk -v a="$RPS" -v b="$folder_best" 'BEGIN { exit !(a > b) }'; then folder_best=$RPS folder_p99=$P99; fi
        if [[ -z $folder_cpu ]] || awk -v a="$SERVER_CPU" -v b="$folder_cpu" 'BEGIN { exit !(a < b) }'; then folder_cpu=$SERVER_CPU; fi
        intake bucket "$WORK/home-bucket-$r" --blobs "s3://bench/intake-$r" --s3-path-style
        if [[ -z $s3_best ]] || awk -v a="$RPS" -v b="$s3_best" 'BEGIN { exit !(a > b) }'; then s3_best=$RPS s3_p99=$P99 s3_cpu=$S3_CPU; fi
        if [[ -z $bucket_cpu ]] || awk -v a="$SERVER_CPU" -v b="$bucket_cpu" 'BEGIN { exit !(a < b) }'; then bucket_cpu=$SERVER_CPU; fi
    done

    local bucket_bytes objects folder_bytes ratio
    # the query runs on each page of 1,000 keys: one line per page, summed here
    read -r objects bucket_bytes < <(aws --endpoint-url "$AWS_ENDPOINT_URL" s3api list-objects-v2 --bucket bench --prefix intake-1/ \
        --query '[length(Contents), sum(Contents[].Size)]' --output text | awk '{ n += $1; b += $2 } END { print n, b }')
    (( objects == COUNT + WARMUP )) || die "the bucket holds $objects objects under intake-1/, expected $((COUNT + WARMUP))"
    folder_bytes=$(find "$WORK/home-folder-1/server/blobs" -path '*/incoming' -prune -o -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    ratio=$(calc "$s3_best / $folder_best" 2)
    local cpu_ratio; cpu_ratio=$(calc "$folder_cpu / $bucket_cpu" 2)
    printf 'best: folder %s intakes/s (p99 %s ms), bucket %s intakes/s (p99 %s ms): ratio %s\n' "$folder_best" "$folder_p99" "$s3_best" "$s3_p99" "$ratio"
    printf "the server's processor time per intake (least of the runs): folder %s ms, bucket %s ms: ratio %s\n" "$folder_cpu" "$bucket_cpu" "$cpu_ratio"
    printf 's3proxy, on this machine too, used %s ms of processor time per intake in the best bucket run\n' "$s3_cpu"
    printf 'stored: bucket %s objects, %s bytes (%s per item; the same bytes as the folder: %s per item)\n' \
        "$objects" "$bucket_bytes" "$(calc "$bucket_bytes / $objects" 0)" "$(calc "$folder_bytes / ($COUNT + $WARMUP)" 0)"
    printf 's3-intake ratio=%s cpu_ratio=%s folder_rps=%s s3_rps=%s folder_p99_ms=%s s3_p99_ms=%s folder_server_cpu_ms=%s s3_server_cpu_ms=%s s3proxy_cpu_ms=%s bucket_bytes_per_item=%s folder_bytes_per_item=%s bundles=%s\n' \
        "$ratio" "$cpu_ratio" "$folder_best" "$s3_best" "$folder_p99" "$s3_p99" "$folder_cpu" "$bucket_cpu" "$s3_cpu" \
        "$(calc "$bucket_bytes / $objects" 0)" "$(calc "$folder_bytes / ($COUNT + $WARMUP)" 0)" "$COUNT"
}

main "$@"
