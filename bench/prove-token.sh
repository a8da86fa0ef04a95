#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `proofmode prove` of a folder of real camera-like photos with the device key in a SoftHSM2
# token (PKCS#11) against the same with a key file, in the same run.
set -euo pipefail

BENCH_NAME=prove-token
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/prove-token.sh [--help]

Proves COUNT camera-like JPEG photos of SIZE pixels (made once by ffmpeg and
exiftool, cached under bench/target/media: see photo_set in bench/lib.sh) with
`./proofmode prove --out DIR FOLDER`, a fresh process per run (PROOFMODE_AGENT=off),
image hashes off (so that the signing is a larger part of each proof), best of
RUNS each, warm page cache, with four device keys:
  file ed25519  the default key file (the reference),
  file p256     a key file of the token's algorithm,
  token p256    `keys create --pkcs11 /usr/lib/softhsm/libsofthsm2.so` (SoftHSM2),
  token rsa3072 the same with --key-type rsa3072.
Each proof is four signatures (media, JSON, CSV; the key's are made once);
the token makes them on the prover's threads, one logged-in session.
Prints photos/s and each one's ratio to the file ed25519 key. No target: the
ratio is reported as measured (a hardware token is slower than SoftHSM2).

Environment:
  COUNT=300       photos
  SIZE=3264x2448  pixels (8 MP; multiples of 4)
  RUNS=2          timed runs of each (best counts)
  MEDIA_CACHE     where the photos are cached (default bench/target/media)
  BENCH_DIR, KEEP=1 as in the other scripts

Needs: softhsm2 (softhsm2-util, the module), ffmpeg and exiftool (first run).
Last stdout line (machine-readable):
  prove-token file_ed25519_fps=F file_p256_fps=F token_p256_fps=F token_rsa3072_fps=F token_p256_ratio=R token_rsa3072_ratio=R count=N size=WxH
EOF2
}

MODULE=/usr/lib/softhsm/libsofthsm2.so
PIN=246810

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-300} runs=${RUNS:-2} size=${SIZE:-3264x2448}
    positive_int COUNT "$count"; positive_int RUNS "$runs"
    [[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SIZE must be WIDTHxHEIGHT (got '$size')"
    cd_repo_root
    require_cmd softhsm2-util softhsm2
    [[ -f $MODULE ]] || die "$MODULE is missing (apt-get install softhsm2)"
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=bench-passphrase PROOFMODE_PIN=$PIN PROOFMODE_AGENT=off

    local photos
    photos=$(photo_set "$count" "$size")
    mapfile -t FILES < <(find "$photos" -name 'IMG_*.jpg' | sort)
    warm_cache "${FILES[@]}"
    local bytes; bytes=$(du -cb "${FILES[@]}" | tail -n 1 | cut -f1)
    log "$count photos, $(numfmt --to=si "$bytes")B in all, in $photos"

    mkdir -p "$WORK/tokens"
    printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$WORK/tokens" >"$WORK/softhsm2.conf"
    export SOFTHSM2_CONF=$WORK/softhsm2.conf
    softhsm2-util --init-token --free --label bench --pin "$PIN" --so-pin 1357913579 >/dev/null || die "softhsm2-util failed"

    make_home file-ed25519 keys create --key-type ed25519
    make_home file-p256 keys create --key-type p256
    make_home token-p256 keys create --pkcs11 "$MODULE" --token bench --key-type p256
    make_home token-rsa3072 keys create --pkcs11 "$MODULE" --token bench --key-type rsa3072

    local fe fp tp tr
    fe=$(time_ours file-ed25519 "$runs" "$photos")
    fp=$(time_ours file-p256 "$runs" "$photos")
    tp=$(time_ours token-p256 "$runs" "$photos")
    tr=$(time_ours token-rsa3072 "$runs" "$photos")
    grep -q '"Proof.KeyStorage":"pkcs11: SoftHSM project SoftHSM v2"' \
        "$(find "$WORK/check-token-p256" -name '*.proof.json' -print -quit)" || die "a token proof does not record its token"

    local fe_fps fp_fps tp_fps tr_fps tp_ratio tr_ratio fp_ratio
    fe_fps=$(calc "$count / $fe" 1); fp_fps=$(calc "$count / $fp" 1)
    tp_fps=$(calc "$count / $tp" 1); tr_fps=$(calc "$count / $tr" 1)
    fp_ratio=$(calc "$fp_fps / $fe_fps" 2); tp_ratio=$(calc "$tp_fps / $fe_fps" 2); tr_ratio=$(calc "$tr_fps / $fe_fps" 2)

    echo
    echo "prove-token: $count camera-like JPEGs of $size ($(numfmt --to=si "$bytes")B), image hashes off, warm cache, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-44s %8s %9s %8s\n' "device key" "seconds" "photos/s" "ratio"
    printf '  %-44s %8s %9s %8s\n' "file, ed25519 (reference; best of $runs)" "$fe" "$fe_fps" "1.00"
    printf '  %-44s %8s %9s %8s\n' "file, p256 (best of $runs)" "$fp" "$fp_fps" "$fp_ratio"
    printf '  %-44s %8s %9s %8s\n' "SoftHSM2 token, p256 (best of $runs)" "$tp" "$tp_fps" "$tp_ratio"
    printf '  %-44s %8s %9s %8s\n' "SoftHSM2 token, rsa3072 (best of $runs)" "$tr" "$tr_fps" "$tr_ratio"
    echo "  command: PROOFMODE_AGENT=off ./proofmode prove --out OUT $photos   (each home: its key as above)"
    echo
    echo "prove-token file_ed25519_fps=$fe_fps file_p256_fps=$fp_fps token_p256_fps=$tp_fps token_rsa3072_fps=$tr_fps token_p256_ratio=$tp_ratio token_rsa3072_ratio=$tr_ratio count=$count size=$size"
}

# A home with its key made (untimed) and image hashes off.
make_home() { # NAME KEYS-ARGS...
    local name=$1; shift
    PROOFMODE_HOME=$WORK/home-$name ./proofmode "$@" >/dev/null || die "$name: key creation failed"
    PROOFMODE_HOME=$WORK/home-$name ./proofmode settings set image-hashes false >/dev/null
}

# Best wall time of RUNS proofs of the folder with the home NAME (each run into a fresh --out); prints seconds.
time_ours() { # NAME RUNS FOLDER
    local name=$1 runs=$2 folder=$3 i best='' out=$WORK/out
    for (( i = 1; i <= runs; i++ )); do
        set_aside "$out"
        measure "$WORK/ours-$name.stdout" env PROOFMODE_HOME="$WORK/home-$name" ./proofmode prove --out "$out" "$folder"
        [[ $(hash_lines "$WORK/ours-$name.stdout" | wc -l) -eq ${#FILES[@]} ]] || die "prove did not prove ${#FILES[@]} photos"
        log "  $name, run $i/$runs: ${M_SECONDS}s"
        best=$(min_of "$best" "$M_SECONDS")
    done
    set_aside "$WORK/check-$name"
    mv -- "$out" "$WORK/check-$name"
    printf '%s' "$best"
}

main "$@"
