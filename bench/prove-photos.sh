#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `proofmode prove` of a folder of real camera-like photos, image hashes on and off, against
# djpeg decoding the same photos on every core and a sha256sum + gpg --detach-sign loop; on distinct
# camera-like photos and on copies of the app's own sample photo.
set -euo pipefail

BENCH_NAME=prove-photos
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/prove-photos.sh [--help]

Proves COUNT 8 MP JPEG photos of each KIND with `./proofmode prove --out DIR
FOLDER`, a fresh process per run (PROOFMODE_AGENT=off), image hashes on (the
default) and then off (`settings set image-hashes false`; proofs durable on
disk as always), best of RUNS each, warm page cache. Kinds of photos (both by
default, each cached under bench/target/media):
  camera: distinct camera-like JPEGs of SIZE pixels with a phone's EXIF, made
          once by ffmpeg and exiftool (photo_set in bench/lib.sh);
  sample: copies of the ProofMode app's own 8 MP sample photo (a Nexus 5's,
          from $PROOFMODE_SAMPLES), each with a unique tail after its end of
          image (sample_copies in bench/lib.sh).
References, timed in the same run on the same photos:
  decode: `djpeg -rgb -outfile /dev/null PHOTO` (libjpeg-turbo) of every photo,
          as many processes at once as cores (xargs -P), best of RUNS: the
          decode limit of the machine;
  gpg:    a loop of `sha256sum` + `gpg --detach-sign --armor` (Ed25519, no
          passphrase) over the first REF_SAMPLE photos, once.
Also timed, without a target: the image hashes alone (bench/ImageHashRate.java:
ImageHashes.of of every photo on as many threads as cores in one JVM, after an
untimed pass), to tell the decode and hashing from the rest of a proof.
Targets: hashes on >= 0.75x the photos/s of the decode reference; hashes off
>= 6x the photos/s of the gpg loop.

Environment:
  COUNT=300       photos of each kind
  KINDS="camera sample"  which kinds of photos, in this order
  SIZE=3264x2448  pixels of the camera kind (8 MP; multiples of 4)
  RUNS=2          timed runs of each of ours and of djpeg (best counts)
  REF_SAMPLE=100  photos the gpg loop is timed on (the ratio is of rates)
  AGENT=1         ours handed to a `proofmode agent` started before timing
  BENCH_DIR, KEEP=1, STRICT=1 as in the other scripts

Needs: djpeg (Debian: libjpeg-turbo-progs), gpg, python3, ffmpeg and exiftool (first run).
Stdout, one machine-readable line per kind (the last line is the last kind's):
  prove-photos kind=K on_fps=F off_fps=F djpeg_fps=F gpg_fps=F on_ratio=R off_ratio=R hash_fps=F hash_ratio=R count=N size=WxH agent=0|1
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-300} runs=${RUNS:-2} sample=${REF_SAMPLE:-100} size=${SIZE:-3264x2448} kinds=${KINDS:-camera sample}
    positive_int COUNT "$count"; positive_int RUNS "$runs"; positive_int REF_SAMPLE "$sample"
    (( sample <= count )) || die "REF_SAMPLE ($sample) > COUNT ($count)"
    [[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SIZE must be WIDTHxHEIGHT (got '$size')"
    local kind folders=()
    for kind in $kinds; do
        case $kind in
            camera) folders+=("$(photo_set "$count" "$size")") ;;
            sample) folders+=("$(sample_copies "$count")") ;;
            *) die "KINDS: unknown kind '$kind' (camera, sample)" ;;
        esac
    done
    (( ${#folders[@]} > 0 )) || die "KINDS names no kind"
    cd_repo_root
    require_cmd djpeg libjpeg-turbo-progs
    require_cmd gpg gnupg
    require_cmd sha256sum coreutils
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    [[ ${AGENT:-0} == 1 ]] || export PROOFMODE_AGENT=off
    setup_gpg
    KEY_HOME=$WORK/home-key OUT=$WORK/out
    log "warm-up: creating the device key (untimed)"
    mapfile -t FILES < <(find "${folders[0]}" -name 'IMG_*.jpg' | sort)
    PROOFMODE_HOME=$KEY_HOME ./proofmode prove --out "$WORK/warm-out" "${FILES[0]}" >/dev/null || die "warm-up prove failed"
    settle_archive prove
    cp -a -- "$KEY_HOME" "$WORK/home-off"
    PROOFMODE_HOME=$WORK/home-off ./proofmode settings set image-hashes false >/dev/null

    local i=0
    for kind in $kinds; do
        one_kind "$kind" "${folders[i]}" "$runs" "$sample"
        i=$(( i + 1 ))
    done
    echo
    printf '%s\n' "${LINES[@]}"
    [[ ${STRICT:-0} == 1 && $MISSED == 1 ]] && die "a target was missed"
    return 0
}

MISSED=0 LINES=()

# Times one kind of photos: the references, then ours with image hashes on and off. Prints its table and
# adds its machine-readable line to LINES (printed after every kind's table).
one_kind() { # KIND FOLDER RUNS REF_SAMPLE
    local kind=$1 photos=$2 runs=$3 sample=$4 cores count size
    mapfile -t FILES < <(find "$photos" -name 'IMG_*.jpg' | sort)
    count=${#FILES[@]}
    size=$(exiftool -s3 -ImageSize "${FILES[0]}" 2>/dev/null || echo "?")
    cores=$(nproc)
    warm_cache "${FILES[@]}"
    local bytes; bytes=$(du -cbL "${FILES[@]}" | tail -n 1 | cut -f1)
    log "$kind: $count photos, $(numfmt --to=si "$bytes")B in all, in $photos"

    # --- references ---
    log "$kind: decode reference: djpeg -rgb of each photo, $cores at once"
    printf '%s\0' "${FILES[@]}" >"$WORK/files0"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/djpeg.stdout" xargs -0 -a "$WORK/files0" -P "$cores" -I{} djpeg -rgb -outfile /dev/null {}
    local djpeg_s=$BEST_SECONDS
    REF_OUT=$WORK/ref-out-$kind
    mkdir -p "$REF_OUT"
    log "$kind: gpg reference: sha256sum + gpg --detach-sign over $sample photos, once"
    MEASURE_RSS=0 measure "$WORK/ref.stdout" ref_loop "${FILES[@]:0:sample}"
    local gpg_s=$M_SECONDS
    log "$kind: the image hashes alone: ImageHashes.of of each photo on $cores threads of one warm JVM"
    local hash_s
    hash_s=$(java -cp proofmode-cli/target/proofmode.jar bench/ImageHashRate.java "$cores" "$runs" "$WORK/files0") \
        || die "bench/ImageHashRate.java failed"

    # --- ours ---
    local on_s off_s
    on_s=$(time_ours "$KEY_HOME" "on-$kind" "$runs" "$photos")
    off_s=$(time_ours "$WORK/home-off" "off-$kind" "$runs" "$photos")
    grep -q '"Image.PixelHash"' "$(find "$WORK/check-on-$kind" -name '*.proof.json' -print -quit)" \
        || die "hashes on, but a proof has no Image.PixelHash"
    ! grep -q '"Image.PixelHash"' "$(find "$WORK/check-off-$kind" -name '*.proof.json' -print -quit)" \
        || die "hashes off, but a proof has Image.PixelHash"

    local on_fps off_fps djpeg_fps gpg_fps on_ratio off_ratio hash_fps hash_ratio
    on_fps=$(calc "$count / $on_s" 1); off_fps=$(calc "$count / $off_s" 1); hash_fps=$(calc "$count / $hash_s" 1)
    djpeg_fps=$(calc "$count / $djpeg_s" 1); gpg_fps=$(calc "$sample / $gpg_s" 1)
    on_ratio=$(calc "$on_fps / $djpeg_fps" 2); off_ratio=$(calc "$off_fps / $gpg_fps" 2); hash_ratio=$(calc "$hash_fps / $djpeg_fps" 2)
    local ok_on ok_off
    ok_on=$(verdict "$on_ratio" '>=' 0.75); ok_off=$(verdict "$off_ratio" '>=' 6)
    [[ $ok_on == yes && $ok_off == yes ]] || MISSED=1

    echo
    echo "prove-photos, $kind: $count JPEGs of $size ($(numfmt --to=si "$bytes")B) in $photos, warm cache, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-58s %8s %8s\n' "what" "seconds" "photos/s"
    printf '  %-58s %8s %8s\n' "djpeg -rgb, $cores at once (best of $runs)" "$djpeg_s" "$djpeg_fps"
    printf '  %-58s %8s %8s\n' "sha256sum + gpg --detach-sign loop ($sample photos, once)" "$gpg_s" "$gpg_fps"
    printf '  %-58s %8s %8s\n' "image hashes alone, $cores threads, warm JVM (best of $runs)" "$hash_s" "$hash_fps"
    printf '  %-58s %8s %8s\n' "proofmode prove, image hashes on (best of $runs)" "$on_s" "$on_fps"
    printf '  %-58s %8s %8s\n' "proofmode prove, image hashes off (best of $runs)" "$off_s" "$off_fps"
    printf '  %-58s %8s %8s\n' "image hashes alone / djpeg (no target: the decode's share)" "$hash_ratio" ""
    printf '  %-58s %8s %8s\n' "hashes on / djpeg (target >= 0.75)" "$on_ratio" "$ok_on"
    printf '  %-58s %8s %8s\n' "hashes off / gpg loop (target >= 6)" "$off_ratio" "$ok_off"
    echo "  commands: xargs -0 -P $cores -I{} djpeg -rgb -outfile /dev/null {}"
    echo "            java -cp proofmode-cli/target/proofmode.jar bench/ImageHashRate.java $cores $runs FILES0"
    echo "            per photo: sha256sum F >> SUMS; gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u KEY -o F.asc F"
    echo "            PROOFMODE_AGENT=${PROOFMODE_AGENT:-on} ./proofmode prove --out OUT $photos"
    LINES+=("prove-photos kind=$kind on_fps=$on_fps off_fps=$off_fps djpeg_fps=$djpeg_fps gpg_fps=$gpg_fps on_ratio=$on_ratio off_ratio=$off_ratio hash_fps=$hash_fps hash_ratio=$hash_ratio count=$count size=$size agent=${AGENT:-0}")
}

# Best wall time of RUNS proofs of the folder with HOME (each run into a fresh --out); prints seconds.
time_ours() { # HOME LABEL RUNS FOLDER
    local home=$1 label=$2 runs=$3 folder=$4 i best=''
    [[ ${AGENT:-0} == 1 ]] && start_agent "$home"
    for (( i = 1; i <= runs; i++ )); do
        set_aside "$OUT"
        measure "$WORK/ours-$label.stdout" env PROOFMODE_HOME="$home" ./proofmode prove --out "$OUT" "$folder"
        [[ $(hash_lines "$WORK/ours-$label.stdout" | wc -l) -eq ${#FILES[@]} ]] || die "prove did not prove ${#FILES[@]} photos"
        log "  ours, hashes $label, run $i/$runs: ${M_SECONDS}s"
        best=$(min_of "$best" "$M_SECONDS")
    done
    set_aside "$WORK/check-$label"
    mv -- "$OUT" "$WORK/check-$label"
    [[ ${AGENT:-0} == 1 ]] && { PROOFMODE_HOME=$home ./proofmode agent --stop >/dev/null 2>&1 || true; }
    printf '%s' "$best"
}

setup_gpg() {
    export GNUPGHOME=$WORK/gnupg
    mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill all")
    gpg --batch --quiet --passphrase '' --quick-gen-key 'bench <bench@example.invalid>' ed25519 sign never 2>"$WORK/gpg.log" \
        || { cat "$WORK/gpg.log" >&2; die "gpg key generation failed"; }
    KEYID=$(gpg --batch --quiet --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
}

ref_loop() {
    local f
    for f in "$@"; do
        sha256sum "$f" >>"$REF_OUT/SHA256SUMS"
        gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u "$KEYID" -o "$REF_OUT/${f##*/}.asc" "$f"
    done
}

main "$@"
