#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `proofmode report` of the example photo's share bundle (PDF and HTML) vs. sha256sum + gpg --verify of it.
set -euo pipefail

BENCH_NAME=report
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'EOF2'
Usage: bench/report.sh [--help]

Proves examples/photo.jpg with a new device key and exports its share bundle
(`export --with-media`), untimed. Then times, in turns, RUNS times each:
  reference: sha256sum of the media and `gpg --verify` of the bundle's three
             signatures (media, proof.json, proof.csv), the signer's key
             imported into a fresh gpg home, from the unpacked bundle;
  pdf:       `java -jar proofmode-cli/target/proofmode.jar report -o R.pdf
             share.zip` in a fresh process (JVM start-up, verification, the
             key unlocked to sign the report, the PDF and its .asc);
  html:      the same with --format html.
The jar is run directly: the launcher would hand later commands to an agent.
Wall time and CPU time (user + system, GNU time) are both given: on a loaded
machine the CPU time says more.

Environment:
  RUNS=5          timed runs of each; the median counts
  JAR             the command line's jar (default proofmode-cli/target/proofmode.jar): to compare builds
  BENCH_DIR, KEEP as in the other scripts

Needs: gpg, sha256sum, unzip, GNU time, Java 17.
Last stdout line (machine-readable):
  report pdf_s=P pdf_cpu_s=C html_s=H html_cpu_s=D ref_s=R ratio_pdf=X runs=N
EOF2
}

main() {
    [[ ${1:-} == --help || ${1:-} == -h ]] && { usage; exit 0; }
    cd_repo_root
    require_cmd gpg; require_cmd sha256sum coreutils; require_cmd unzip; require_cmd java openjdk-17-jre-headless
    require_gnu_time
    local jar=${JAR:-}
    if [[ -z $jar ]]; then
        ensure_cli_built
        jar=$ROOT/proofmode-cli/target/proofmode.jar
    fi
    [[ -f $jar ]] || die "no jar at $jar"
    local runs=${RUNS:-5}
    positive_int RUNS "$runs"
    make_workdir
    export PROOFMODE_HOME=$WORK/home PROOFMODE_PASSPHRASE=bench
    cp examples/photo.jpg "$WORK/photo.jpg"
    java -jar "$jar" keys create >/dev/null 2>&1 || die "keys create failed"
    java -jar "$jar" prove "$WORK/photo.jpg" >/dev/null 2>&1 || die "prove failed"
    java -jar "$jar" export --with-media -o "$WORK/share.zip" "$WORK/photo.jpg" >/dev/null 2>&1 || die "export failed"
    mkdir -p "$WORK/unpacked" && (cd "$WORK/unpacked" && unzip -q ../share.zip)
    local h
    h=$(sha256sum "$WORK/photo.jpg" | cut -c1-64)
    export GNUPGHOME=$WORK/gnupg
    mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
    CLEANUP_HOOKS+=("gpgconf --homedir '$GNUPGHOME' --kill all")
    gpg --batch --quiet --import "$WORK/unpacked/pubkey.asc" 2>/dev/null

    local pdf=() pdf_cpu=() html=() html_cpu=() ref=() i
    for (( i = 1; i <= runs; i++ )); do
        measure "$WORK/ref.out" ref_one "$h"
        ref+=("$M_SECONDS")
        rm -f "$WORK"/r.pdf "$WORK"/r.pdf.asc "$WORK"/r.html "$WORK"/r.html.asc
        timed java -jar "$jar" report -o "$WORK/r.pdf" "$WORK/share.zip"
        pdf+=("$T_WALL"); pdf_cpu+=("$T_CPU")
        timed java -jar "$jar" report --format html -o "$WORK/r.html" "$WORK/share.zip"
        html+=("$T_WALL"); html_cpu+=("$T_CPU")
        log "  run $i/$runs: reference ${ref[-1]} s, pdf ${pdf[-1]} s (CPU ${pdf_cpu[-1]}), html ${html[-1]} s (CPU ${html_cpu[-1]})"
    done
    local p pc m mc r ratio pages
    p=$(median "${pdf[@]}"); m=$(median "${html[@]}"); r=$(median "${ref[@]}")
    pc=$(median "${pdf_cpu[@]}"); mc=$(median "${html_cpu[@]}")
    ratio=$(calc "$p / $r" 1)
    pages=$(pdfinfo "$WORK/r.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }' || true)
    echo
    echo "report: examples/photo.jpg's share bundle, $runs runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '  %-52s %10s\n' "proofmode report (PDF, ${pages:-?} pages), median (s)" "$p"
    printf '  %-52s %10s\n' "  its CPU time, user + system, median (s)" "$pc"
    printf '  %-52s %10s\n' "proofmode report --format html, median (s)" "$m"
    printf '  %-52s %10s\n' "  its CPU time, user + system, median (s)" "$mc"
    printf '  %-52s %10s\n' "sha256sum + 3 x gpg --verify, median (s)" "$r"
    printf '  %-52s %10s\n' "ratio PDF / reference" "$ratio"
    echo "  commands: java -jar proofmode-cli/target/proofmode.jar report [--format html] -o R share.zip"
    echo "            sha256sum H.jpg; gpg --batch --verify H.asc photo.jpg (and the .proof.json, .proof.csv signatures)"
    echo
    echo "report pdf_s=$p pdf_cpu_s=$pc html_s=$m html_cpu_s=$mc ref_s=$r ratio_pdf=$ratio runs=$runs"
}

# timed CMD... -> T_WALL and T_CPU (user + system) in seconds, from GNU time; fails loudly if CMD fails.
timed() {
    local tf=$WORK/.time rc=0 u s
    /usr/bin/time -f '%e %U %S' -o "$tf" "$@" >/dev/null || rc=$?
    (( rc == 0 )) || die "command failed (exit $rc): $(quote_cmd "$@")"
    read -r T_WALL u s <"$tf"
    T_CPU=$(calc "$u + $s" 2)
}


ref_one() { # HASH
    local d=$WORK/unpacked
    sha256sum "$d/photo.jpg"
    gpg --batch --quiet --verify "$d/$1.asc" "$d/photo.jpg" 2>&1
    gpg --batch --quiet --verify "$d/$1.proof.json.asc" "$d/$1.proof.json" 2>&1
    gpg --batch --quiet --verify "$d/$1.proof.csv.asc" "$d/$1.proof.csv" 2>&1
}

main "$@"
