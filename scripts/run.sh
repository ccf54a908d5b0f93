#!/usr/bin/env bash
# make run: start (or reuse) the bundled todo-server on embedded SQLite on a free loopback port,
# open the full-screen client against it, and stop the server this run started when the client exits.
# DEVICE=name picks a separate local store, so a second `make run DEVICE=phone` is a second device.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product todo-server
swift build --product todo
bin=$(swift build --show-bin-path)
data="${XDG_DATA_HOME:-$HOME/.local/share}/offline-todo"
mkdir -p "$data"
state="$data/server.port"

alive() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

started=""
port=""
if [ -f "$state" ] && alive "$(cat "$state")"; then
  port=$(cat "$state")
  echo "Using the todo-server already running on 127.0.0.1:$port"
else
  log="$data/server.log"
  "$bin/todo-server" --port 0 --database "$data/server.sqlite" >"$data/server.out" 2>"$log" &
  started=$!
  for _ in $(seq 1 100); do
    port=$(grep -o '127\.0\.0\.1:[0-9]*' "$data/server.out" 2>/dev/null | head -n 1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 "$started" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "todo-server did not start; see $log" >&2; exit 1; }
  echo "$port" >"$state"
  echo "Started todo-server on 127.0.0.1:$port (log: $log)"
fi

cleanup() {
  if [ -n "$started" ]; then
    kill "$started" 2>/dev/null || true
    wait "$started" 2>/dev/null || true
    rm -f "$state"
  fi
}
trap cleanup EXIT INT TERM
"$bin/todo" --server "http://127.0.0.1:$port" --device "${DEVICE:-default}"
