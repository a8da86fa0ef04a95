#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: verify folders of share bundles of real 8 MP photos (two mixes), in a fresh process and through the agent,
# vs. a sha256sum + gpg --verify loop.
set -euo pipefail

BENCH_NAME=verify-batch
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/verify-batch.sh [--help]

Verifies folders of COUNT share bundles of real 8-megapixel photos, two mixes:
  pattern: COUNT distinct camera-like JPEGs (3264x2448 ffmpeg test pattern
           with per-frame noise, tagged by exiftool with make, model,
           serial, capture time and GPS; 0.67 MB bundles), cached in
           PHOTOS: the mix of the earlier runs (9.8x on 2026-12-05);
  sample:  the ProofMode app's own 8 MP sample photo (3264x2448, 0.78 MB,
           $PROOFMODE_SAMPLES/proofmode/proofmode-android-sample-proof-1/
           IMG_20161214_163821.jpg), COUNT copies each given a unique tail
           after its end-of-image marker (so COUNT distinct files).
Each photo is proved with `proofmode prove` and exported as one share bundle
with the library's export (bench/MakeBundles.java), untimed. Then times, in
turns, RUNS times each, the fastest counting:
  reference: for each bundle's files, `sha256sum` of the media and
             `gpg --verify` of its three signatures (media, proof.json,
             proof.csv), one process each, against the signer's key imported
             into a fresh gpg home (timed on REF_SAMPLE bundles, rate scaled);
  fresh:     `proofmode verify --json FOLDER` in a fresh process
             (PROOFMODE_AGENT=off; JVM start-up included);
  agent:     the same command handed by the launcher to a running
             `proofmode agent` (started untimed with the launcher's options
             for it; it has verified the folder once before the first timed run).
Every bundle is read from its zip, and all must be TRUSTED.

Environment:
  COUNT=300        bundles per mix
  RUNS=2           timed runs of each, in turns; the fastest counts
  REF_SAMPLE=100   bundles the reference loop is timed on (its rate is per bundle)
  MIXES="pattern sample"   which mixes
  MODES="fresh agent"      which ways of running ours
  JOBS             passed as --jobs to verify (default: one per core)
  PHOTOS           pattern photo cache (default ~/.cache/proofmode-bench/photos-8mp)
  PROOFMODE_SAMPLES the third-party samples (the sample mix needs it)
  BENCH_DIR, KEEP as in the other scripts; STRICT=1 fails below the target (>= 5)

Needs: ffmpeg, exiftool, gpg, sha256sum, Java 17, python3 (the agent's client).
Last stdout line (machine-readable), one ratio per mix and mode that ran:
  verify-batch ratio=R pattern_fresh=R pattern_agent=R sample_fresh=R sample_agent=R count=N
  (ratio: the lowest of them)
EOF2
}

TARGET_RATIO=5
SAMPLE_PHOTO=proofmode/proofmode-android-sample-proof-1/IMG_20161214_163821.jpg

make_photos() { # DIR COUNT
    local dir=$1 count=$2 have
    mkdir -p "$dir"
    have=$(find "$dir" -maxdepth 1 -name 'photo*.jpg' | wc -l)
    if (( have < count )) || [[ ! -f $dir/.tagged-$count ]]; then
        log "making $count 8 MP photos in $dir (ffmpeg, then exiftool; cached for later runs)"
        rm -f "$dir"/photo*.jpg "$dir"/.tagged-*
        ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=3264x2448:rate=25" \
            -vf "noise=alls=12:allf=t+u" -frames:v "$count" -q:v 4 "$dir/photo%05d.jpg"
        exiftool -q -overwrite_original -Make=BenchCam -Model=BC-8 -SerialNumber=BC8-0042 \
            '-DateTimeOriginal=2026:12:03 10:00:00' -GPSLatitude=52.52 -GPSLatitudeRef=N \
            -GPSLongitude=13.40 -GPSLongitudeRef=E "$dir" || die "exiftool failed"
        touch "$dir/.tagged-$count"
    fi
}

# The media of a mix in DIR/media (COUNT files), proved into DIR/proofs (DIR/hashes.txt), one bundle each in DIR/bundles.
make_mix() { # MIX DIR COUNT
    local mix=$1 dir=$2 count=$3 i made
    mkdir -p "$dir/media" "$dir/bundles"
    case $mix in
        pattern)
            local photos=${PHOTOS:-$HOME/.cache/proofmode-bench/photos-8mp}
            make_photos "$photos" "$count"
            find "$photos" -maxdepth 1 -name 'photo*.jpg' | sort | sed -n "1,${count}p" | xargs -I{} ln -s {} "$dir/media/" ;;
        sample)
            local src=${PROOFMODE_SAMPLES:-}/$SAMPLE_PHOTO
            [[ -n ${PROOFMODE_SAMPLES:-} && -f $src ]] || die "the sample mix needs PROOFMODE_SAMPLES (the app's sample photo $SAMPLE_PHOTO)"
            for (( i = 1; i <= count; i++ )); do
                { cat -- "$src"; printf 'tail %05d' "$i"; } > "$(printf '%s/media/IMG_%05d.jpg' "$dir" "$i")"
            done ;;
        *) die "unknown mix '$mix' (pattern, sample)" ;;
    esac
    log "$mix: proving $count photos (untimed)"
    PROOFMODE_AGENT=off ./proofmode prove --out "$dir/proofs" "$dir/media" > "$dir/hashes.txt" || die "prove failed"
    log "$mix: exporting one share bundle per photo (untimed)"
    made=$(java -cp proofmode-cli/target/proofmode.jar bench/MakeBundles.java "$dir/hashes.txt" "$dir/proofs" "$dir/bundles")
    (( made == count )) || die "made $made bundles, expected $count"
    warm_cache "$dir"/bundles/*.zip "$dir"/media/* "$dir"/proofs/*/*
}

ref_loop() { # DIR SAMPLE
    local h media d
    while read -r h media; do
        d=$1/proofs/$h
        sha256sum "$media" > /dev/null
        gpg --batch --quiet --verify "$d/$h.asc" "$media" 2>/dev/null
        gpg --batch --quiet --verify "$d/$h.proof.json.asc" "$d/$h.proof.json" 2>/dev/null
        gpg --batch --quiet --verify "$d/$h.proof.csv.asc" "$d/$h.proof.csv" 2>/dev/null
    done < <(head -n "$2" "$1/hashes.txt")
}

# ours MIX MODE RUN: one timed verify of the mix's folder; sets M_SECONDS, checks every line TRUSTED.
ours() {
    local dir=$WORK/$1 n trusted
    local cmd=(./proofmode verify --json ${JOBS:+--jobs "$JOBS"} "$dir/bundles")
    if [[ $2 == agent ]]; then
        [[ -S $PROOFMODE_HOME/agent/agent.sock ]] || die "the agent is gone"
        PROOFMODE_AGENT=on measure "$dir/ours-$2.jsonl" "${cmd[@]}"
    else
        PROOFMODE_AGENT=off MEASURE_RSS=1 measure "$dir/ours-$2.jsonl" "${cmd[@]}"
    fi
    n=$(wc -l < "$dir/ours-$2.jsonl")
    trusted=$(grep -c '"verdict":"TRUSTED"' "$dir/ours-$2.jsonl" || true)
    (( n == COUNT_ && trusted == COUNT_ )) || die "$1 $2: expected $COUNT_ TRUSTED lines, got $n lines, $trusted TRUSTED"
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-300} runs=${RUNS:-2} sample=${REF_SAMPLE:-100} mixes=${MIXES:-pattern sample} modes=${MODES:-fresh agent}
    positive_int COUNT "$count"; positive_int RUNS "$runs"; positive_int REF_SAMPLE "$sample"
    (( sample > count )) && sample=$count
    COUNT_=$count
    local mix mode
    for mode in $modes; do [[ $mode == fresh || $mode == agent ]] || die "unknown mode '$mode' (fresh, agent)"; done

    cd_repo_root
    for c in ffmpeg exiftool gpg sha256sum java; do require_cmd "$c"; done
    [[ " $modes " != *" agent "* ]] || require_cmd python3
    ensure_cli_built
    make_workdir
    export PROOFMODE_HOME=$WORK/home PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    for mix in $mixes; do make_mix "$mix" "$WORK/$mix" "$count"; done

    export GNUPGHOME=$WORK/gnupg
    mkdir -m 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill gpg-agent")
    gpg --batch --quiet --import "$(find "$WORK" -path '*/proofs/*/pubkey.asc' -print -quit)" 2>/dev/null
    log "one bundle verified (untimed), for the launcher's class-data archive"
    PROOFMODE_AGENT=off ./proofmode verify "$(find "$WORK" -path '*/bundles/*.zip' -print -quit)" >/dev/null || die "verify of one bundle failed"
    settle_archive verify
    if [[ " $modes " == *" agent "* ]]; then
        PROOFMODE_AGENT=on start_agent "$PROOFMODE_HOME"
        for mix in $mixes; do
            log "$mix: one verify through the agent (untimed: the agent as a user finds it after using it)"
            ours "$mix" agent
        done
    fi

    # The machine may be shared: the reference and ours run in turns, RUNS times each, best of each.
    local i s results=() summary=() lowest='' ref_s ref_rate ours_s ours_rate ratio peak
    declare -A best
    for mix in $mixes; do
        for (( i = 1; i <= runs; i++ )); do
            log "$mix run $i/$runs: reference (sha256sum + 3 x gpg --verify per bundle) on $sample bundles"
            local t0=$EPOCHREALTIME
            ref_loop "$WORK/$mix" "$sample"
            s=$(elapsed "$t0" "$EPOCHREALTIME"); log "  ${s}s"
            best[$mix.ref]=$(min_of "${best[$mix.ref]:-}" "$s")
            for mode in $modes; do
                ours "$mix" "$mode"
                log "  ours, $mode: ${M_SECONDS}s${M_RSS_KIB:+, peak RSS $(( M_RSS_KIB / 1024 )) MiB}"
                best[$mix.$mode]=$(min_of "${best[$mix.$mode]:-}" "$M_SECONDS")
                [[ -z ${M_RSS_KIB:-} ]] || best[$mix.$mode.rss]=$(max_of "${best[$mix.$mode.rss]:-}" "$M_RSS_KIB")
            done
        done
        ref_s=${best[$mix.ref]}
        ref_rate=$(calc "$sample / $ref_s" 1)
        for mode in $modes; do
            ours_s=${best[$mix.$mode]}
            ours_rate=$(calc "$count / $ours_s" 1)
            ratio=$(calc "$ours_rate / $ref_rate" 2)
            if [[ $mode == agent ]]; then peak="$(agent_rss_mib) (the agent's)"; else peak=$(calc "${best[$mix.$mode.rss]} / 1024" 0); fi
            results+=("$(printf '  %-8s %-6s %8s %12s %12s %8s %6s %s' "$mix" "$mode" "$ours_s" "$ours_rate" "$ref_rate" "$ratio" \
                "$(verdict "$ratio" '>=' "$TARGET_RATIO")" "$peak")")
            summary+=("${mix}_$mode=$ratio")
            lowest=$(min_of "$lowest" "$ratio")
        done
    done

    echo
    echo "verify-batch: $count share bundles of 8 MP photos per mix, best of $runs, the reference timed on $sample; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    for mix in $mixes; do echo "  $mix: $(du -sh "$WORK/$mix/bundles" | cut -f1) of bundles"; done
    printf '  %-8s %-6s %8s %12s %12s %8s %6s %s\n' mix mode seconds "bundles/s" "ref/s" ratio ">= $TARGET_RATIO" "peak RSS MiB"
    printf '%s\n' "${results[@]}"
    echo "verify-batch ratio=$lowest ${summary[*]} count=$count"
    [[ ${STRICT:-0} == 1 && $(verdict "$lowest" '>=' "$TARGET_RATIO") == no ]] && die "ratio $lowest misses target >= $TARGET_RATIO"
    return 0
}

main "$@"
