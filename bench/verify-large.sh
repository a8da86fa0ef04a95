#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: verify one large (1 GiB) proved media file vs. `openssl dgst -sha256`.
set -euo pipefail

BENCH_NAME=verify-large
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/verify-large.sh [--help]

Proves one large MP4-looking file (an ftyp box, then one mdat box of random
bytes) once, untimed, then times `./proofmode verify --media FILE DIR` of its
proof folder in a fresh process under JAVA_OPTS=-Xmx64m, against
`openssl dgst -sha256` and `gpg --verify` (the same file signed by gpg with an
Ed25519 key, as the proof's media signature) in the same run, warm page cache,
best of RUNS. Also reports the JVM start-up cost (`./proofmode --version`) and
the peak RSS of the verify process (GNU time). Fails unless verify says TRUSTED.

Environment:
  RUNS=3        timed runs per command; the fastest counts
  SIZE=1Gi      file size (e.g. 100M, 1Gi; plain number = bytes)
  BENCH_DIR     where the temporary work dir is made (default $TMPDIR or /tmp)
  KEEP=1        keep the work dir
  STRICT=1      exit 1 when the ratio misses its target (<= 1.3)

Needs: openssl, gpg, python3, GNU time (/usr/bin/time), Java 17.
Last stdout line (machine-readable):
  verify-large ratio=R ours_s=S openssl_s=S gpg_s=S startup_s=S rss_mib=M size_bytes=N runs=N
EOF2
}

TARGET_RATIO=1.3
JAVA_OPTS_BENCH=-Xmx64m

make_mp4() { # PATH BYTES
    python3 - "$1" "$2" <<'PY'
import os, struct, sys
path, size = sys.argv[1], int(sys.argv[2])
ftyp = struct.pack(">I4s4sI4s4s", 24, b"ftyp", b"isom", 0x200, b"isom", b"mp42")
with open(path, "wb") as f:
    f.write(ftyp)
    f.write(struct.pack(">I4sQ", 1, b"mdat", size - len(ftyp)))
    left = size - len(ftyp) - 16
    while left > 0:
        n = min(left, 1 << 24)
        f.write(os.urandom(n))
        left -= n
PY
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }

    local runs=${RUNS:-3} size
    positive_int RUNS "$runs"
    size=$(parse_size "${SIZE:-1Gi}")

    cd_repo_root
    require_cmd openssl
    require_cmd gpg
    require_cmd python3
    require_gnu_time
    ensure_cli_built
    make_workdir

    PM_HOME=$WORK/home OUT=$WORK/out MEDIA=$WORK/large.mp4
    mkdir -p "$PM_HOME"
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}

    log "creating $size-byte media file $MEDIA"
    make_mp4 "$MEDIA" "$size"
    log "proving it once (untimed)"
    JAVA_OPTS=$JAVA_OPTS_BENCH PROOFMODE_HOME=$PM_HOME ./proofmode prove --out "$OUT" "$MEDIA" >"$WORK/prove.stdout" \
        || die "prove failed"
    local sha dir
    sha=$(hash_lines "$WORK/prove.stdout" | awk '{ print $1 }')
    dir=$OUT/$sha
    [[ -d $dir ]] || die "no proof folder $dir"

    export GNUPGHOME=$WORK/gnupg
    mkdir -m 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill gpg-agent")
    gpg --batch --quiet --pinentry-mode loopback --passphrase '' --quick-gen-key 'bench <bench@example.org>' ed25519 sign never 2>/dev/null
    gpg --batch --quiet --armor --detach-sign --output "$WORK/large.asc" "$MEDIA"
    warm_cache "$MEDIA"

    local ref_cmd=(openssl dgst -sha256 "$MEDIA")
    local gpg_cmd=(gpg --batch --quiet --verify "$WORK/large.asc" "$MEDIA")
    local ver_cmd=(env "JAVA_OPTS=$JAVA_OPTS_BENCH" "PROOFMODE_HOME=$PM_HOME" ./proofmode --version)
    local ours_cmd=(env "JAVA_OPTS=$JAVA_OPTS_BENCH" "PROOFMODE_HOME=$PM_HOME" ./proofmode verify --media "$MEDIA" "$dir")

    log "warm-up (untimed): $(quote_cmd "${ours_cmd[@]}")"
    "${ours_cmd[@]}" >"$WORK/warm.stdout" || die "verify failed: $(head -c 2000 "$WORK/warm.stdout")"
    grep -q ": TRUSTED" "$WORK/warm.stdout" || die "verify did not say TRUSTED: $(head -c 2000 "$WORK/warm.stdout")"
    settle_archive verify

    log "reference: $(quote_cmd "${ref_cmd[@]}")"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/ref.stdout" "${ref_cmd[@]}"
    local ref_s=$BEST_SECONDS
    log "gpg: $(quote_cmd "${gpg_cmd[@]}")"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/gpg.stdout" "${gpg_cmd[@]}"
    local gpg_s=$BEST_SECONDS
    log "JVM start-up baseline: $(quote_cmd "${ver_cmd[@]}")"
    MEASURE_RSS=0 best_of "$runs" true "$WORK/ver.stdout" "${ver_cmd[@]}"
    local startup_s=$BEST_SECONDS
    log "ours: $(quote_cmd "${ours_cmd[@]}")"
    MEASURE_RSS=1 best_of "$runs" true "$WORK/ours.stdout" "${ours_cmd[@]}"
    local ours_s=$BEST_SECONDS rss_mib
    rss_mib=$(calc "$PEAK_RSS_KIB / 1024" 1)
    grep -q "PASS  media.hash.match" "$WORK/ours.stdout" || die "verify did not match the media hash"

    local ratio ratio_gpg ok
    ratio=$(calc "$ours_s / $ref_s" 2)
    ratio_gpg=$(calc "$ours_s / $gpg_s" 2)
    ok=$(verdict "$ratio" '<=' "$TARGET_RATIO")
    echo
    echo "verify-large: one $(numfmt --to=iec-i --suffix=B "$size") proved media file, warm cache, best of $runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-40s %10s\n' "reference (openssl dgst) seconds" "$ref_s"
    printf '  %-40s %10s\n' "gpg --verify (Ed25519) seconds" "$gpg_s"
    printf '  %-40s %10s\n' "ours (proofmode verify --media) seconds" "$ours_s"
    printf '  %-40s %10s\n' "ratio ours/openssl (target <= $TARGET_RATIO)" "$ratio"
    printf '  %-40s %10s\n' "ratio ours/gpg" "$ratio_gpg"
    printf '  %-40s %10s\n' "target met" "$ok"
    printf '  %-40s %10s\n' "ours peak RSS MiB (-Xmx64m)" "$rss_mib"
    printf '  %-40s %10s\n' "JVM start-up (--version) seconds" "$startup_s"
    echo "verify-large ratio=$ratio ours_s=$ours_s openssl_s=$ref_s gpg_s=$gpg_s startup_s=$startup_s rss_mib=$rss_mib size_bytes=$size runs=$runs"
    [[ ${STRICT:-0} == 1 && $ok == no ]] && die "ratio $ratio misses target <= $TARGET_RATIO"
    return 0
}

main "$@"
