#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: prove one large (1 GiB) media file vs. `openssl dgst -sha256`.
set -euo pipefail

BENCH_NAME=prove-large
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF'
Usage: bench/prove-large.sh [--help]

Proves one large media file with `./proofmode prove` in a fresh process
(PROOFMODE_AGENT=off) under JAVA_OPTS=-Xmx64m and compares its wall time with
`openssl dgst -sha256` on the same file (warm page cache, best of RUNS).
Also reports the JVM start-up cost (`./proofmode --version`) and the peak RSS
of the prove process (GNU time). Fails if the two SHA-256 values differ.

Environment:
  RUNS=3        timed runs per command; the fastest counts
  SIZE=1Gi      file size (e.g. 100M, 1Gi; plain number = bytes)
  KIND=video    video: a real H.264/AAC MP4 of about SIZE bytes, encoded once
                by ffmpeg and cached (see video_file in bench/lib.sh; ffmpeg
                stops just past SIZE: 1,079,670,696 bytes for 1Gi);
                noise: JPEG magic + random bytes of exactly SIZE (about bytes only)
  BENCH_DIR     where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1        keep the work dir
  STRICT=1      exit 1 when the ratio misses its target (<= 1.3)
  FRAME_HASHES=0  0 (default): the home's setting frame-hashes is false, so the
                file is read and signed but not decoded (what the 1.3x target is
                about); 1: the video is also decoded for Video.FrameHash (see
                bench/frame-hashes.sh for that cost on its own)
  AGENT=1       time `proofmode prove` handed to a `proofmode agent` (started
                before timing, with -Xmx64m; see bench/lib.sh); peak RSS is
                then the agent's

Needs: openssl, GNU time (/usr/bin/time, Debian package 'time'), Java 17.
Last stdout line (machine-readable):
  prove-large kind=video|noise agent=0|1 ratio=R ours_s=S openssl_s=S startup_s=S rss_mib=M size_bytes=N runs=N
EOF
}

TARGET_RATIO=1.3
JAVA_OPTS_BENCH=-Xmx64m

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }

    local runs=${RUNS:-3} size
    positive_int RUNS "$runs"
    size=$(parse_size "${SIZE:-1Gi}")

    cd_repo_root
    require_cmd openssl
    require_gnu_time
    ensure_cli_built
    make_workdir

    PM_HOME=$WORK/home OUT=$WORK/out
    mkdir -p "$PM_HOME"
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}

    case ${KIND:-video} in
        video) MEDIA=$(video_file "$size"); size=$(stat -c %s "$MEDIA") ;;
        noise) MEDIA=$WORK/large.jpg; log "creating $size-byte media file $MEDIA"; make_media_file "$MEDIA" "$size" ;;
        *) die "KIND must be video or noise (got '$KIND')" ;;
    esac
    log "media: $MEDIA ($size bytes)"
    warm_cache "$MEDIA"

    if [[ ${FRAME_HASHES:-0} != 1 ]]; then
        PROOFMODE_HOME=$PM_HOME ./proofmode settings set frame-hashes false >/dev/null || die "cannot turn frame-hashes off"
    fi
    [[ ${AGENT:-0} == 1 ]] && start_agent "$PM_HOME" "$JAVA_OPTS_BENCH"
    warm_up_cli

    local ref_cmd=(openssl dgst -sha256 "$MEDIA")
    local ver_cmd=(env "JAVA_OPTS=$JAVA_OPTS_BENCH" "PROOFMODE_HOME=$PM_HOME" ./proofmode --version)
    local ours_cmd=(env "JAVA_OPTS=$JAVA_OPTS_BENCH" "PROOFMODE_HOME=$PM_HOME" ./proofmode prove --force --out "$OUT" "$MEDIA")

    log "reference: $(quote_cmd "${ref_cmd[@]}")"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/ref.stdout" "${ref_cmd[@]}"
    local ref_s=$BEST_SECONDS

    log "JVM start-up baseline: $(quote_cmd "${ver_cmd[@]}")"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/ver.stdout" "${ver_cmd[@]}"
    local startup_s=$BEST_SECONDS

    log "ours: $(quote_cmd "${ours_cmd[@]}")"
    MEASURE_RSS=1 best_of "$runs" clear_out "$WORK/ours.stdout" "${ours_cmd[@]}"
    local ours_s=$BEST_SECONDS rss_mib
    rss_mib=$(calc "$PEAK_RSS_KIB / 1024" 1)
    [[ ${AGENT:-0} == 1 ]] && rss_mib=$(agent_rss_mib)

    check_hashes "$WORK/ref.stdout" "$WORK/ours.stdout"

    local ratio ok
    ratio=$(calc "$ours_s / $ref_s" 2)
    ok=$(verdict "$ratio" '<=' "$TARGET_RATIO")

    report "$ref_s" "$ours_s" "$startup_s" "$ratio" "$ok" "$rss_mib" "$size" "$runs" \
        "$(quote_cmd "${ref_cmd[@]}")" "$(quote_cmd "${ours_cmd[@]}")" "$(quote_cmd "${ver_cmd[@]}")"
    echo "prove-large kind=${KIND:-video} frame_hashes=${FRAME_HASHES:-0} agent=${AGENT:-0} ratio=$ratio ours_s=$ours_s openssl_s=$ref_s startup_s=$startup_s rss_mib=$rss_mib size_bytes=$size runs=$runs"

    [[ ${STRICT:-0} == 1 && $ok == no ]] && die "ratio $ratio misses target <= $TARGET_RATIO"
    return 0
}

# Create the device key and load the jar once, untimed.
warm_up_cli() {
    local small=$WORK/warmup/small.jpg
    mkdir -p "$WORK/warmup"
    make_media_file "$small" 65536
    log "warm-up: creating the device key with one small prove (untimed)"
    JAVA_OPTS=$JAVA_OPTS_BENCH PROOFMODE_HOME=$PM_HOME \
        ./proofmode prove --force --out "$WORK/warmup/out" "$small" >"$WORK/warmup.stdout" \
        || die "warm-up prove failed"
    [[ -n $(hash_lines "$WORK/warmup.stdout") ]] || die "warm-up prove printed no '<sha256>  <path>' line"
    settle_archive prove
}

clear_out() { rm -rf -- "$OUT"; }

check_hashes() { # REF_STDOUT OURS_STDOUT
    local ref ours n
    ref=$(awk '{ print $NF }' "$1")
    n=$(hash_lines "$2" | wc -l)
    [[ $n -eq 1 ]] || die "expected 1 '<sha256>  <path>' line from proofmode, got $n: $(head -c 500 "$2")"
    ours=$(hash_lines "$2" | awk '{ print $1 }')
    [[ $ref =~ ^[0-9a-f]{64}$ ]] || die "could not read openssl's digest: $(cat "$1")"
    if [[ $ours != "$ref" ]]; then
        die "SHA-256 MISMATCH: proofmode printed $ours, openssl printed $ref"
    fi
    log "SHA-256 matches openssl: $ref"
}

report() {
    local ref_s=$1 ours_s=$2 startup_s=$3 ratio=$4 ok=$5 rss=$6 size=$7 runs=$8
    local ref_line=$9 ours_line=${10} ver_line=${11}
    local mib_s
    mib_s=$(calc "$size / 1048576 / $ours_s" 0)
    echo
    echo "prove-large: one $(numfmt --to=iec-i --suffix=B "$size") media file (${KIND:-video}), warm cache, best of $runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-34s %10s\n' "what" "value"
    printf '  %-34s %10s\n' "reference (openssl dgst) seconds" "$ref_s"
    printf '  %-34s %10s\n' "ours (proofmode prove) seconds" "$ours_s"
    printf '  %-34s %10s\n' "ratio ours/openssl (target <= $TARGET_RATIO)" "$ratio"
    printf '  %-34s %10s\n' "target met" "$ok"
    printf '  %-34s %10s\n' "ours throughput MiB/s" "$mib_s"
    printf '  %-34s %10s\n' "ours peak RSS MiB (-Xmx64m)" "$rss"
    printf '  %-34s %10s\n' "JVM start-up (--version) seconds" "$startup_s"
    echo "  commands:"
    echo "    reference: $ref_line"
    echo "    ours:      $ours_line"
    echo "    start-up:  $ver_line"
    echo "  (PROOFMODE_PASSPHRASE is set in the environment; the device key was made before timing)"
    [[ ${AGENT:-0} == 1 ]] && echo "  (AGENT=1: ours ran in a proofmode agent started before timing, -Xmx64m; RSS is the agent's)"
    echo
}

main "$@"
