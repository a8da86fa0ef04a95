#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the reference C2PA validator over a corpus, one Node process per file against one batch run.
set -euo pipefail

BENCH_NAME=c2pa-validator-batch
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF_USAGE'
Usage: bench/c2pa-validator-batch.sh [--help]

Runs the reference validator (proofmode-testkit/c2pa-validator/validate.mjs, c2pa-rs as WebAssembly
under Node) over every media file of the C2PA conformance samples (DIR; media type from the file's
extension), RUNS times each way, interleaved:
  reference: one 'node validate.mjs FILE MEDIA-TYPE' process per file (how C2paConformanceTest ran
             before it batched)
  batch:     one 'node validate.mjs --batch LIST' process for all files (how it runs now)
Checks that both print the same result for every file, then reports the best wall time of each and
batch / reference (below 1 is faster).

Environment:
  DIR         the corpus (default ../shared/samples/c2pa-conformance)
  RUNS=3      timed runs each way
  BENCH_DIR   where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1      keep the work dir

Needs: node with the validator installed (npm ci in proofmode-testkit/c2pa-validator).
Last stdout line (machine-readable):
  c2pa-validator-batch files=N reference_s=R batch_s=B ratio=X runs=N
EOF_USAGE
}

now() { printf '%s' "$EPOCHREALTIME"; }

mime_of() {
    case ${1,,} in
        *.jpg | *.jpeg) echo image/jpeg ;;
        *.png) echo image/png ;;
        *.mp4 | *.m4a | *.mov) echo video/mp4 ;;
        *.heic) echo image/heic ;;
        *.avif) echo image/avif ;;
        *.webp) echo image/webp ;;
        *.wav) echo audio/wav ;;
        *.tif | *.tiff | *.dng) echo image/tiff ;;
        *.gif) echo image/gif ;;
        *.svg) echo image/svg+xml ;;
        *.mp3) echo audio/mpeg ;;
        *.pdf) echo application/pdf ;;
        *) echo "" ;;
    esac
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    local runs=${RUNS:-3}
    positive_int RUNS "$runs"
    cd_repo_root
    local dir=${DIR:-../shared/samples/c2pa-conformance}
    [[ -d $dir ]] || die "no corpus at $dir"
    require_cmd node nodejs
    local v=proofmode-testkit/c2pa-validator
    [[ -d $v/node_modules/@contentauth/c2pa-wasm ]] || die "reference validator missing: (cd $v && npm ci)"
    make_workdir
    local f m n=0
    : >"$WORK/list"
    for f in "$dir"/*; do
        m=$(mime_of "$f")
        [[ -n $m ]] || continue
        printf '%s\t%s\n' "$m" "$(realpath "$f")" >>"$WORK/list"
        n=$((n + 1))
    done
    (( n > 0 )) || die "no media files in $dir"
    log "$n files of $dir; $runs runs each way"
    local i t0 t1 d best_ref=999999 best_batch=999999 line
    for (( i = 1; i <= runs; i++ )); do
        : >"$WORK/single.out"
        t0=$(now)
        while IFS=$'\t' read -r m f; do
            if out=$(node "$v/validate.mjs" "$f" "$m" 2>/dev/null); then
                printf '%s\n' "$out" >>"$WORK/single.out"
            else
                printf 'failed\n' >>"$WORK/single.out"
            fi
        done <"$WORK/list"
        t1=$(now)
        d=$(elapsed "$t0" "$t1"); best_ref=$(min_of "$best_ref" "$d")
        log "run $i: reference $d s"
        t0=$(now)
        node "$v/validate.mjs" --batch "$WORK/list" >"$WORK/batch.out"
        t1=$(now)
        d=$(elapsed "$t0" "$t1"); best_batch=$(min_of "$best_batch" "$d")
        log "run $i: batch $d s"
    done
    # Same result per file: drop the batch's "file" field, and a file the single run could not read
    # is one the batch reports as failed.
    node -e '
        const fs = require("fs");
        const single = fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
        const batch = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
        if (single.length !== batch.length) { console.error("count differs"); process.exit(1); }
        batch.forEach((b, i) => {
            const { file, ...rest } = b;
            const same = single[i] === "failed" ? "failed" in rest : JSON.stringify(rest) === single[i];
            if (!same) { console.error("differs for " + file); process.exit(1); }
        });' "$WORK/single.out" "$WORK/batch.out" || die "batch and one-by-one results differ"
    local ratio
    ratio=$(calc "$best_batch / $best_ref")
    printf '%-12s %10s\n' "reader" "best (s)"
    printf '%-12s %10s\n' "one by one" "$best_ref" "batch" "$best_batch"
    printf 'c2pa-validator-batch files=%s reference_s=%s batch_s=%s ratio=%s runs=%s\n' "$n" "$best_ref" "$best_batch" "$ratio" "$runs"
}

main "$@"
