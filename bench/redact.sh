#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: redact and prove a 24-megapixel photo, against a plain ImageIO decode + encode of it.
set -euo pipefail

BENCH_NAME=redact
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF_USAGE'
Usage: bench/redact.sh [--help]

Makes one camera-like JPEG of SIZE pixels (ffmpeg test pattern, tagged by exiftool
with make, model, serial, GPS, XMP and an EXIF thumbnail), proves it, then times,
interleaved, RUNS times each, as whole processes (JVM start included):
  reference: java ImageIoRoundTrip IN OUT   (ImageIO.read + ImageIO.write jpeg,
             default quality; compiled once before timing)
  redact:    proofmode redact --force IN -o OUT --pixelate (1000x1000)
             --blur (800x800) --fill (400x200): decode, orientation, three regions,
             4:4:4 JPEG at quality 0.95, metadata inventory, write, prove the copy
             (hash, three signatures, record and its signature, fsync'd store;
             the copy's proof is removed, untimed, after each run, so each run signs)
  faces:     as redact, plus --faces (OpenCV on a 1600-pixel copy), when FACES=1
The best run of each is reported, and redact / reference as a ratio.

Environment:
  SIZE=6000x4000  pixels (24 MP)
  RUNS=3          timed runs per configuration
  FACES=0         also time --faces (needs Debian's opencv-data)
  BENCH_DIR       where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1          keep the work dir

Needs: ffmpeg, exiftool, Java 17 (javac).
Last stdout line (machine-readable):
  redact reference_s=A redact_s=B ratio=R [faces_s=C faces_ratio=Q] size=WxH runs=N
EOF_USAGE
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local runs=${RUNS:-3} size=${SIZE:-6000x4000}
    positive_int RUNS "$runs"
    [[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SIZE must be WIDTHxHEIGHT (got '$size')"

    cd_repo_root
    require_cmd ffmpeg ffmpeg
    require_cmd exiftool libimage-exiftool-perl
    require_cmd javac openjdk-17-jdk-headless
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    export PROOFMODE_HOME=$WORK/home

    local photo=$WORK/IMG_0001.jpg thumb=$WORK/thumb.jpg
    log "making a $size photo"
    ffmpeg -loglevel error -f lavfi -i "testsrc2=size=$size:rate=1" -frames:v 1 -q:v 2 "$photo" || die "ffmpeg failed"
    ffmpeg -loglevel error -i "$photo" -vf scale=160:-1 "$thumb" || die "ffmpeg failed"
    exiftool -q -overwrite_original -Make=Canon "-Model=EOS R5" -SerialNumber=012345678 -GPSLatitude=48.1173 -GPSLatitudeRef=N \
        -GPSLongitude=11.5167 -GPSLongitudeRef=E -XMP-xmpMM:DocumentID=xmp.did:1 "-ThumbnailImage<=$thumb" "$photo" \
        || die "exiftool failed"
    warm_cache "$photo"
    ./proofmode prove "$photo" >/dev/null 2>&1 || die "prove failed"
    javac -d "$WORK/ref" bench/ImageIoRoundTrip.java || die "javac failed"

    local w=${size%x*} h=${size#*x}
    local regions=(--pixelate "$(( w / 4 )),$(( h / 4 )),1000,1000" --blur "$(( w / 2 )),$(( h / 2 )),800,800" --fill "10,10,400,200")
    local cmd_ref=(java -cp "$WORK/ref" ImageIoRoundTrip "$photo" "$WORK/ref.jpg")
    local cmd_red=(./proofmode redact --force "$photo" -o "$WORK/out.jpg" "${regions[@]}")
    local cmd_faces=(./proofmode redact --force --faces "$photo" -o "$WORK/out.jpg" "${regions[@]}")
    local configs=(cmd_ref cmd_red)
    [[ ${FACES:-0} == 1 ]] && configs+=(cmd_faces)
    log "warm-up (untimed): one run of each, which also records the launcher's class-data archive"
    local c
    for c in "${configs[@]}"; do
        local -n cc=$c
        "${cc[@]}" >/dev/null 2>&1 || die "warm-up failed: $(quote_cmd "${cc[@]}")"
        forget_copy
    done
    local best_ref='' best_red='' best_faces='' i
    for (( i = 1; i <= runs; i++ )); do
        measure "$WORK/ref.out" "${cmd_ref[@]}"; best_ref=$(min_of "$best_ref" "$M_SECONDS")
        measure "$WORK/red.out" "${cmd_red[@]}"; best_red=$(min_of "$best_red" "$M_SECONDS"); forget_copy
        local line="  run $i/$runs: reference ${best_ref}s best, redact $M_SECONDS s"
        if [[ ${FACES:-0} == 1 ]]; then
            measure "$WORK/faces.out" "${cmd_faces[@]}"; best_faces=$(min_of "$best_faces" "$M_SECONDS"); forget_copy
            line+=", faces $M_SECONDS s"
        fi
        log "$line"
    done
    [[ $(hash_lines "$WORK/red.out" | wc -l) -eq 1 ]] || die "redact did not print the copy's hash"
    "${cmd_red[@]}" >/dev/null || die "redact failed"
    ./proofmode verify --original "$photo" "$WORK/out.jpg" >"$WORK/verify.out" || die "verify --original failed: $(cat "$WORK/verify.out")"

    local ratio faces_part=''
    ratio=$(calc "$best_red / $best_ref" 2)
    echo
    echo "redact: one $size JPEG, best of $runs runs, whole processes (JVM start included)"
    printf '  %-58s %8s\n' "configuration" "seconds"
    printf '  %-58s %8s\n' "reference: ImageIO decode + encode ($(cat "$WORK/ref.out"))" "$best_ref"
    printf '  %-58s %8s\n' "redact + prove (3 regions, strip all)" "$best_red"
    printf '  %-58s %8s\n' "ratio redact / reference" "$ratio"
    if [[ ${FACES:-0} == 1 ]]; then
        local fr; fr=$(calc "$best_faces / $best_ref" 2)
        printf '  %-58s %8s\n' "redact + prove with --faces" "$best_faces"
        printf '  %-58s %8s\n' "ratio faces / reference" "$fr"
        faces_part=" faces_s=$best_faces faces_ratio=$fr"
    fi
    echo "  command: $(quote_cmd "${cmd_red[@]}")"
    echo
    echo "redact reference_s=$best_ref redact_s=$best_red ratio=$ratio$faces_part size=$size runs=$runs"
}

# Untimed, after each run: drop the copy's proof, so that every timed run makes and signs a fresh one
# (the copy's bytes are the same each time, and an existing proof would be kept).
forget_copy() {
    [[ -f $WORK/out.jpg ]] && rm -rf -- "$PROOFMODE_HOME/proofs/$(sha256sum "$WORK/out.jpg" | cut -c1-64)"
    return 0
}

main "$@"
