#!/usr/bin/env bash
# `npm run test:full`: the whole suite on both databases, as before a release: embedded PGlite, then
# the PostgreSQL server at DATABASE_URL (default 127.0.0.1:5432, database test). About twice CI's time.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
env -u DATABASE_URL npm test || status=1
DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} npm test || status=1
exit $status
