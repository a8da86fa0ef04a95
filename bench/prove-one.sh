#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: one photo at a time, as scripts and file-manager actions call `proofmode prove`, against
# `sha256sum` + `gpg --detach-sign` + `djpeg` of the same kind of photo (a proof's pixel hash decodes it).
set -euo pipefail

BENCH_NAME=prove-one
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/prove-one.sh [--help]

A session of single-photo calls through the `proofmode` launcher, each on a
new camera-like JPEG of SIZE pixels (bench/target/media, see photo_set in
bench/lib.sh), whole command wall time:
  1. the first call of the session: no agent runs; the launcher runs the
     command and starts an agent beside it (the key's passphrase comes from
     PROOFMODE_PASSPHRASE, as in the other benchmarks);
  2. the launcher's agent becoming ready (socket present), untimed wait;
  3. CALLS more calls in a row, each on a new photo: median.
Before timing, one untimed session made the device key and the class-data
archives (what the first session after installing pays once), and its agent
was stopped. References, same run, on CALLS new photos, each photo timed with
both: `sha256sum PHOTO` + `gpg --detach-sign --armor` (Ed25519, no passphrase,
gpg-agent already running), median; the same + `djpeg -rgb -outfile /dev/null
PHOTO` (libjpeg-turbo: the decode a proof's Image.PixelHash needs), median.
Targets: first call <= 0.6 s; median <= 2x the reference with djpeg (like for
like; moonshot 1.3x). The ratio to sha256sum + gpg alone is printed too.

Environment:
  CALLS=5          calls after the first (and reference calls)
  SIZE=3264x2448   photo size (8 MP)
  BENCH_DIR, KEEP=1, STRICT=1 as in the other scripts

Last stdout line (machine-readable):
  prove-one first_s=S median_s=S ref_median_s=S ratio=R gpg_median_s=S gpg_ratio=R agent_ready_s=S calls=N size=WxH
  (ref_median_s and ratio: sha256sum + gpg + djpeg; gpg_median_s and gpg_ratio: sha256sum + gpg)
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local calls=${CALLS:-5} size=${SIZE:-3264x2448}
    positive_int CALLS "$calls"
    cd_repo_root
    require_cmd gpg gnupg
    require_cmd djpeg libjpeg-turbo-progs
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    unset PROOFMODE_AGENT
    local need=$(( 2 * calls + 3 )) photos
    photos=$(photo_set 300 "$size")
    mapfile -t FILES < <(find "$photos" -name 'IMG_*.jpg' | sort | head -n "$need")
    (( ${#FILES[@]} == need )) || die "need $need photos"
    warm_cache "${FILES[@]}"
    HOME_PM=$WORK/home OUT=$WORK/out
    CLEANUP_HOOKS+=("PROOFMODE_HOME=$(printf %q "$HOME_PM") ./proofmode agent --stop")

    log "untimed session: device key, class-data archives, agent start and stop"
    PROOFMODE_HOME=$HOME_PM ./proofmode keys create >/dev/null 2>&1 || die "could not create the device key"
    PROOFMODE_HOME=$HOME_PM ./proofmode prove --out "$OUT" "${FILES[0]}" >/dev/null || die "warm-up prove failed"
    await_agent 120 >/dev/null
    PROOFMODE_HOME=$HOME_PM ./proofmode prove --out "$OUT" "${FILES[1]}" >/dev/null || die "warm-up prove (agent) failed"
    PROOFMODE_HOME=$HOME_PM ./proofmode agent --stop >/dev/null 2>&1 || die "could not stop the warm-up agent"
    [[ ! -S $HOME_PM/agent/agent.sock ]] || die "the agent's socket is still there"
    settle_archive prove
    sleep 1

    local i=2 first ready times=()
    sync
    measure "$WORK/first.stdout" env PROOFMODE_HOME="$HOME_PM" ./proofmode prove --out "$OUT" "${FILES[i]}"
    first=$M_SECONDS
    log "first call: ${first}s"
    ready=$(await_agent 120)
    log "agent ready ${ready}s after the first call ended"
    for (( n = 1; n <= calls; n++ )); do
        i=$(( i + 1 ))
        measure "$WORK/one.stdout" env PROOFMODE_HOME="$HOME_PM" ./proofmode prove --out "$OUT" "${FILES[i]}"
        [[ $(hash_lines "$WORK/one.stdout" | wc -l) -eq 1 ]] || die "no hash line from prove"
        log "  call $n: ${M_SECONDS}s"
        times+=("$M_SECONDS")
    done
    grep -q '"Image.PixelHash"' "$(find "$OUT" -name '*.proof.json' | sort | tail -n 1)" || die "a proof without Image.PixelHash"

    setup_gpg
    local ref=() gref=()
    for (( n = 1; n <= calls; n++ )); do
        i=$(( i + 1 ))
        measure "$WORK/ref.stdout" ref_one "${FILES[i]}"
        gref+=("$M_SECONDS")
        measure "$WORK/ref.stdout" ref_decode "${FILES[i]}"
        ref+=("$M_SECONDS")
    done
    local med ref_med ratio gpg_med gpg_ratio ok1 ok2
    med=$(median "${times[@]}"); ref_med=$(median "${ref[@]}"); gpg_med=$(median "${gref[@]}")
    ratio=$(calc "$med / $ref_med" 2); gpg_ratio=$(calc "$med / $gpg_med" 2)
    ok1=$(verdict "$first" '<=' 0.6); ok2=$(verdict "$ratio" '<=' 2)
    echo
    echo "prove-one: single $size photo per call, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-52s %10s\n' "first call of the session (s), target <= 0.6" "$first"
    printf '  %-52s %10s\n' "agent ready after the first call (s)" "$ready"
    printf '  %-52s %10s\n' "next $calls calls (s)" "${times[*]}"
    printf '  %-52s %10s\n' "median (s)" "$med"
    printf '  %-52s %10s\n' "sha256sum + gpg --detach-sign + djpeg, median (s)" "$ref_med"
    printf '  %-52s %10s\n' "ratio to it (target <= 2, moonshot 1.3)" "$ratio"
    printf '  %-52s %10s\n' "sha256sum + gpg --detach-sign, median (s)" "$gpg_med"
    printf '  %-52s %10s\n' "ratio to it (no decode in the reference)" "$gpg_ratio"
    printf '  %-52s %10s\n' "targets met (first, ratio)" "$ok1, $ok2"
    echo "  commands: PROOFMODE_HOME=H ./proofmode prove --out OUT PHOTO"
    echo "            sha256sum PHOTO; gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u KEY -o PHOTO.asc PHOTO"
    echo "            the same; djpeg -rgb -outfile /dev/null PHOTO"
    echo
    echo "prove-one first_s=$first median_s=$med ref_median_s=$ref_med ratio=$ratio gpg_median_s=$gpg_med gpg_ratio=$gpg_ratio agent_ready_s=$ready calls=$calls size=$size"
    [[ ${STRICT:-0} == 1 && ( $ok1 == no || $ok2 == no ) ]] && die "a target was missed"
    return 0
}

# Waits for the launcher's agent; prints the seconds waited.
await_agent() { # TIMEOUT_S
    local t0=$EPOCHREALTIME i
    for (( i = 0; i < $1 * 20; i++ )); do
        if [[ -S $HOME_PM/agent/agent.sock ]]; then elapsed "$t0" "$EPOCHREALTIME"; return 0; fi
        sleep 0.05
    done
    die "no agent started within $1 s (see $HOME_PM/agent)"
}


setup_gpg() {
    export GNUPGHOME=$WORK/gnupg
    mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill all")
    gpg --batch --quiet --passphrase '' --quick-gen-key 'bench <bench@example.invalid>' ed25519 sign never 2>"$WORK/gpg.log" \
        || { cat "$WORK/gpg.log" >&2; die "gpg key generation failed"; }
    KEYID=$(gpg --batch --quiet --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
    # gpg-agent started untimed, as on a desktop where it already runs
    gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign -u "$KEYID" -o "$WORK/warm.sig" "$WORK/gpg.log"
}

ref_one() { # PHOTO
    sha256sum "$1"
    gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u "$KEYID" -o "$WORK/${1##*/}.asc" "$1"
}

ref_decode() { # PHOTO
    ref_one "$1"
    djpeg -rgb -outfile /dev/null "$1"
}

main "$@"
