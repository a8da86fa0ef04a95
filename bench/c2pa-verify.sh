#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: reading and checking content credentials, ours against the reference validator.
set -euo pipefail

BENCH_NAME=c2pa-verify
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF_USAGE'
Usage: bench/c2pa-verify.sh [--help]

Makes one camera-like JPEG (ffmpeg test pattern, SIZE pixels), embeds content credentials with
'proofmode c2pa sign' (timed once), then checks the credentialed file RUNS times each, interleaved:
  reference: node proofmode-testkit/c2pa-validator/validate.mjs FILE image/jpeg ANCHORS
             (c2pa-rs as WebAssembly, @contentauth/c2pa-wasm, whole process)
  ours:      ./proofmode verify --json FILE (whole process: JVM start, signature, hashed URIs,
             data hash over the whole file)
Both must say Trusted / TRUSTED. Reports the best wall time of each and ours / reference.

With MEDIA=FILE (and MIME=its media type) the file given is checked instead, without anchors: a file
credentialed by someone else, e.g. an MP4 with a BMFF hash binding; both readers must then say
Valid / VALID, and nothing is signed (sign_s=0).

Environment:
  MEDIA           an already credentialed file to check instead of the made JPEG
  MIME            its media type for the reference (e.g. video/mp4); needed with MEDIA
  SIZE=4000x3000  pixels (12 MP)
  RUNS=5          timed runs per reader
  BENCH_DIR       where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1          keep the work dir
  AGENT=1         start a 'proofmode agent' before timing (untimed), so that ours is the warm path the
                  issue's target names: the client hands 'verify' to the running agent; the agent runs
                  RUNS+2 untimed verifications first, as a desk's agent would have after a few files

Needs: ffmpeg, node with the validator installed (npm ci in proofmode-testkit/c2pa-validator), Java 17.
Last stdout line (machine-readable):
  c2pa-verify bytes=N sign_s=S reference_s=R ours_s=O ratio=X runs=N ours=fresh|agent
EOF_USAGE
}

now() { printf '%s' "$EPOCHREALTIME"; }

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    local size=${SIZE:-4000x3000} runs=${RUNS:-5}
    cd_repo_root
    require_cmd ffmpeg
    require_cmd node nodejs
    [[ -d proofmode-testkit/c2pa-validator/node_modules/@contentauth/c2pa-wasm ]] \
        || die "reference validator missing: (cd proofmode-testkit/c2pa-validator && npm ci)"
    ensure_cli_built
    make_workdir
    export PROOFMODE_HOME="$WORK/home" PROOFMODE_PASSPHRASE=bench-passphrase
    local t0 t1 sign_s=0 file mime=image/jpeg ref_state=Trusted our_verdict=TRUSTED anchors_arg=()
    if [[ -n ${MEDIA:-} ]]; then
        [[ -f $MEDIA && -n ${MIME:-} ]] || die "MEDIA must name a file, and MIME its media type"
        file=$MEDIA mime=$MIME ref_state=Valid our_verdict=VALID
    else
        ffmpeg -loglevel error -f lavfi -i "testsrc2=size=$size" -frames:v 1 -q:v 2 "$WORK/photo.jpg"
        ./proofmode c2pa ca >/dev/null 2>&1 || die "c2pa ca failed"
        t0=$(now)
        ./proofmode c2pa sign "$WORK/photo.jpg" -o "$WORK/signed.jpg" >/dev/null 2>&1 || die "c2pa sign failed"
        t1=$(now)
        sign_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        file=$WORK/signed.jpg
        anchors_arg=("$PROOFMODE_HOME/c2pa/ca.pem")
    fi
    local bytes best_ref=999999 best_ours=999999 i out d mode=fresh
    bytes=$(stat -c %s "$file")
    if [[ ${AGENT:-0} == 1 ]]; then
        start_agent "$PROOFMODE_HOME"
        for (( i = 0; i < runs + 2; i++ )); do ./proofmode verify --json "$file" >/dev/null 2>&1 || true; done
        mode=agent
    fi
    log "checking $bytes bytes ($mime); signed in $sign_s s; $runs runs each; ours $mode"
    for (( i = 1; i <= runs; i++ )); do
        t0=$(now)
        out=$(node proofmode-testkit/c2pa-validator/validate.mjs "$file" "$mime" "${anchors_arg[@]}")
        t1=$(now)
        [[ $out == *"\"state\":\"$ref_state\""* ]] || die "reference did not say $ref_state: $out"
        d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        best_ref=$(awk -v a="$best_ref" -v b="$d" 'BEGIN { print (b < a ? b : a) }')
        t0=$(now)
        out=$(./proofmode verify --json "$file" 2>/dev/null || true)
        t1=$(now)
        [[ $out == *"\"verdict\" : \"$our_verdict\""* ]] || die "ours did not say $our_verdict"
        d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        best_ours=$(awk -v a="$best_ours" -v b="$d" 'BEGIN { print (b < a ? b : a) }')
    done
    local ratio
    ratio=$(awk -v a="$best_ours" -v b="$best_ref" 'BEGIN { printf "%.2f", a / b }')
    printf '%-12s %10s\n' reader "best (s)"
    printf '%-12s %10s\n' reference "$best_ref" ours "$best_ours"
    printf 'c2pa-verify bytes=%s sign_s=%s reference_s=%s ours_s=%s ratio=%s runs=%s ours=%s\n' \
        "$bytes" "$sign_s" "$best_ref" "$best_ours" "$ratio" "$runs" "$mode"
}

main "$@"
