#!/usr/bin/env bash
# make bench: server benchmarks with a throwaway PostgreSQL beside the SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/with-postgres.sh python3 scripts/bench_server.py
