#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Back up an evidence archive: the PostgreSQL database, then the bucket, then the log key.
#
#   backup.sh DEST
#
# Environment (never on the command line: they hold secrets):
#   PROOFMODE_PG          the database as a libpq URI, e.g. postgresql://pm@db.internal/evidence
#                         (the password from ~/.pgpass or PGPASSWORD)
#   PROOFMODE_PG_SCHEMA   optional: back up this schema only
#   PROOFMODE_BUCKET      where the bundles are: s3://BUCKET/PREFIX, as given to `serve --blobs`
#                         (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ... as for the server)
#   PROOFMODE_HOME        a server's home: its server/log-key/ is copied (every instance has the same one)
#
# Order matters: the database first, then the bucket. A server writes a bundle to the bucket before it
# commits the row naming it, so a bucket copied after the database dump holds every bundle the dump names
# (and perhaps a few newer ones, which no row names and which count for nothing).
#
# DEST is made owner-only and must not exist: it holds the log key (encrypted, with the passphrase file
# beside it when the server generated one) and every bundle. Keep it as safe as the servers.
# Exit codes: 0 done, 2 usage, 1 a step failed (DEST is then incomplete: it has no MANIFEST).
set -euo pipefail

die() { printf 'backup.sh: %s\n' "$1" >&2; exit "${2:-1}"; }
(( $# == 1 )) || die "usage: backup.sh DEST (see the comment at the top)" 2
dest=$1
[[ ! -e $dest ]] || die "$dest exists; give a new folder" 2
[[ -n ${PROOFMODE_PG:-} ]] || die "set PROOFMODE_PG to the database URI" 2
[[ -n ${PROOFMODE_BUCKET:-} ]] || die "set PROOFMODE_BUCKET to s3://BUCKET/PREFIX" 2
[[ -n ${PROOFMODE_HOME:-} ]] || die "set PROOFMODE_HOME to a server home" 2
[[ $PROOFMODE_BUCKET == s3://* ]] || die "PROOFMODE_BUCKET is s3://BUCKET/PREFIX, not $PROOFMODE_BUCKET" 2
[[ -f $PROOFMODE_HOME/server/log-key/key.pem ]] || die "$PROOFMODE_HOME/server/log-key/key.pem: no log key in that home" 2
for tool in pg_dump aws sha256sum; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done

umask 077
mkdir -p "$dest"
schema=()
[[ -n ${PROOFMODE_PG_SCHEMA:-} ]] && schema=(--schema="$PROOFMODE_PG_SCHEMA")
printf 'backup.sh: database\n' >&2
pg_dump --format=custom --no-owner "${schema[@]}" --file="$dest/database.dump" --dbname="$PROOFMODE_PG"
printf 'backup.sh: bundles from %s\n' "$PROOFMODE_BUCKET" >&2
aws s3 sync --only-show-errors "${PROOFMODE_BUCKET%/}/" "$dest/blobs/"
mkdir -p "$dest/blobs"
cp -R "$PROOFMODE_HOME/server/log-key" "$dest/log-key"
( cd "$dest" && find . -type f ! -name MANIFEST ! -name MANIFEST.part -print0 | sort -z | xargs -0 sha256sum > MANIFEST.part && mv MANIFEST.part MANIFEST )
printf 'backup.sh: done: %s (%s bundles)\n' "$dest" "$(find "$dest/blobs" -type f | wc -l)" >&2
