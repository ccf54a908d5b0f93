#!/usr/bin/env bash
# The project's Python venv (.venv) with the real CalDAV clients the tests drive: vdirsyncer and
# todoman (the terminal's CalDAV pair), python-caldav and its server checker. Made once; remade
# when this list changes. `ensure-venv.sh bench` adds the CalDAV servers `make bench` compares
# todo-server with (Radicale, Xandikos).
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES="vdirsyncer==0.21.0 todoman==4.7.0 caldav==3.6.0 caldav-server-tester==1.7.0"
BENCH_PACKAGES="radicale==3.9.0 xandikos==0.4.10"
STAMP=.venv/.packages
if ! [ -x .venv/bin/python ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$PACKAGES" ]; then
    scripts/ensure-packages.sh python3-venv python3-pip
    rm -rf .venv
    python3 -m venv .venv
    # shellcheck disable=SC2086
    .venv/bin/pip install --quiet --disable-pip-version-check $PACKAGES
    echo "$PACKAGES" > "$STAMP"
fi
if [ "${1:-}" = bench ] && [ "$(cat .venv/.bench-packages 2>/dev/null)" != "$BENCH_PACKAGES" ]; then
    # shellcheck disable=SC2086
    .venv/bin/pip install --quiet --disable-pip-version-check $BENCH_PACKAGES
    echo "$BENCH_PACKAGES" > .venv/.bench-packages
fi
