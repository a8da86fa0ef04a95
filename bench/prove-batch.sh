#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: prove a folder of many media files vs. a sha256sum + gpg loop.
set -euo pipefail

BENCH_NAME=prove-batch
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF'
Usage: bench/prove-batch.sh [--help]

Creates COUNT media-looking files (JPEG magic + random bytes) of SIZE bytes in
one folder, then compares files/second of
  reference: a bash loop doing `sha256sum FILE` and
             `gpg --detach-sign --armor` (unprotected ed25519 key, fresh GNUPGHOME)
             per file, over the first REF_SAMPLE files
  ours:      `./proofmode prove --out DIR FOLDER` over the whole folder
             (device key made before timing, fresh proof store each run;
             best of RUNS)
and checks that ours printed COUNT hashes, made COUNT proof folders, and agrees
with sha256sum on the reference sample. Warm page cache for both.

Environment:
  COUNT=1000       number of files
  SIZE=3M          bytes per file (3M = 3,000,000; 3Mi = 3 MiB)
  REF_SAMPLE=COUNT files timed in the reference loop (rate is files/s, so a
                   smaller sample is fair; the output says when it is used)
  RUNS=3           timed runs of ours; the fastest counts
  BENCH_DIR        where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1           keep the work dir
  STRICT=1         exit 1 when the ratio misses its target (>= 10)
  AGENT=1          time `proofmode prove` handed to a `proofmode agent` started
                   before timing (as the reference's gpg uses gpg-agent; see
                   bench/lib.sh); peak RSS is then the agent's

Needs: gpg (+ gpg-agent), sha256sum, Java 17; GNU time (/usr/bin/time) is
used for peak RSS when present.
Last stdout line (machine-readable):
  prove-batch agent=0|1 ratio=R ours_fps=F ref_fps=F ours_s=S ref_s=S ref_sample=N count=N size_bytes=N rss_mib=M
EOF
}

TARGET_RATIO=10

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }

    local count=${COUNT:-1000} runs=${RUNS:-3} size sample
    positive_int COUNT "$count"
    positive_int RUNS "$runs"
    size=$(parse_size "${SIZE:-3M}")
    sample=${REF_SAMPLE:-$count}
    positive_int REF_SAMPLE "$sample"
    (( sample <= count )) || die "REF_SAMPLE ($sample) > COUNT ($count)"

    cd_repo_root
    require_cmd gpg gnupg
    require_cmd gpg-agent gnupg
    require_cmd gpgconf gnupg
    require_cmd sha256sum coreutils
    local measure_rss=0
    if [[ -x /usr/bin/time ]]; then measure_rss=1
    else log "note: /usr/bin/time missing (Debian package 'time'): peak RSS not reported"; fi
    ensure_cli_built
    make_workdir

    MEDIA_DIR=$WORK/media OUT=$WORK/out KEY_HOME=$WORK/home-key RUN_HOME=$WORK/home-run
    REF_OUT=$WORK/ref-out
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}

    make_media_files "$count" "$size"
    mapfile -t FILES < <(find "$MEDIA_DIR" -type f -name '*.jpg' | sort)
    (( ${#FILES[@]} == count )) || die "expected $count media files, found ${#FILES[@]}"
    warm_cache "${FILES[@]}"

    setup_gpg
    create_device_key

    # --- reference ---
    local ref_files=("${FILES[@]:0:sample}")
    log "reference: sha256sum + gpg --detach-sign over $sample file(s), once"
    mkdir -p "$REF_OUT"
    MEASURE_RSS=0 measure "$WORK/ref.stdout" ref_loop "${ref_files[@]}"
    local ref_s=$M_SECONDS
    check_ref_output "$sample"

    # --- ours ---
    if [[ ${AGENT:-0} == 1 ]]; then
        # The agent serves one home for all runs: the key home itself; each run gets a fresh --out.
        RUN_HOME=$KEY_HOME
        start_agent "$KEY_HOME"
    fi
    local ours_cmd=(env "PROOFMODE_HOME=$RUN_HOME" ./proofmode prove --out "$OUT" "$MEDIA_DIR")
    log "ours: $(quote_cmd "${ours_cmd[@]}")"
    MEASURE_RSS=$measure_rss best_of "$runs" fresh_run_state "$WORK/ours.stdout" "${ours_cmd[@]}"
    local ours_s=$BEST_SECONDS rss_mib=n/a
    [[ -n $PEAK_RSS_KIB ]] && rss_mib=$(calc "$PEAK_RSS_KIB / 1024" 1)
    [[ ${AGENT:-0} == 1 ]] && rss_mib=$(agent_rss_mib)
    check_ours_output "$count" "$WORK/ours.stdout"

    local ref_fps ours_fps ratio ok
    ref_fps=$(calc "$sample / $ref_s" 1)
    ours_fps=$(calc "$count / $ours_s" 1)
    ratio=$(calc "($count / $ours_s) / ($sample / $ref_s)" 2)
    ok=$(verdict "$ratio" '>=' "$TARGET_RATIO")

    report "$count" "$size" "$sample" "$runs" "$ref_s" "$ref_fps" "$ours_s" "$ours_fps" \
        "$ratio" "$ok" "$rss_mib" "$(quote_cmd "${ours_cmd[@]}")"
    echo "prove-batch agent=${AGENT:-0} ratio=$ratio ours_fps=$ours_fps ref_fps=$ref_fps ours_s=$ours_s ref_s=$ref_s ref_sample=$sample count=$count size_bytes=$size rss_mib=$rss_mib"

    [[ ${STRICT:-0} == 1 && $ok == no ]] && die "ratio $ratio misses target >= $TARGET_RATIO"
    return 0
}

make_media_files() { # COUNT SIZE
    local i
    mkdir -p "$MEDIA_DIR"
    log "creating $1 media files of $2 bytes in $MEDIA_DIR"
    for (( i = 1; i <= $1; i++ )); do
        make_media_file "$(printf '%s/m%05d.jpg' "$MEDIA_DIR" "$i")" "$2"
    done
}

# Fresh GNUPGHOME with an unprotected ed25519 signing key; sets KEYID.
setup_gpg() {
    export GNUPGHOME=$WORK/gnupg
    mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill all")
    log "gpg: generating an unprotected ed25519 key in $GNUPGHOME"
    gpg --batch --quiet --passphrase '' --quick-gen-key 'bench <bench@example.invalid>' ed25519 sign never \
        2>"$WORK/gpg-keygen.log" || { cat "$WORK/gpg-keygen.log" >&2; die "gpg key generation failed"; }
    KEYID=$(gpg --batch --quiet --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
    [[ -n $KEYID ]] || die "no gpg secret key found after generation"
}

# The reference: what a person would script with standard tools.
ref_loop() { # FILES...
    local f
    for f in "$@"; do
        sha256sum "$f" >>"$REF_OUT/SHA256SUMS"
        gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor \
            -u "$KEYID" -o "$REF_OUT/${f##*/}.asc" "$f"
    done
}

check_ref_output() { # SAMPLE
    local n_sums n_sigs
    n_sums=$(wc -l <"$REF_OUT/SHA256SUMS")
    n_sigs=$(find "$REF_OUT" -name '*.asc' | wc -l)
    [[ $n_sums -eq $1 && $n_sigs -eq $1 ]] || die "reference made $n_sums sums and $n_sigs signatures, expected $1"
    gpg --batch --quiet --verify "$REF_OUT/${FILES[0]##*/}.asc" "${FILES[0]}" 2>/dev/null \
        || die "reference signature does not verify"
}

# Key made once, untimed; each timed run starts from a copy of that home, so
# no run sees proofs recorded by an earlier one.
create_device_key() {
    local small=$WORK/warmup/small.jpg
    mkdir -p "$WORK/warmup" "$KEY_HOME"
    make_media_file "$small" 65536
    log "warm-up: creating the device key with one small prove (untimed)"
    PROOFMODE_HOME=$KEY_HOME ./proofmode prove --out "$WORK/warmup/out" "$small" >"$WORK/warmup.stdout" \
        || die "warm-up prove failed"
    [[ -n $(hash_lines "$WORK/warmup.stdout") ]] || die "warm-up prove printed no '<sha256>  <path>' line"
}

fresh_run_state() {
    set_aside "$OUT"
    [[ $RUN_HOME == "$KEY_HOME" ]] && return 0
    set_aside "$RUN_HOME"
    cp -a -- "$KEY_HOME" "$RUN_HOME"
}

check_ours_output() { # COUNT STDOUT
    local lines distinct folders missing
    lines=$(hash_lines "$2" | wc -l)
    distinct=$(hash_lines "$2" | awk '{ print $1 }' | sort -u | wc -l)
    [[ $lines -eq $1 && $distinct -eq $1 ]] \
        || die "proofmode printed $lines '<sha256>  <path>' lines ($distinct distinct), expected $1"
    # a proof folder = a directory under --out that directly holds files
    folders=$(find "$OUT" -type f -printf '%h\n' | sort -u | wc -l)
    [[ $folders -eq $1 ]] || die "expected $1 proof folders under $OUT, found $folders"
    # every file of the reference sample must have the hash sha256sum gave it
    missing=$(awk '{ print $1 }' "$REF_OUT/SHA256SUMS" | sort -u \
        | comm -23 - <(hash_lines "$2" | awk '{ print $1 }' | sort -u) | wc -l)
    [[ $missing -eq 0 ]] || die "$missing sha256sum hash(es) of the reference sample not printed by proofmode"
    log "checked: $lines hashes, $folders proof folders, hashes agree with sha256sum"
}

report() {
    local count=$1 size=$2 sample=$3 runs=$4 ref_s=$5 ref_fps=$6 ours_s=$7 ours_fps=$8
    local ratio=$9 ok=${10} rss=${11} ours_line=${12}
    echo
    echo "prove-batch: $count media files of $(numfmt --to=si "$size")B, warm cache"
    printf '  %-40s %10s %10s\n' "what" "files" "seconds"
    printf '  %-40s %10s %10s\n' "reference (sha256sum + gpg, 1 run)" "$sample" "$ref_s"
    printf '  %-40s %10s %10s\n' "ours (proofmode prove, best of $runs)" "$count" "$ours_s"
    printf '  %-40s %10s\n' "reference files/s" "$ref_fps"
    printf '  %-40s %10s\n' "ours files/s" "$ours_fps"
    printf '  %-40s %10s\n' "ratio ours/reference (target >= $TARGET_RATIO)" "$ratio"
    printf '  %-40s %10s\n' "target met" "$ok"
    printf '  %-40s %10s\n' "ours peak RSS MiB" "$rss"
    (( sample < count )) && echo "  note: reference timed on the first $sample of $count files; the ratio is of rates (files/s)"
    echo "  commands:"
    echo "    reference, per file: sha256sum FILE >> SHA256SUMS"
    echo "                         gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u $KEYID -o OUT.asc FILE"
    echo "                         (GNUPGHOME=$GNUPGHOME; key: gpg --batch --passphrase '' --quick-gen-key 'bench <bench@example.invalid>' ed25519 sign never)"
    echo "    ours:      $ours_line"
    echo "  (PROOFMODE_PASSPHRASE is set in the environment; the device key was made before timing)"
    [[ ${AGENT:-0} == 1 ]] && echo "  (AGENT=1: ours ran in a proofmode agent started before timing; RSS is the agent's)"
    echo
}

main "$@"
