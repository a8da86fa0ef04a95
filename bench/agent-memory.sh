#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: the resident memory of the agent the launcher starts, after PROOFS proofs of new 8 MP photos,
# against gpg-agent's after as many signatures in the same run.
set -euo pipefail

BENCH_NAME=agent-memory
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/agent-memory.sh [--help]

A session through the repository's launcher, as prove-one.sh's: the first
`proofmode prove PHOTO` starts the agent (with the launcher's options for
it), then PROOFS - 1 more calls on new camera-like 8 MP photos go to it.
Then the agent's resident memory (VmRSS; VmHWM is its peak), read three times:
  at the reply:  the moment the last proof's launcher has exited with its
                 code (the agent has sent its reply; what it does after a
                 reply, it has not done yet);
  settled:       right after that reply, once the agent has settled: its
                 processor time unchanged for 0.5 s (read every 0.1 s, at
                 most SETTLE_MAX seconds), i.e. its collection a quarter
                 of a second after the reply and any compiling still under
                 way are over. Target: the agent <= 128 MiB here;
  idle:          IDLE seconds after the reply.
Reference, same run: gpg-agent's VmRSS after PROOFS `sha256sum` +
`gpg --detach-sign` of the same photos.
With NMT=1 the agent runs with -XX:NativeMemoryTracking=summary and its
`jcmd PID VM.native_memory summary` is printed at the settled and idle
readings (where the memory is).

Environment:
  PROOFS=20        proofs (calls) in the session
  IDLE=15          seconds after the reply for the idle reading
  SETTLE_MAX=5     the most seconds the settled reading waits for
  NMT=0            1: the agent's native memory summary too
  BENCH_DIR, KEEP=1, STRICT=1 as in the other scripts

Last stdout line (machine-readable):
  agent-memory rss_mib=M reply_rss_mib=M peak_mib=M idle_rss_mib=M gpg_agent_rss_mib=M settle_s=S proofs=N
  (rss_mib: the settled reading, the one the target is about)
EOF2
}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    [[ $# -eq 0 ]] || { usage >&2; exit 2; }
    local proofs=${PROOFS:-20} idle=${IDLE:-15}
    positive_int PROOFS "$proofs"; positive_int IDLE "$idle"; positive_int SETTLE_MAX "${SETTLE_MAX:-5}"
    cd_repo_root
    require_cmd gpg gnupg
    ensure_cli_built
    make_workdir
    export PROOFMODE_PASSPHRASE=${PROOFMODE_PASSPHRASE:-bench-passphrase}
    unset PROOFMODE_AGENT
    local photos
    photos=$(photo_set 300 3264x2448)
    mapfile -t FILES < <(find "$photos" -name 'IMG_*.jpg' | sort | head -n "$(( 2 * proofs ))")
    (( ${#FILES[@]} == 2 * proofs )) || die "need $(( 2 * proofs )) photos"
    HOME_PM=$WORK/home OUT=$WORK/out
    CLEANUP_HOOKS+=("PROOFMODE_HOME=$(printf %q "$HOME_PM") ./proofmode agent --stop")
    PROOFMODE_HOME=$HOME_PM ./proofmode keys create >/dev/null 2>&1 || die "could not create the device key"
    if [[ ${NMT:-0} == 1 ]]; then export JAVA_OPTS="${JAVA_OPTS:-} -XX:NativeMemoryTracking=summary"; fi

    local i pid
    PROOFMODE_HOME=$HOME_PM ./proofmode prove --out "$OUT" "${FILES[0]}" >/dev/null || die "the first prove failed"
    for (( i = 0; i < 2400; i++ )); do
        [[ -S $HOME_PM/agent/agent.sock && -s $HOME_PM/agent/agent.info ]] && break
        sleep 0.05
    done
    [[ -S $HOME_PM/agent/agent.sock ]] || die "no agent started (see $HOME_PM/agent)"
    pid=$(head -n 1 "$HOME_PM/agent/agent.info")
    for (( i = 1; i < proofs; i++ )); do
        PROOFMODE_HOME=$HOME_PM ./proofmode prove --out "$OUT" "${FILES[i]}" >/dev/null 2>&1 || die "prove $i failed"
    done
    [[ $(find "$OUT" -name '*.proof.json' | wc -l) -eq $proofs ]] || die "expected $proofs proofs in $OUT"
    # At the reply: the last launcher has just exited.
    local reply_rss rss peak idle_rss t_reply settle_s
    t_reply=$EPOCHREALTIME
    reply_rss=$(status_mib "$pid" VmRSS)
    settle "$pid" "${SETTLE_MAX:-5}"
    rss=$(status_mib "$pid" VmRSS); peak=$(status_mib "$pid" VmHWM)
    settle_s=$(elapsed "$t_reply" "$EPOCHREALTIME")
    log "agent $pid after $proofs proofs: VmRSS $reply_rss MiB at the reply, $rss MiB settled (${settle_s}s after it), VmHWM $peak MiB"
    if [[ ${NMT:-0} == 1 ]]; then jcmd "$pid" VM.native_memory summary | grep -E 'committed=|Total' >&2 || true; fi
    sleep "$(calc "$idle - $settle_s" 3 | sed 's/^-.*/0/')"
    idle_rss=$(status_mib "$pid" VmRSS)
    log "agent ${idle}s after the reply: VmRSS $idle_rss MiB: RssAnon $(status_mib "$pid" RssAnon), RssFile $(status_mib "$pid" RssFile) MiB"
    local args
    args=$(tr '\0' ' ' < "/proc/$pid/cmdline")
    if [[ ${NMT:-0} == 1 ]]; then jcmd "$pid" VM.native_memory summary | grep -E 'committed=|Total' >&2 || true; fi

    export GNUPGHOME=$WORK/gnupg
    mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill all")
    gpg --batch --quiet --passphrase '' --quick-gen-key 'bench <bench@example.invalid>' ed25519 sign never 2>"$WORK/gpg.log" \
        || { cat "$WORK/gpg.log" >&2; die "gpg key generation failed"; }
    local key gpg_pid gpg_rss
    key=$(gpg --batch --quiet --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
    for (( i = proofs; i < 2 * proofs; i++ )); do
        sha256sum "${FILES[i]}" >/dev/null
        gpg --batch --yes --pinentry-mode loopback --passphrase '' --detach-sign --armor -u "$key" \
            -o "$WORK/${FILES[i]##*/}.asc" "${FILES[i]}"
    done
    gpg_pid=$(gpg-connect-agent 'getinfo pid' /bye | awk '$1 == "D" { print $2 }')
    gpg_rss=$(status_mib "$gpg_pid" VmRSS)

    echo
    echo "agent-memory: $proofs proofs of new 8 MP photos through ./proofmode, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-52s %10s\n' "agent VmRSS at the last proof's reply (MiB)" "$reply_rss"
    printf '  %-52s %10s\n' "agent VmRSS settled, ${settle_s}s after it (MiB), target <= 128" "$rss"
    printf '  %-52s %10s\n' "agent VmHWM, its peak (MiB)" "$peak"
    printf '  %-52s %10s\n' "agent VmRSS ${idle}s after the reply (MiB)" "$idle_rss"
    printf '  %-52s %10s\n' "gpg-agent VmRSS after $proofs signatures (MiB)" "$gpg_rss"
    echo "  agent: $args"
    echo
    echo "agent-memory rss_mib=$rss reply_rss_mib=$reply_rss peak_mib=$peak idle_rss_mib=$idle_rss gpg_agent_rss_mib=$gpg_rss settle_s=$settle_s proofs=$proofs"
    [[ ${STRICT:-0} == 1 && $(verdict "$rss" '<=' 128) == no ]] && die "a target was missed"
    return 0
}

# Waits until process PID has used no processor time for 0.5 s (read every 0.1 s), at most MAX seconds.
settle() { # PID MAX
    local last='' now still=0 i
    for (( i = 0; i < $2 * 10; i++ )); do
        now=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
        if [[ $now == "$last" ]]; then
            (( ++still >= 5 )) && return 0
        else
            still=0
        fi
        last=$now
        sleep 0.1
    done
    log "note: the agent was still busy ${2}s after the reply"
}

status_mib() { # PID FIELD
    awk -v f="$2:" '$1 == f { printf "%.1f", $2 / 1024 }' "/proc/$1/status"
}

main "$@"
