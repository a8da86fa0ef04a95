#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: what recording Video.FrameHash and Audio.SampleHash adds to `prove` of a real video, against
# `ffmpeg -f framehash` of the same file.
set -euo pipefail

BENCH_NAME=frame-hashes
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/frame-hashes.sh [--help]

For a 1080p and a 4K H.264/AAC clip (made once by ffmpeg from its testsrc2
pattern with per-frame noise and a tone, cached under bench/target/media),
times, best of RUNS each, warm page cache:
  reference  ffmpeg -v error -i CLIP -map 0:v:0 -f framehash -hash sha256 -
  on         ./proofmode prove --force --out OUT CLIP   (frame-hashes true)
  off        the same with the home's frame-hashes false
and prints the time frame hashing adds to prove (on - off) and the ratio of
ffmpeg's framehash time to it: frame-hashing throughput relative to ffmpeg's own
(target >= 0.8). Each proof is checked to record the Video.FrameHash that the
reference's output gives.

Environment:
  RUNS=3           timed runs per command; the fastest counts
  SECONDS_1080=20  length of the 1080p clip (30 fps)
  SECONDS_4K=8     length of the 4K clip (30 fps)
  BENCH_DIR, KEEP=1  as for the other benchmarks

Needs: ffmpeg, ffprobe, xxd, Java 17.
Last stdout lines (machine-readable), one per clip:
  frame-hashes clip=1080p|4k frames=N ffmpeg_s=S on_s=S off_s=S added_s=S ratio=R runs=N
EOF2
}

TARGET=0.8

clip() { # NAME WxH SECONDS
    local f
    f="$(media_cache)/clip-$1-$3s.mp4"
    if [[ ! -f $f ]]; then
        log "encoding the $1 clip ($2, $3 s, once; cached): $f"
        mkdir -p "$(dirname "$f")"
        ffmpeg -v error -nostdin -f lavfi -i "testsrc2=s=$2:rate=30:duration=$3" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=$3" \
            -vf "noise=alls=20:allf=t+u" -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -b:a 128k \
            "$f.tmp.mp4" || die "ffmpeg could not encode the $1 clip"
        mv -- "$f.tmp.mp4" "$f"
    fi
    printf '%s' "$f"
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local runs=${RUNS:-3}
    positive_int RUNS "$runs"
    cd_repo_root
    require_cmd ffmpeg
    require_cmd ffprobe ffmpeg
    require_cmd xxd
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    ON=$WORK/home-on OFF=$WORK/home-off OUT=$WORK/out
    mkdir -p "$ON" "$OFF"
    PROOFMODE_HOME=$OFF ./proofmode settings set frame-hashes false >/dev/null || die "cannot turn frame-hashes off"

    local lines=() name size secs f
    for spec in "1080p 1920x1080 ${SECONDS_1080:-20}" "4k 3840x2160 ${SECONDS_4K:-8}"; do
        read -r name size secs <<<"$spec"
        f=$(clip "$name" "$size" "$secs")
        warm_cache "$f"
        log "warm-up: keys and one proof in each home (untimed)"
        PROOFMODE_HOME=$ON ./proofmode prove --force --out "$OUT" "$f" >/dev/null
        PROOFMODE_HOME=$OFF ./proofmode prove --force --out "$OUT" "$f" >/dev/null

        local ref_cmd=(ffmpeg -v error -nostdin -i "$f" -map 0:v:0 -f framehash -hash sha256 -)
        local on_cmd=(env "PROOFMODE_HOME=$ON" ./proofmode prove --force --out "$OUT" "$f")
        local off_cmd=(env "PROOFMODE_HOME=$OFF" ./proofmode prove --force --out "$OUT" "$f")
        log "$name reference: $(quote_cmd "${ref_cmd[@]}")"
        MEASURE_RSS=0 best_of "$runs" true "$WORK/ref.out" "${ref_cmd[@]}"
        local ref_s=$BEST_SECONDS
        log "$name ours, frame-hashes on: $(quote_cmd "${on_cmd[@]}")"
        MEASURE_RSS=0 best_of "$runs" clear_out "$WORK/on.out" "${on_cmd[@]}"
        local on_s=$BEST_SECONDS
        log "$name ours, frame-hashes off"
        MEASURE_RSS=0 best_of "$runs" clear_out "$WORK/off.out" "${off_cmd[@]}"
        local off_s=$BEST_SECONDS

        # The proof made last by 'on' must record what the reference's output gives.
        MEASURE_RSS=0 best_of 1 clear_out "$WORK/on.out" "${on_cmd[@]}"
        local h expected recorded frames
        h=$(hash_lines "$WORK/on.out" | awk '{ print $1 }')
        expected=$(grep -v '^#' "$WORK/ref.out" | cut -d, -f6 | tr -d ' ' | xxd -r -p | sha256sum | cut -d' ' -f1)
        frames=$(grep -vc '^#' "$WORK/ref.out")
        recorded=$(grep -o '"Video.FrameHash" *: *"[0-9a-f]*"' "$OUT/$h/$h.proof.json" | grep -o '[0-9a-f]\{64\}')
        [[ $recorded == "$expected" ]] || die "$name: recorded Video.FrameHash $recorded, ffmpeg's framehash gives $expected"

        local added ratio ok
        added=$(calc "$on_s - $off_s" 3)
        ratio=$(calc "$ref_s / ($added > 0 ? $added : 0.001)" 2)
        ok=$(verdict "$ratio" '>=' "$TARGET")
        echo
        echo "frame-hashes: $name clip ($size, $secs s, $frames frames, $(numfmt --to=iec-i --suffix=B "$(stat -c %s "$f")")), warm cache, best of $runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
        printf '  %-52s %8s\n' "ffmpeg -f framehash (seconds)" "$ref_s"
        printf '  %-52s %8s\n' "proofmode prove, frame-hashes on" "$on_s"
        printf '  %-52s %8s\n' "proofmode prove, frame-hashes off" "$off_s"
        printf '  %-52s %8s\n' "added by frame and sample hashes" "$added"
        printf '  %-52s %8s\n' "ffmpeg framehash / added (target >= $TARGET)" "$ratio"
        printf '  %-52s %8s\n' "target met" "$ok"
        echo "  recorded Video.FrameHash = ffmpeg's framehash digests through xxd and sha256sum: yes"
        lines+=("frame-hashes clip=$name frames=$frames ffmpeg_s=$ref_s on_s=$on_s off_s=$off_s added_s=$added ratio=$ratio runs=$runs")
    done
    echo
    printf '%s\n' "${lines[@]}"
}

clear_out() { rm -rf -- "$OUT"; }

main "$@"
