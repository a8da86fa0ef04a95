#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the parsers of untrusted files (timestamps, bundles, records, keys, metadata, C2PA) with Jazzer, a few minutes per target.
set -euo pipefail

BENCH_NAME=fuzz
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
    cat <<'USAGE'
Usage: bench/fuzz.sh [--help] [TARGET...]

Runs each Jazzer fuzz target of proofmode-core in fuzzing mode (JAZZER_FUZZ=1) for MINUTES minutes:

  OtsFileFuzzTest#parse      the .ots parser (only OtsFormatException may escape; what parses must
                             write back to bytes that parse to the same)
  TsaTokenFuzzTest#parse     the RFC 3161 response/token parser (only TsaFormatException may escape)
  TsaTokenFuzzTest#verify    the token check, up to the signature and chain checks (never throws;
                             valid only for a time-stamp the seed authority signed)
  UntrustedInputFuzzTest#bundleZip      share bundles: a report, or bad data (exit 41)
  UntrustedInputFuzzTest#proofJson      proof JSON records: records, or bad data
  UntrustedInputFuzzTest#proofCsv       proof CSV records: records, or bad data
  UntrustedInputFuzzTest#armoredKey     OpenPGP keys: certificates, or bad data
  SignatureFuzzTest#armoredSignature    detached signatures checked against a key and media: an outcome
                                        (valid, invalid, malformed, unverifiable), never an exception
  UntrustedInputFuzzTest#imageMetadata  EXIF/XMP/IPTC reading and image hashing of hostile files:
                                        a result or a documented exception, never an error
  C2paFuzzTest#jumbf          JUMBF boxes (only C2paFormatException; what parses writes back the same)
  C2paFuzzTest#cbor           CBOR (only C2paFormatException; what parses writes back to the same tree)
  C2paFuzzTest#cose           COSE_Sign1 (only C2paFormatException; garbage never verifies)
  C2paFuzzTest#manifestStore  C2PA manifest stores and JUMBF URI resolution (only C2paFormatException)
  C2paFuzzTest#asset          whole JPEG/PNG/MP4 files through the C2PA reader: statuses, never an exception
  JpegSegmentsFuzzTest#walk   the JPEG segment walk: a walk's end, never an exception or a read outside the file

One target is fuzzed per Maven run; each run lasts the target's maxDuration (2 minutes), and runs
repeat until MINUTES have passed, each resuming from the corpus the previous one grew
(proofmode-core/.cifuzz-corpus/, not committed). A finding fails the run and Jazzer writes its
input next to the seeds, src/test/resources/org/proofmode/timestamp/.../<Class>Inputs/<method>/,
where the normal build (`./mvnw verify`, regression mode) replays it from then on: fix the bug, keep
the file. The same by hand, for one target:

  JAZZER_FUZZ=1 ./mvnw -B -pl proofmode-core test -Dtest='OtsFileFuzzTest#parse'

Environment:
  MINUTES=2   fuzzing time per target (rounded up to whole 2-minute runs)
  INSTRUMENT  classes instrumented for coverage (Jazzer's "instrument" globs; default: ours and
              Jackson's CBOR parser and Bouncy Castle's asn1, cms, tsp and cert packages)
Last stdout line per target (machine-readable):
  fuzz target=T runs=R execs=N corpus=C findings=F
USAGE
}

TARGETS=("OtsFileFuzzTest#parse" "TsaTokenFuzzTest#parse" "TsaTokenFuzzTest#verify"
    "UntrustedInputFuzzTest#bundleZip" "UntrustedInputFuzzTest#proofJson" "UntrustedInputFuzzTest#proofCsv"
    "UntrustedInputFuzzTest#armoredKey" "SignatureFuzzTest#armoredSignature" "UntrustedInputFuzzTest#imageMetadata"
    "C2paFuzzTest#jumbf" "C2paFuzzTest#cbor" "C2paFuzzTest#cose" "C2paFuzzTest#manifestStore" "C2paFuzzTest#asset"
    "JpegSegmentsFuzzTest#walk"
    "TlogFuzzTest#signedCheckpoint" "TlogFuzzTest#receipt" "TlogFuzzTest#verifierKey"
    "TlogFuzzTest#logEntry" "TlogFuzzTest#witnessRequest")
# Classes whose branches guide the fuzzer: ours, and Bouncy Castle's ASN.1, CMS and TSP parsers,
# where most of the RFC 3161 parsing happens.
INSTRUMENT=${INSTRUMENT:-"org.proofmode.**,com.fasterxml.jackson.dataformat.cbor.**,org.bouncycastle.asn1.**,org.bouncycastle.cms.**,org.bouncycastle.tsp.**,org.bouncycastle.cert.**"}

main() {
    [[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
    (( $# > 0 )) && TARGETS=("$@")
    local minutes=${MINUTES:-2}
    positive_int MINUTES "$minutes"
    cd_repo_root
    local runs=$(( (minutes + 1) / 2 )) target
    log "compiling proofmode-core and its tests once"
    ./mvnw -B -q test-compile -pl proofmode-core >&2 || die "build failed"
    for target in "${TARGETS[@]}"; do
        fuzz_target "$target" "$runs"
    done
}

fuzz_target() { # TARGET RUNS
    local target=$1 runs=$2 i out execs=0 corpus=0 findings=0 rc
    out=$(mktemp)
    for (( i = 1; i <= runs; i++ )); do
        log "$target: run $i/$runs"
        rc=0
        JAZZER_FUZZ=1 JAZZER_INSTRUMENT="$INSTRUMENT" ./mvnw -B -o -pl proofmode-core surefire:test -Dtest="$target" -Djazzer.hooks=true \
            -Dsurefire.failIfNoSpecifiedTests=false >"$out" 2>&1 || rc=$?
        # libFuzzer's last status line: "#123456  DONE   cov: ... corp: 87/2345b ..."
        local last
        last=$(grep -aE '^#[0-9]+' "$out" | tail -n 1 || true)
        log "  ${last:-no libFuzzer status line}"
        local n
        n=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last" | tail -n 1 || true)
        execs=$(( execs + ${n:-0} ))
        corpus=$(sed -nE 's/.*corp: ([0-9]+)\/.*/\1/p' <<<"$last" | tail -n 1)
        if (( rc != 0 )); then
            findings=$(( findings + 1 ))
            grep -aE 'FuzzTestFindingException|== Java Exception|Caused by' "$out" | head -n 5 >&2 || true
            log "  finding (or build failure): see the output above; the input is under src/test/resources"
            break
        fi
    done
    rm -f "$out"
    printf 'fuzz target=%s runs=%s execs=%s corpus=%s findings=%s\n' "$target" "$runs" "$execs" "${corpus:-?}" "$findings"
}

main "$@"
