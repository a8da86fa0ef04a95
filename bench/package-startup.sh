#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start-up of the packaged command (the linux-x64 archive: jlink runtime, this platform's native
# libraries only) against the reference, `java -jar proofmode-cli/target/proofmode.jar` on the system's
# JDK, measured in the same run: `--version`, RUNS interleaved runs each, medians and their ratio
# (packaged / reference; below 1 is faster). Also prints the package sizes.
# Needs target/packages/proofmode-*-linux-x64.tar.gz (packaging/build.sh).
#   RUNS=9 bench/package-startup.sh
set -euo pipefail
if [[ ${1:-} == --help ]]; then sed -n '3,9p' "$0" | cut -c3-; exit 0; fi
BENCH_NAME=package-startup
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd_repo_root
runs=${RUNS:-9}
tarball=$(ls target/packages/proofmode-*-linux-x64.tar.gz 2>/dev/null | head -n 1)
[[ -n $tarball ]] || die "no target/packages/proofmode-*-linux-x64.tar.gz: run packaging/build.sh"
jar=proofmode-cli/target/proofmode.jar
[[ -f $jar ]] || die "no $jar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$tarball"
packaged=$(ls -d "$tmp"/proofmode-*/bin/proofmode)

elapsed() { local s=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || die "failed: $(quote_cmd "$@")"; awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.3f\n", b - a}'; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

"$packaged" --version >/dev/null; java -jar "$jar" --version >/dev/null   # warm the page cache
: > "$tmp/p"; : > "$tmp/r"
for _ in $(seq "$runs"); do
    elapsed "$packaged" --version >> "$tmp/p"
    elapsed java -jar "$jar" --version >> "$tmp/r"
done
p=$(median < "$tmp/p"); r=$(median < "$tmp/r")
log "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'packaged --version: median %s s; reference java -jar: median %s s; ratio %s (%d runs each)\n' \
    "$p" "$r" "$(awk -v a="$p" -v b="$r" 'BEGIN {printf "%.2f", a / b}')" "$runs"
for f in target/packages/*; do printf '%s\t%s\n' "$(du -h "$f" | cut -f1)" "$f"; done
printf 'jar %s MB, unpacked archive %s MB\n' "$(du -m "$jar" | cut -f1)" "$(du -sm "$tmp"/proofmode-* | cut -f1)"
