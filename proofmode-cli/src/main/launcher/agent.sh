# SPDX-License-Identifier: Apache-2.0
# The agent's part of the launchers (./proofmode in the repository, bin/proofmode in the packages), sourced
# by both; POSIX sh. See README, "The agent". `prove` and `verify` are what the agent runs.
#
# proofmode_agent JAVA JAR DIR ARG...   (DIR holds agent-client.py)
#   When an agent runs for the command's home, the command is handed to it by agent-client.py (Python 3,
#   a few milliseconds) and the launcher exits with the command's code; without python3, or when the
#   agent refuses, a JVM hands it over or runs it: proofmode_agent then sets PROOFMODE_CLIENT_OPTS to the
#   options that start a JVM fastest (client compiler only, serial collector, no shared perf-data file).
#   When none runs, the command runs in a JVM as before, and an agent is started beside it for the next
#   commands, like gpg starting gpg-agent: only when the device key exists and its passphrase is
#   available without asking (PROOFMODE_PASSPHRASE, or the generated keys/passphrase file), which any
#   process of this user could then use anyway; it stops after PROOFMODE_AGENT_IDLE without commands
#   (default 10m). PROOFMODE_AGENT=off does neither.
proofmode_agent() {
  pa_java=$1 pa_jar=$2 pa_dir=$3
  shift 3
  PROOFMODE_CLIENT_OPTS=""
  case "${PROOFMODE_AGENT:-}" in off|OFF|Off) return 0 ;; esac
  pa_cmd=""
  for pa_arg in "$@"; do
    case "$pa_arg" in
      --c2pa|--help|-h|--version|-V|--|--passphrase-file|--passphrase-file=*) return 0 ;;
      -*) ;;
      *) if [ -z "$pa_cmd" ]; then pa_cmd="$pa_arg"; fi ;;
    esac
  done
  [ "$pa_cmd" = prove ] || [ "$pa_cmd" = verify ] || return 0
  pa_home="${PROOFMODE_HOME:-${HOME:-}/.proofmode}"
  case "$pa_home" in /*) ;; *) pa_home="$PWD/$pa_home" ;; esac
  if [ -S "$pa_home/agent/agent.sock" ]; then
    # The system's Python first: a version manager's python3 on PATH (pyenv, asdf) is a script that can
    # take 0.1 s to find the interpreter, five times the client's whole run.
    pa_python=/usr/bin/python3
    [ -x "$pa_python" ] || pa_python=$(command -v python3 2>/dev/null || true)
    if [ -n "$pa_python" ]; then
      # -I: isolated (no PYTHON* variables, no user site, not even the script's own folder on the path).
      pa_rc=0
      "$pa_python" -I -S "$pa_dir/agent-client.py" "$pa_jar" "$pa_home" "$@" || pa_rc=$?
      [ "$pa_rc" -eq 200 ] || exit "$pa_rc"
    fi
    PROOFMODE_CLIENT_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData"
  elif [ -f "$pa_home/keys/secret.asc" ] && { [ -n "${PROOFMODE_PASSPHRASE:-}" ] || [ -f "$pa_home/keys/passphrase" ]; } \
      && command -v setsid >/dev/null 2>&1 && command -v flock >/dev/null 2>&1; then
    pa_failed="$pa_home/agent/start.failed"
    if [ -z "$(find "$pa_failed" -mmin -10 2>/dev/null)" ]; then
      (umask 077 && mkdir -p "$pa_home/agent")
      # One starter at a time (flock); a start that fails is not tried again for 10 minutes.
      # shellcheck disable=SC2016,SC2086
      setsid sh -c '"$@" || [ $? -eq 75 ] || touch "$0"' "$pa_failed" \
        flock -n -E 75 "$pa_home/agent/start.lock" \
        "$pa_java" ${JAVA_OPTS:-} -jar "$pa_jar" agent --idle "${PROOFMODE_AGENT_IDLE:-10m}" \
        </dev/null >/dev/null 2>&1 &
    fi
  fi
  return 0
}
