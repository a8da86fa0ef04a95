#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `proofmode prove` into an encrypted store (keys encrypt-store) against a plain one, same run:
# a folder of real camera-like photos, and one large file.
set -euo pipefail

BENCH_NAME=encrypted-store
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/encrypted-store.sh [--help]

Two homes with the same device key: one plain, one made encrypted by
`proofmode keys encrypt-store`. Each proves, into its own store (no --out),
  photos: COUNT camera-like JPEG photos of SIZE pixels (photo_set in
          bench/lib.sh: made once by ffmpeg and exiftool, cached), one
          `./proofmode prove FOLDER`;
  large:  one file of LARGE bytes (JPEG magic, then random bytes);
a fresh process per run (PROOFMODE_AGENT=off), the store emptied before each,
plain and encrypted alternately, best of RUNS each, warm page cache.
Target: encrypted / plain wall time <= 1.1 for both.
Then the crypto-erase: `proofmode wipe --keys --yes` of an encrypted home
holding one proof set and of one holding WIPE_SETS (copies of that set's
sealed folder under new random names; wipe reads none of them), once each.

Environment:
  COUNT=100       photos
  SIZE=3264x2448  pixels (8 MP; multiples of 4)
  LARGE=1Gi       size of the large file
  RUNS=3          timed runs of each (best counts)
  WIPE_SETS=10000 proof sets in the home whose keys are wiped
  BENCH_DIR, KEEP=1, STRICT=1 as in the other scripts

Needs: ffmpeg and exiftool (first run).
Last stdout line (machine-readable):
  encrypted-store photos_plain=S photos_encrypted=S photos_ratio=R large_plain=S large_encrypted=S large_ratio=R wipe_one=S wipe_many=S wipe_sets=N count=N size=WxH large=BYTES
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local count=${COUNT:-100} runs=${RUNS:-3} size=${SIZE:-3264x2448} large
    positive_int COUNT "$count"; positive_int RUNS "$runs"
    [[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SIZE must be WIDTHxHEIGHT (got '$size')"
    large=$(parse_size "${LARGE:-1Gi}")
    cd_repo_root
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    export PROOFMODE_AGENT=off

    local photos big
    photos=$(photo_set "$count" "$size")
    big=$WORK/large.jpg
    make_media_file "$big" "$large"
    warm_cache "$photos"/IMG_*.jpg "$big"

    PLAIN=$WORK/home-plain ENC=$WORK/home-encrypted
    log "warm-up: device key, then a copy of the home made encrypted (untimed)"
    PROOFMODE_HOME=$PLAIN ./proofmode keys create >/dev/null 2>&1 || die "keys create failed"
    cp -a -- "$PLAIN" "$ENC"
    PROOFMODE_HOME=$ENC ./proofmode keys encrypt-store >/dev/null || die "keys encrypt-store failed"

    local pp='' pe='' lp='' le='' i
    for (( i = 1; i <= runs; i++ )); do
        pp=$(min_of "$pp" "$(time_prove "$PLAIN" "$photos" "$count")")
        pe=$(min_of "$pe" "$(time_prove "$ENC" "$photos" "$count")")
        lp=$(min_of "$lp" "$(time_prove "$PLAIN" "$big" 1)")
        le=$(min_of "$le" "$(time_prove "$ENC" "$big" 1)")
        log "  run $i/$runs: photos plain ${pp}s encrypted ${pe}s; large plain ${lp}s encrypted ${le}s (best so far)"
    done
    [[ -f $ENC/proofs/.encrypted && -z $(find "$ENC/proofs" -name '*.json' -print -quit) ]] \
        || die "the encrypted home holds plain proof files"

    local sets=${WIPE_SETS:-10000} one many
    positive_int WIPE_SETS "$sets"
    one=$(time_wipe 1 "$photos")
    many=$(time_wipe "$sets" "$photos")

    local pr lr ok_p ok_l
    pr=$(calc "$pe / $pp" 2); lr=$(calc "$le / $lp" 2)
    ok_p=$(verdict "$pr" '<=' 1.1); ok_l=$(verdict "$lr" '<=' 1.1)
    echo
    echo "encrypted-store: $count camera-like JPEGs of $size, and one file of $(numfmt --to=iec-i "$large")B; warm cache, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-52s %9s %9s %7s %4s\n' "what (best of $runs)" "plain s" "sealed s" "ratio" "ok"
    printf '  %-52s %9s %9s %7s %4s\n' "prove FOLDER of $count photos" "$pp" "$pe" "$pr" "$ok_p"
    printf '  %-52s %9s %9s %7s %4s\n' "prove one $(numfmt --to=iec-i "$large")B file" "$lp" "$le" "$lr" "$ok_l"
    printf '  %-52s %9s\n' "wipe --keys, 1 proof set (once)" "$one"
    printf '  %-52s %9s\n' "wipe --keys, $sets proof sets (once)" "$many"
    echo "  command: PROOFMODE_AGENT=off PROOFMODE_HOME=HOME ./proofmode prove FOLDER|FILE (HOME plain, or after 'keys encrypt-store')"
    echo
    echo "encrypted-store photos_plain=$pp photos_encrypted=$pe photos_ratio=$pr large_plain=$lp large_encrypted=$le large_ratio=$lr wipe_one=$one wipe_many=$many wipe_sets=$sets count=$count size=$size large=$large"
    [[ ${STRICT:-0} == 1 && ( $ok_p == no || $ok_l == no ) ]] && die "a target was missed"
    return 0
}

# Wall time of one prove into HOME's store, emptied first; prints seconds.
time_prove() { # HOME PATH EXPECTED
    local home=$1 path=$2 expected=$3
    rm -rf -- "$home/proofs"
    sync
    measure "$WORK/prove.stdout" env PROOFMODE_HOME="$home" ./proofmode prove "$path"
    [[ $(hash_lines "$WORK/prove.stdout" | wc -l) -eq $expected ]] || die "prove did not prove $expected file(s)"
    printf '%s' "$M_SECONDS"
}

# Wall time of `wipe --keys --yes` on a copy of the encrypted home holding SETS sealed proof sets; prints seconds.
time_wipe() { # SETS PHOTOS
    local sets=$1 home=$WORK/home-wipe-$1 one i
    rm -rf -- "$home"
    cp -a -- "$ENC" "$home"
    rm -rf -- "$home/proofs"
    PROOFMODE_HOME=$home ./proofmode prove "$(find "$2" -name 'IMG_*.jpg' | sort | head -n 1)" >/dev/null || die "prove failed"
    one=$(find "$home/proofs" -mindepth 1 -maxdepth 1 -type d -print -quit)
    for (( i = 1; i < sets; i++ )); do
        cp -a -- "$one" "$home/proofs/$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    done
    sync
    measure "$WORK/wipe.stdout" env PROOFMODE_HOME="$home" ./proofmode wipe --keys --yes
    [[ ! -e $home/keys ]] || die "wipe --keys left $home/keys"
    printf '%s' "$M_SECONDS"
}

main "$@"
