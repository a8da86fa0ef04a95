#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Restore an evidence archive that backup.sh made into an empty database, an empty bucket and a new home.
#
#   restore.sh SRC
#
# Environment: as for backup.sh (PROOFMODE_PG, PROOFMODE_BUCKET, PROOFMODE_HOME), naming the new database
# (empty; a backup of one schema makes that schema, which must not exist yet), the new bucket and a new
# server home.
#
# Order matters: the bundles first, then the database, so that no restored row names a bundle the bucket
# does not hold yet. Then copy the home's server/log-key/ to every other instance's home, and start them.
# Exit codes: 0 done, 2 usage, 1 a step failed, 3 the backup does not match its MANIFEST.
set -euo pipefail

die() { printf 'restore.sh: %s\n' "$1" >&2; exit "${2:-1}"; }
(( $# == 1 )) || die "usage: restore.sh SRC (see the comment at the top)" 2
src=$1
[[ -f $src/MANIFEST ]] || die "$src/MANIFEST: not a finished backup" 2
[[ -n ${PROOFMODE_PG:-} ]] || die "set PROOFMODE_PG to the new database URI" 2
[[ -n ${PROOFMODE_BUCKET:-} ]] || die "set PROOFMODE_BUCKET to s3://BUCKET/PREFIX" 2
[[ -n ${PROOFMODE_HOME:-} ]] || die "set PROOFMODE_HOME to the new server home" 2
[[ $PROOFMODE_BUCKET == s3://* ]] || die "PROOFMODE_BUCKET is s3://BUCKET/PREFIX, not $PROOFMODE_BUCKET" 2
[[ ! -e $PROOFMODE_HOME/server/log-key ]] || die "$PROOFMODE_HOME/server/log-key exists: give a new home" 2
for tool in pg_restore aws sha256sum; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done

printf 'restore.sh: checking %s against its MANIFEST\n' "$src" >&2
( cd "$src" && sha256sum --quiet --strict -c MANIFEST ) || die "$src does not match its MANIFEST" 3
printf 'restore.sh: bundles to %s\n' "$PROOFMODE_BUCKET" >&2
aws s3 sync --only-show-errors "$src/blobs/" "${PROOFMODE_BUCKET%/}/"
printf 'restore.sh: database\n' >&2
pg_restore --exit-on-error --no-owner --single-transaction --dbname="$PROOFMODE_PG" "$src/database.dump"
umask 077
mkdir -p "$PROOFMODE_HOME/server"
cp -R "$src/log-key" "$PROOFMODE_HOME/server/log-key"
printf 'restore.sh: done; copy %s/server/log-key/ to the other instances'"'"' homes, then start them\n' "$PROOFMODE_HOME" >&2
