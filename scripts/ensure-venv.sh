#!/usr/bin/env bash
# The project's Python venv (.venv) with the real CalDAV clients the tests drive: vdirsyncer and
# todoman (the terminal's CalDAV pair), python-caldav and its server checker, and http-ece and
# py-vapid for the tests' Web Push receiver. Made once per set of
# pins in the user's cache ($TODO_VENV_CACHE, default ~/.cache/offline-todo) and linked as .venv,
# so a fresh clone (CI's) reuses it; remade when the pins change. `ensure-venv.sh bench` adds the
# CalDAV servers `make bench` compares todo-server with (Radicale, Xandikos).
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES="vdirsyncer==0.21.0 todoman==4.7.0 caldav==3.6.0 caldav-server-tester==1.7.0 http-ece==1.2.1 py-vapid==1.9.6"
BENCH_PACKAGES="radicale==3.9.0 xandikos==0.4.10"
CACHE="${TODO_VENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/offline-todo}"
VENV="$CACHE/venv-$(printf '%s\n%s\n' "$PACKAGES" "$(python3 --version)" | sha256sum | cut -c1-16)"
STAMP="$VENV/.packages"
if ! [ -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$PACKAGES" ]; then
    scripts/ensure-packages.sh python3-venv python3-pip
    rm -rf "$VENV"
    mkdir -p "$CACHE"
    python3 -m venv "$VENV"
    # shellcheck disable=SC2086
    "$VENV/bin/pip" install --quiet --disable-pip-version-check $PACKAGES
    echo "$PACKAGES" > "$STAMP"
fi
# .venv is the link every script and test names; a venv of an older layout (a folder) gives way.
if [ "$(readlink .venv 2>/dev/null)" != "$VENV" ]; then
    rm -rf .venv
    ln -s "$VENV" .venv
fi
if [ "${1:-}" = bench ] && [ "$(cat "$VENV/.bench-packages" 2>/dev/null)" != "$BENCH_PACKAGES" ]; then
    # shellcheck disable=SC2086
    "$VENV/bin/pip" install --quiet --disable-pip-version-check $BENCH_PACKAGES
    echo "$BENCH_PACKAGES" > "$VENV/.bench-packages"
fi
