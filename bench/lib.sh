# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the bench/*.sh scripts. Source it, don't run it.
# shellcheck shell=bash

export LC_ALL=C   # '.' as decimal separator in $EPOCHREALTIME, awk and printf

# The launcher starts an agent on first use when the key's passphrase is in the environment (as here):
# benchmarks time fresh processes unless they ask for the agent (AGENT=1, or prove-one.sh's session).
if [[ ${AGENT:-0} != 1 ]]; then export PROOFMODE_AGENT=${PROOFMODE_AGENT:-off}; fi

# ---- messages ---------------------------------------------------------------

log() { printf '[%s] %s\n' "${BENCH_NAME:-bench}" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "${BENCH_NAME:-bench}" "$*" >&2; exit 1; }

# The command line as it could be pasted into a shell.
quote_cmd() { local out; printf -v out '%q ' "$@"; printf '%s' "${out% }"; }

# ---- repository, tools ------------------------------------------------------

# cd to the repository root (the parent of bench/); sets ROOT.
cd_repo_root() {
    ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    cd "$ROOT" || exit 1
}

require_cmd() { # CMD [DEBIAN_PACKAGE]
    command -v "$1" >/dev/null 2>&1 \
        || die "'$1' not found; install it (Debian: apt-get install ${2:-$1})"
}

require_gnu_time() {
    if ! { [[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1; }; then
        die "/usr/bin/time (GNU time, with -v) not found; install it (Debian: apt-get install time)"
    fi
}

# The CLI jar: build it once if it is missing (the launcher would too, but then
# the build would land inside a timed run).
ensure_cli_built() {
    [[ -x ./proofmode ]] || die "launcher ./proofmode not found (or not executable) in $ROOT"
    if [[ ! -f proofmode-cli/target/proofmode.jar ]]; then
        log "proofmode-cli/target/proofmode.jar missing: building it (./mvnw -B -q -DskipTests package)"
        ./mvnw -B -q -DskipTests package || die "build failed"
        [[ -f proofmode-cli/target/proofmode.jar ]] || die "build did not produce proofmode-cli/target/proofmode.jar"
    fi
}

# After a subcommand's first (untimed) run through the launcher, which listed the classes it loads, has
# the launcher turn that list into the subcommand's class-data archive (proofmode_cds in
# proofmode-cli/src/main/launcher/agent.sh: a later run starts the dump, in the background) and waits for it, so that timed runs map
# the archive as a user's runs after the first two do. Does nothing with PROOFMODE_CDS=0.
settle_archive() { # SUBCOMMAND
    local jsa=proofmode-cli/target/proofmode-$1.jsa jar=proofmode-cli/target/proofmode.jar i
    [[ ${PROOFMODE_CDS:-1} != 0 ]] || return 0
    if [[ ! ( -f $jsa && $jsa -nt $jar ) ]] && compgen -G "$jsa.*.classlist" >/dev/null; then
        # A run of the command that ends at once: an option it does not know (its --help maps help's archive).
        case $1 in
            help) PROOFMODE_AGENT=off ./proofmode --help ;;
            default) PROOFMODE_AGENT=off ./proofmode --version ;;
            *) PROOFMODE_AGENT=off ./proofmode "$1" --settle-archive ;;
        esac >/dev/null 2>&1 || true
    fi
    for (( i = 0; i < 600; i++ )); do
        compgen -G "$jsa.*.dumping" >/dev/null || break
        sleep 0.2
    done
    [[ -f $jsa && $jsa -nt $jar ]] || log "note: no class-data archive for '$1': its timed runs load every class"
}

# ---- temporary work dir -----------------------------------------------------

# Creates WORK under $BENCH_DIR (default /tmp); removed on exit unless KEEP=1.
# Callers may append cleanup commands to CLEANUP_HOOKS (run before the rm).
CLEANUP_HOOKS=()
make_workdir() {
    local parent=${BENCH_DIR:-${TMPDIR:-/tmp}}
    mkdir -p "$parent"
    WORK=$(mktemp -d "$parent/${BENCH_NAME:-bench}.XXXXXX")
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    log "work dir: $WORK"
}

cleanup() {
    local hook
    for hook in "${CLEANUP_HOOKS[@]}"; do eval "$hook" >/dev/null 2>&1 || true; done
    if [[ -n ${WORK:-} && -d $WORK ]]; then
        if [[ ${KEEP:-0} == 1 ]]; then
            log "KEEP=1: leaving $WORK"
        else
            rm -rf -- "$WORK"
        fi
    fi
}

# Moves earlier runs' files out of the way instead of deleting them: deleting thousands of files just
# before a run slows the file system's inode allocation for the next tens of seconds (ext4 skips
# recently freed inodes), a cost of the benchmark's clean-up that no real run pays. The work dir, with
# everything set aside, is deleted at exit.
set_aside() { # PATH...
    local p
    mkdir -p "$WORK/old"
    for p in "$@"; do
        [[ -e $p ]] && mv -- "$p" "$(mktemp -d "$WORK/old/XXXXXX")/"
    done
    return 0
}

# ---- the agent (AGENT=1) ------------------------------------------------------

# With AGENT=1 the commands timed as "ours" are handed to a `proofmode agent` started before timing, the
# way the reference's gpg hands its signing to a running gpg-agent: the key stays unlocked and the
# prover's code stays compiled between runs. The agent runs with the given JAVA_OPTS.
start_agent() { # HOME [JAVA_OPTS]
    local home=$1 opts=${2:-} i
    log "starting proofmode agent for $home (untimed)"
    PROOFMODE_CDS=0 JAVA_OPTS=$opts PROOFMODE_HOME=$home ./proofmode agent --idle 30m >"$WORK/agent.log" 2>&1 &
    AGENT_PID=$!
    CLEANUP_HOOKS+=("PROOFMODE_HOME=$(printf %q "$home") ./proofmode agent --stop; kill $AGENT_PID")
    for i in $(seq 1 1200); do
        [[ -S $home/agent/agent.sock ]] && return 0
        kill -0 "$AGENT_PID" 2>/dev/null || break
        sleep 0.1
    done
    die "the agent did not start: $(cat "$WORK/agent.log")"
}

# Peak resident memory of the agent so far, in MiB.
agent_rss_mib() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$AGENT_PID/status"; }

# ---- sizes, test media ------------------------------------------------------

# "3M" -> 3000000, "1Gi" -> 1073741824, "12345" -> 12345
parse_size() {
    local n
    n=$(numfmt --from=auto -- "$1" 2>/dev/null) || die "bad size '$1' (examples: 3000000, 3M, 1Gi)"
    (( n >= 16 )) || die "size '$1' too small (need >= 16 bytes)"
    printf '%s' "$n"
}

# A file that content sniffing takes for a JPEG: JPEG/JFIF magic, then random bytes.
make_media_file() { # PATH BYTES
    { printf '\xFF\xD8\xFF\xE0'; head -c "$(( $2 - 4 ))" /dev/urandom; } >"$1"
}

# ---- real media, made once and cached -----------------------------------------
# Camera-like photos and a real video, made with ffmpeg and exiftool on first use and kept under
# bench/target/media (ignored by git; MEDIA_CACHE changes it), so that later runs reuse them.

media_cache() { printf '%s' "${MEDIA_CACHE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/target/media}"; }

# photo_set COUNT WxH -> prints a folder of COUNT unique JPEG photos of WxH pixels, named IMG_00001.jpg...
#   Each frame is a different view into the Mandelbrot set (ffmpeg's mandelbrot source zooms from frame
#   to frame) rendered at a quarter of the size, scaled up bicubically and overlaid with per-frame
#   sensor-like noise (so no two files share pixels), 4:2:0 YCbCr at ffmpeg's -q:v 2 (about libjpeg
#   quality 90-95: 2.5-3 MB for 8 MP, as a phone writes), then tagged by exiftool like a phone's photo:
#   make, model, capture time, exposure, GPS position. W and H must be multiples of 4.
photo_set() { # COUNT WxH
    local count=$1 size=$2 w h dir
    w=${size%x*} h=${size#*x}
    dir="$(media_cache)/photos-$size-$count"
    if [[ ! -f $dir/.complete ]]; then
        require_cmd ffmpeg
        require_cmd exiftool libimage-exiftool-perl
        log "making $count camera-like $size photos in $dir (once; cached)"
        rm -rf -- "$dir"
        mkdir -p "$dir"
        ffmpeg -v error -nostdin -f lavfi -i "mandelbrot=s=$(( w / 4 ))x$(( h / 4 )):rate=5" \
            -vf "scale=$w:$h:flags=bicubic,noise=alls=20:allf=t+u,format=yuvj420p" \
            -frames:v "$count" -q:v 2 "$dir/IMG_%05d.jpg" || die "ffmpeg could not make the photos"
        exiftool -q -overwrite_original -Make=Fairphone -Model=FP4 -Software=bench \
            "-DateTimeOriginal=2026:12:03 10:00:00" "-CreateDate=2026:12:03 10:00:00" -OffsetTimeOriginal=+01:00 \
            -ExposureTime=1/120 -FNumber=1.9 -ISO=100 -FocalLength=4.7 -Orientation#=1 \
            -GPSLatitude=52.520008 -GPSLatitudeRef=N -GPSLongitude=13.404954 -GPSLongitudeRef=E -GPSAltitude=34 \
            "$dir" || die "exiftool could not tag the photos"
        [[ $(find "$dir" -name 'IMG_*.jpg' | wc -l) -eq $count ]] || die "expected $count photos in $dir"
        touch "$dir/.complete"
    fi
    printf '%s' "$dir"
}

# sample_copies COUNT -> prints a folder of COUNT copies of the ProofMode app's own 8 MP sample photo
#   (IMG_20161214_163821.jpg, a Nexus 5's 3264x2448 JPEG with its EXIF, from $PROOFMODE_SAMPLES/proofmode/
#   proofmode-android-sample-proof-1), named IMG_00001.jpg...: each copy with a unique tail after its
#   end-of-image marker, so every file has its own SHA-256 (a decoder stops at the marker: same pixels).
sample_copies() { # COUNT
    local count=$1 dir src
    src=${PROOFMODE_SAMPLES:-/work/shared/samples}/proofmode/proofmode-android-sample-proof-1/IMG_20161214_163821.jpg
    [[ -f $src ]] || die "the app's sample photo is not at $src (set PROOFMODE_SAMPLES)"
    dir="$(media_cache)/sample-copies-$count"
    if [[ ! -f $dir/.complete ]]; then
        log "making $count copies of $src in $dir (once; cached)"
        rm -rf -- "$dir"
        mkdir -p "$dir"
        python3 - "$src" "$dir" "$count" <<'EOF2' || die "could not copy the sample photo"
import sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, "rb").read()
for i in range(1, n + 1):
    with open("%s/IMG_%05d.jpg" % (out, i), "wb") as f:
        f.write(data + b"copy %d" % i)
EOF2
        touch "$dir/.complete"
    fi
    printf '%s' "$dir"
}

# video_file SIZE -> prints the path of an H.264/AAC MP4 of about SIZE bytes (ffmpeg stops just past SIZE).
#   ffmpeg's testsrc2 pattern at 1920x1080, 30 frames/s, with per-frame noise (as a dim scene filmed by a
#   phone: it keeps the bitrate high), encoded by libx264 (preset ultrafast, CRF 12) with a 440 Hz AAC
#   tone; ffmpeg stops once the file passes SIZE bytes (-fs) and closes it properly: a whole, playable MP4.
video_file() { # SIZE
    local size=$1 f
    f="$(media_cache)/video-$size.mp4"
    if [[ ! -f $f ]]; then
        require_cmd ffmpeg
        log "encoding a real video of up to $size bytes: $f (once; cached)"
        mkdir -p "$(dirname "$f")"
        ffmpeg -v error -nostdin -f lavfi -i "testsrc2=s=1920x1080:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
            -vf "noise=alls=25:allf=t+u" -c:v libx264 -preset ultrafast -crf 12 -pix_fmt yuv420p \
            -c:a aac -b:a 128k -fs "$size" -t 3600 "$f.tmp.mp4" || die "ffmpeg could not encode the video"
        mv -- "$f.tmp.mp4" "$f"
    fi
    printf '%s' "$f"
}

# Read files once so every timed run sees a warm page cache.
# Flushes what the benchmark just wrote (its media) to disk first: otherwise the kernel writes it back
# during the timed runs, and every flush a proof makes waits behind gigabytes of unrelated write-back.
warm_cache() { sync; cat -- "$@" >/dev/null; }

# ---- timing -----------------------------------------------------------------

# seconds between two $EPOCHREALTIME values
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }   # calc EXPR [DECIMALS]

min_of() { # A B -> the smaller one (either may be empty)
    if [[ -z $1 ]]; then printf '%s' "$2"; elif [[ -z $2 ]]; then printf '%s' "$1"
    else awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; fi
}

max_of() { # A B -> the larger one (either may be empty)
    if [[ -z $1 ]]; then printf '%s' "$2"; elif [[ -z $2 ]]; then printf '%s' "$1"
    else awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; fi
}

# measure STDOUT_FILE CMD...
#   Runs CMD once, its stdout to STDOUT_FILE, its stderr to ours; fails loudly
#   if CMD fails. Sets M_SECONDS (wall time) and, when MEASURE_RSS=1, M_RSS_KIB
#   (peak resident set size of the largest process in the tree, GNU time -v).
measure() {
    local out=$1; shift
    local tv=$WORK/.time-v t0 t1 rc=0
    M_RSS_KIB=
    t0=$EPOCHREALTIME
    if [[ ${MEASURE_RSS:-0} == 1 ]]; then
        /usr/bin/time -v -o "$tv" "$@" >"$out" || rc=$?
    else
        "$@" >"$out" || rc=$?
    fi
    t1=$EPOCHREALTIME
    (( rc == 0 )) || die "command failed (exit $rc): $(quote_cmd "$@")"
    M_SECONDS=$(elapsed "$t0" "$t1")
    if [[ ${MEASURE_RSS:-0} == 1 ]]; then
        M_RSS_KIB=$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$tv")
        [[ -n $M_RSS_KIB ]] || die "no 'Maximum resident set size' in GNU time output"
    fi
}

# best_of RUNS PREPARE_FN STDOUT_FILE CMD...
#   Runs PREPARE_FN (untimed; may be 'true') then CMD, RUNS times. Sets
#   BEST_SECONDS (fastest run) and PEAK_RSS_KIB (largest over all runs, if
#   MEASURE_RSS=1). STDOUT_FILE holds the stdout of the last run.
best_of() {
    local runs=$1 prepare=$2 out=$3 i; shift 3
    BEST_SECONDS='' PEAK_RSS_KIB=''
    for (( i = 1; i <= runs; i++ )); do
        "$prepare"
        measure "$out" "$@"
        log "  run $i/$runs: ${M_SECONDS}s${M_RSS_KIB:+, peak RSS $(( M_RSS_KIB / 1024 )) MiB}"
        BEST_SECONDS=$(min_of "$BEST_SECONDS" "$M_SECONDS")
        PEAK_RSS_KIB=$(max_of "$PEAK_RSS_KIB" "$M_RSS_KIB")
    done
}

# Lines "<sha256>  <path>" from a proofmode stdout file (ignores anything else).
hash_lines() { grep -E '^[0-9a-f]{64}[[:space:]]' "$1" || true; }

# median VALUE... -> the middle value (the mean of the two middle ones for an even count)
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# verdict VALUE OP TARGET -> "yes"/"no"  (OP is <= or >=)
verdict() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? v <= t : v >= t; print (ok ? "yes" : "no") }'; }

positive_int() { # NAME VALUE
    [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive integer (got '$2')"
}

# ---- a throw-away PostgreSQL ------------------------------------------------

# start_postgres -> sets PGPORT and PG_AS: a new cluster in a folder of its own (stopped and removed on exit)
start_postgres() {
    local bin=/usr/lib/postgresql/15/bin dir
    [[ -x $bin/initdb ]] || die "PostgreSQL 15 is not installed (apt-get install postgresql)"
    PGPORT=$(( 20000 + RANDOM % 20000 ))
    dir=$(mktemp -d "${TMPDIR:-/tmp}/log-intake-pg.XXXXXX")
    chmod 755 "$dir"
    PG_AS=()
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres:postgres "$dir"
        PG_AS=(runuser -u postgres --)
    fi
    "${PG_AS[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust >/dev/null
    "${PG_AS[@]}" "$bin/pg_ctl" -D "$dir/data" -o "-p $PGPORT -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null \
        || die "PostgreSQL did not start: $(cat "$dir/log")"
    CLEANUP_HOOKS+=("${PG_AS[*]} $bin/pg_ctl -D $dir/data -m fast stop >/dev/null; rm -rf $dir")
}

# start_server JAR HOME NAME [SERVE_ARGS...] -> sets SERVER_PID and SERVER_PORT: `proofmode serve --port 0`
#   (no rate limit) in the background, its output in $WORK/serve-NAME.out and .err; dies if it does not start.
start_server() {
    local jar=$1 home=$2 name=$3 i
    shift 3
    # shellcheck disable=SC2086 # SERVER_JAVA_OPTS: JVM options of the server alone (a profiler agent), split on spaces
    # SERVER_CPUS: the processors the server may run on (taskset's list), empty for all
    PROOFMODE_HOME=$home ${SERVER_CPUS:+taskset -c "$SERVER_CPUS"} java ${SERVER_JAVA_OPTS:-} -jar "$jar" serve --port 0 --rate 1000000 "$@" > "$WORK/serve-$name.out" 2> "$WORK/serve-$name.err" &
    SERVER_PID=$!
    SERVER_PORT=""
    for i in $(seq 1 150); do
        SERVER_PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$WORK/serve-$name.out" 2>/dev/null)
        [[ -n $SERVER_PORT ]] && return 0
        sleep 0.2
    done
    kill "$SERVER_PID"
    die "server did not start: $(cat "$WORK/serve-$name.err")"
}

# share_bundles HASHES PROOFS OUT -> one share zip per proved file in OUT, named <sha256>.zip: the media and
#   its proof folder's files. HASHES is `prove --out PROOFS`'s output (<sha256>  <path> per line).
share_bundles() {
    python3 - "$1" "$2" "$3" <<'PY'
import os, sys, zipfile
hashes, proofs, out = sys.argv[1:4]
for line in open(hashes):
    h, media = line.split(None, 1)
    media = media.strip()
    with zipfile.ZipFile(os.path.join(out, h + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.write(media, os.path.basename(media))
        folder = os.path.join(proofs, h)
        for f in sorted(os.listdir(folder)):
            z.write(os.path.join(folder, f), f)
PY
}
