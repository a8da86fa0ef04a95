# SPDX-License-Identifier: Apache-2.0
# The agent's part of the launchers (./proofmode in the repository, bin/proofmode in the packages), sourced
# by both; POSIX sh. See README, "The agent". `prove` and `verify` are what the agent runs (and `export`,
# `status` and `compare`, handed over to a running agent only). Also how a
# command that runs in a JVM of its own gets the JVM options that suit it (proofmode_quick_start, below).
#
# proofmode_agent JAVA JAR DIR ARG...   (DIR holds agent-client.py and this file)
#   When an agent runs for the command's home, the command is handed to it by agent-client.py (Python 3,
#   a few milliseconds) and the launcher exits with the command's code; without python3, or when the
#   agent refuses, a JVM hands it over or runs it: proofmode_agent then sets PROOFMODE_CLIENT_OPTS to the
#   options that start a JVM fastest (client compiler only, serial collector, no shared perf-data file).
#   When none runs, the command runs in a JVM as before, and an agent is started after it for the next
#   commands, like gpg starting gpg-agent: only when the device key exists and its passphrase is
#   available without asking (PROOFMODE_PASSPHRASE, or the generated keys/passphrase file; for a key in a
#   PKCS#11 token, PROOFMODE_PIN), which any process of this user could then use anyway; it stops after PROOFMODE_AGENT_IDLE without commands
#   (default 10m), and says so once, on stderr when it is a terminal. PROOFMODE_AGENT=off does neither. A
#   command that carries its own PROOFMODE_PASSPHRASE or PROOFMODE_PIN is handed over with that secret's
#   check only (agent-client.py), and runs here if it is not the one the agent unlocked with.
#   For `proofmode agent` itself, sets PROOFMODE_AGENT_OPTS (proofmode_agent_opts, below), which the
#   launchers pass to its JVM.
proofmode_agent() {
  pa_java=$1 pa_jar=$2 pa_dir=$3
  shift 3
  PROOFMODE_CLIENT_OPTS="" PROOFMODE_AGENT_OPTS=""
  case "${PROOFMODE_AGENT:-}" in off|OFF|Off) return 0 ;; esac
  pa_cmd="" pa_alone=""
  for pa_arg in "$@"; do
    case "$pa_arg" in
      --help|-h|--version|-V|--|--stop) return 0 ;;
      --c2pa|--passphrase-file|--passphrase-file=*|--pin-file|--pin-file=*) pa_alone=1 ;;
      -*) ;;
      *) if [ -z "$pa_cmd" ]; then pa_cmd="$pa_arg"; fi ;;
    esac
  done
  # `proofmode agent` itself: the options of an agent's JVM.
  if [ "$pa_cmd" = agent ]; then
    proofmode_agent_opts "$pa_java"
    return 0
  fi
  [ -z "$pa_alone" ] || return 0
  pa_home="${PROOFMODE_HOME:-${HOME:-}/.proofmode}"
  case "$pa_home" in /*) ;; *) pa_home="$PWD/$pa_home" ;; esac
  # export, status and compare go to a running agent (which holds an encrypted store's identity); they start none.
  case "$pa_cmd" in
    prove|verify) ;;
    export|status|compare) [ -S "$pa_home/agent/agent.sock" ] || return 0 ;;
    *) return 0 ;;
  esac
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
  elif { { [ -f "$pa_home/keys/secret.asc" ] && { [ -n "${PROOFMODE_PASSPHRASE:-}" ] || [ -f "$pa_home/keys/passphrase" ]; }; } \
        || { [ -f "$pa_home/keys/token.json" ] && [ -n "${PROOFMODE_PIN:-}" ]; }; } \
      && command -v setsid >/dev/null 2>&1 && command -v flock >/dev/null 2>&1; then
    pa_failed="$pa_home/agent/start.failed"
    if [ -z "$(find "$pa_failed" -mmin -10 2>/dev/null)" ]; then
      (umask 077 && mkdir -p "$pa_home/agent")
      # Said once per agent start (a command handed to a running agent starts none), on a terminal only.
      if [ -t 2 ]; then
        pa_idle="${PROOFMODE_AGENT_IDLE:-10m}"
        case "$pa_idle" in
          *m) pa_idle="${pa_idle%m} minutes" ;; *h) pa_idle="${pa_idle%h} hours" ;;
          *s) pa_idle="${pa_idle%s} seconds" ;; *[0-9]) pa_idle="$pa_idle seconds" ;;
        esac
        echo "proofmode: an agent keeps the key unlocked for $pa_idle: 'proofmode lock' ends it" >&2
      fi
      # One starter at a time (flock); a start that fails is not tried again for 10 minutes. The agent's
      # JVM starts once this command has ended (the launcher's process id is the command's JVM after
      # exec): on two cores, two JVMs starting at once made the first command twice as slow.
      # Its JVM options (proofmode_agent_opts) are chosen there too, since that starts a JVM.
      # shellcheck disable=SC2016,SC2086
      setsid sh -c 'f=$0 w=$1 d=$2 j=$3 l=$4; shift 4; while kill -0 "$w" 2>/dev/null; do sleep 0.05; done
        . "$d/agent.sh"; proofmode_agent_opts "$j"
        flock -n -E 75 "$l" "$j" $PROOFMODE_AGENT_OPTS "$@" || [ $? -eq 75 ] || touch "$f"' \
        "$pa_failed" "$$" "$pa_dir" "$pa_java" "$pa_home/agent/start.lock" \
        ${PROOFMODE_TMP_OPTS:-} ${JAVA_OPTS:-} -jar "$pa_jar" agent --idle "${PROOFMODE_AGENT_IDLE:-10m}" \
        </dev/null >/dev/null 2>&1 &
    fi
  fi
  return 0
}

# proofmode_agent_opts JAVA
#   Sets PROOFMODE_AGENT_OPTS to the JVM options of an agent (started by proofmode_agent, or by
#   `proofmode agent`): it stays resident for minutes between commands, as gpg-agent does, so it is sized
#   to hold what a command needs and to idle small: the serial collector (no concurrent collector's
#   threads and remembered sets), a heap that starts at 8 MiB, grows to at most 512 MiB (a batch's buffers)
#   and shrinks to 30% above what is reachable at each full collection, which the agent asks for a
#   quarter of a second after its last command's reply (at once: the JVM would otherwise shrink it by
#   0%, 10%, 40% of the way at successive collections, and a batch that reuses its buffers collects rarely); and the freed native memory (a photo's decoding)
#   given back to the system every second, where the JVM has -XX:TrimNativeHeapInterval (17.0.9 and
#   later; JAVA, started
#   once, says whether it knows it: an option it does not know stops it). Without the heap and collector
#   options when JAVA_OPTS chooses a collector or heap itself.
proofmode_agent_opts() {
  PROOFMODE_AGENT_OPTS=""
  case " ${JAVA_OPTS:-} " in
    *GC*|*" -Xm"[sx]*|*HeapFreeRatio*|*MaxRAM*) ;;
    *) PROOFMODE_AGENT_OPTS="-XX:+UseSerialGC -Xms8m -Xmx512m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:-ShrinkHeapInSteps" ;;
  esac
  case " ${JAVA_OPTS:-} " in
    *TrimNativeHeap*) ;;
    *) if "$1" -XX:TrimNativeHeapInterval=1000 -Xshare:auto -XX:-UsePerfData -version >/dev/null 2>&1; then
         PROOFMODE_AGENT_OPTS="${PROOFMODE_AGENT_OPTS:+$PROOFMODE_AGENT_OPTS }-XX:TrimNativeHeapInterval=1000"
       fi ;;
  esac
  return 0
}

# proofmode_quick_start DIR ARG...   (DIR holds hashing.jit)
#   Sets PROOFMODE_QUICK_OPTS to the JVM options that suit a `prove` or `verify` of files named on the
#   command line (no folder but the one after --out, and for `verify --media FILE DIR` the proof's), when
#   the command runs in a JVM of its own (not a client of the agent): the serial collector, and the
#   optimising compiler (C2) only for the code that hashes (DIR/hashing.jit, compiler directives). Its
#   SHA-256 is ten times the client compiler's, for the file, a photo's decoded planes and the key's
#   passphrase alike; everything else runs about once per command and stays with the client compiler
#   (C1), so C2's thread and G1's set-up do not take the second core from the command's own work: about
#   0.07 s off a single 8 MP photo's `prove` on two cores, against the client compiler alone. The JVM's
#   notice that it read the directives goes to its console output, which these options turn off (warnings
#   and crash reports are not part of it). Without the directives file (or in a folder whose name holds a
#   space: the options are split on spaces, as JAVA_OPTS is), small files (at most 8 MiB together) get
#   the client compiler only.
#   A folder of media or bundles (a batch) keeps the defaults: it gains from the optimising compiler.
#   Help (--help, -h, `help`) and --version get the client compiler alone and the serial collector.
#   Empty when JAVA_OPTS chooses a collector or compiler itself, and when PROOFMODE_QUICK=off.
proofmode_quick_start() {
  PROOFMODE_QUICK_OPTS=""
  pq_dir=$1
  shift
  [ -z "${PROOFMODE_CLIENT_OPTS:-}" ] || return 0
  case "${PROOFMODE_QUICK:-}" in off|OFF|Off) return 0 ;; esac
  case " ${JAVA_OPTS:-} " in *GC*|*Tiered*|*Compile*|*VMOutput*|*" -Xint "*|*" -Xcomp "*) return 0 ;; esac
  # Help and the version print and end: the client compiler alone, without the optimising compiler's
  # thread and G1's set-up (about a quarter of help's processor time).
  for pq_arg in "$@"; do
    case "$pq_arg" in
      --help|-h|--version|-V) PROOFMODE_QUICK_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"; return 0 ;;
      --) break ;;
    esac
  done
  # The options are split on spaces (as JAVA_OPTS is): a folder whose name holds one cannot be given.
  pq_jit=""
  case "$pq_dir" in
    *[[:space:]]*) ;;
    *) if [ -f "$pq_dir/hashing.jit" ]; then pq_jit="$pq_dir/hashing.jit"; fi ;;
  esac
  pq_cmd="" pq_skip="" pq_total=0 pq_files=0 pq_folders=0 pq_media=""
  for pq_arg in "$@"; do
    if [ -n "$pq_skip" ]; then pq_skip=""; continue; fi
    case "$pq_arg" in
      --out) pq_skip=1; continue ;;
      --media) pq_media=1; continue ;;
      -*) continue ;;
    esac
    if [ -z "$pq_cmd" ]; then
      pq_cmd="$pq_arg"
      if [ "$pq_cmd" = help ]; then PROOFMODE_QUICK_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"; return 0; fi
      [ "$pq_cmd" = prove ] || [ "$pq_cmd" = verify ] || return 0
      continue
    fi
    if [ -d "$pq_arg" ]; then pq_folders=$((pq_folders + 1)); continue; fi
    [ -f "$pq_arg" ] || return 0
    pq_files=$((pq_files + 1))
    [ -z "$pq_jit" ] || continue   # the size matters only without the directives (stat is a process)
    pq_size=$(stat -c %s -- "$pq_arg" 2>/dev/null) || return 0
    pq_total=$((pq_total + pq_size))
  done
  [ "$pq_files" -gt 0 ] || return 0
  if [ "$pq_folders" -gt 0 ] && ! { [ "$pq_cmd" = verify ] && [ -n "$pq_media" ] && [ "$pq_folders" -eq 1 ]; }; then
    return 0
  fi
  if [ -n "$pq_jit" ]; then
    PROOFMODE_QUICK_OPTS="-XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:CompilerDirectivesFile=$pq_jit -XX:-DisplayVMOutput"
  elif [ "$pq_total" -le 8388608 ]; then
    PROOFMODE_QUICK_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
  fi
  return 0
}

# proofmode_private_tmp
#   In a home whose proof store is encrypted (PROOFMODE_HOME/keys/store-recipient.txt), the temporary files of
#   the JVM and of the tools it runs (a video's copy for its key frames, FFmpeg's frame and sample files, a
#   decrypted bundle) go to PROOFMODE_HOME/tmp, owner-only, inside the home and so inside its encryption,
#   not to /tmp: sets PROOFMODE_TMP_OPTS to -Djava.io.tmpdir=THAT (with -XX:-UsePerfData: no
#   /tmp/hsperfdata_USER/PID file showing the command line) and exports TMPDIR. Empty when the store is plain,
#   when JAVA_OPTS names java.io.tmpdir itself, or when the home's path holds a space (the options are split
#   on spaces, as JAVA_OPTS is).
proofmode_private_tmp() {
  PROOFMODE_TMP_OPTS=""
  pt_home="${PROOFMODE_HOME:-${HOME:-}/.proofmode}"
  case "$pt_home" in /*) ;; *) pt_home="$PWD/$pt_home" ;; esac
  [ -f "$pt_home/keys/store-recipient.txt" ] || return 0
  case " ${JAVA_OPTS:-} " in *java.io.tmpdir*) return 0 ;; esac
  case "$pt_home" in *[[:space:]]*) return 0 ;; esac
  (umask 077 && mkdir -p "$pt_home/tmp") 2>/dev/null || return 0
  # Only a folder of this user's, and readable by no one else.
  [ -d "$pt_home/tmp" ] && [ ! -L "$pt_home/tmp" ] && [ -O "$pt_home/tmp" ] || return 0
  chmod 700 "$pt_home/tmp" 2>/dev/null || return 0
  PROOFMODE_TMP_OPTS="-Djava.io.tmpdir=$pt_home/tmp -XX:-UsePerfData"
  TMPDIR="$pt_home/tmp"
  export TMPDIR
  return 0
}

# proofmode_cds JAVA JAR PREFIX ARG...
#   Class-data sharing for a command that runs in a JVM of its own (docs/internals.md, "The launcher"): one
#   archive per subcommand, PREFIX-<command>.jsa (every --help has one of its own, PREFIX-help.jsa, which
#   holds every command's help; a JVM that hands a command to the agent, PREFIX-client.jsa), which runs
#   map instead of loading and checking those classes again. It is a static archive (the JDK's own classes
#   and ours in one file, mapped once; picocli's classes, compiled for Java 5, fit only there):
#     1. the first run after JAR changed lists the classes it loads, in a file named with the launcher's
#        process id, which exec keeps ("<archive>.<pid>.classlist");
#     2. a later run, once that process has ended, turns the list into the archive in the background (a
#        `java -Xshare:dump` of about 2 s, at low priority) and runs without one meanwhile; the archive is
#        written under a temporary name and renamed when whole, so no run ever maps half of one;
#     3. the runs after that map it.
#   Sets PROOFMODE_CDS_OPTS to the options for this run: mapping the archive, or listing the classes, or
#   none. A dump that fails is not tried again until JAR changes. None with PROOFMODE_CDS=0, for `serve` and
#   `agent` (they run until stopped: their start matters little), when JAVA_OPTS hooks class loading
#   (flight recordings, agents: this JVM does not combine them well with archived classes), and when PREFIX
#   holds a space (the options are split on spaces, as JAVA_OPTS is).
proofmode_cds() {
  PROOFMODE_CDS_OPTS=""
  pc_java=$1 pc_jar=$2 pc_prefix=$3
  shift 3
  [ "${PROOFMODE_CDS:-1}" != 0 ] || return 0
  case "$pc_prefix" in *[[:space:]]*) return 0 ;; esac
  case " ${JAVA_OPTS:-} " in *StartFlightRecording*|*" -javaagent"*|*" -agentlib"*|*" -agentpath"*) return 0 ;; esac
  pc_cmd=default
  for pc_arg in "$@"; do
    case "$pc_arg" in
      -*) ;;
      ""|*[!a-z]*) break ;;
      *) pc_cmd=$pc_arg; break ;;
    esac
  done
  # Help, of any command, has one archive of its own: a command's archive holds what running it loads, and
  # help loads picocli's help instead.
  for pc_arg in "$@"; do
    case "$pc_arg" in
      --help|-h) pc_cmd=help; break ;;
      --) break ;;
    esac
  done
  [ -z "${PROOFMODE_CLIENT_OPTS:-}" ] || pc_cmd=client
  case "$pc_cmd" in serve|agent) return 0 ;; esac
  pc_jsa="$pc_prefix-$pc_cmd.jsa"
  if [ -f "$pc_jsa" ] && [ "$pc_jsa" -nt "$pc_jar" ]; then
    PROOFMODE_CDS_OPTS="-XX:SharedArchiveFile=$pc_jsa -Xlog:disable -Xlog:all=error:stderr"
    return 0
  fi
  pc_busy="" pc_list=""
  for pc_f in "$pc_jsa".*.dumping "$pc_jsa".*.classlist; do
    [ -e "$pc_f" ] || continue
    case "$pc_f" in
      *.dumping) if proofmode_cds_writer "$pc_jsa" "$pc_f" dumping; then pc_busy=1; else rm -f "$pc_f" "${pc_f%.dumping}.tmp"; fi ;;
      *) if proofmode_cds_writer "$pc_jsa" "$pc_f" classlist; then pc_busy=1
         elif [ -z "$pc_list" ] && [ -s "$pc_f" ] && [ "$pc_f" -nt "$pc_jar" ]; then pc_list=$pc_f
         else rm -f "$pc_f"; fi ;;
    esac
  done
  if [ -n "$pc_busy" ] || [ "$pc_jsa.failed" -nt "$pc_jar" ]; then
    :   # a list or a dump under way, or a dump that failed for this JAR: run without an archive
  elif [ -n "$pc_list" ]; then
    (
      self=$(exec sh -c 'echo "$PPID"')   # this subshell's process id
      mine="$pc_jsa.$self.dumping"
      mv "$pc_list" "$mine" 2>/dev/null || exit 0   # another launcher took it
      if nice -n 10 "$pc_java" -Xshare:dump -XX:SharedClassListFile="$mine" -XX:SharedArchiveFile="$pc_jsa.$self.tmp" \
          -Xlog:disable -cp "$pc_jar" && [ -s "$pc_jsa.$self.tmp" ]; then
        mv -f "$pc_jsa.$self.tmp" "$pc_jsa"
      else
        rm -f "$pc_jsa.$self.tmp"
        : > "$pc_jsa.failed"
      fi
      rm -f "$mine"
    ) </dev/null >/dev/null 2>&1 &
  else
    PROOFMODE_CDS_OPTS="-XX:DumpLoadedClassList=$pc_jsa.$$.classlist"
    # Help's list holds every command's help, whichever one this run prints (cli.HelpClasses, after it).
    [ "$pc_cmd" != help ] || PROOFMODE_CDS_OPTS="$PROOFMODE_CDS_OPTS -Dproofmode.cds.list=help"
  fi
  return 0
}

# proofmode_cds_writer ARCHIVE FILE KIND: whether FILE ("ARCHIVE.<pid>.KIND") is a running process's.
proofmode_cds_writer() {
  pw_pid=${2#"$1".}
  pw_pid=${pw_pid%."$3"}
  case "$pw_pid" in ""|*[!0-9]*) return 1 ;; esac
  [ -d "/proc/$pw_pid" ]
}
