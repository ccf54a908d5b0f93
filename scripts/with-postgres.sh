#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on a free loopback port, and a hot standby of
# it (pg_basebackup, streaming replication) on another, replaying each commit
# TODO_TEST_STANDBY_DELAY after it (recovery_min_apply_delay; default 500ms, so tests can tell
# a lagging standby from a current one). Exports TODO_TEST_POSTGRES_URL and
# TODO_TEST_POSTGRES_STANDBY_URL for the command; removes both clusters afterwards.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "with-postgres: PostgreSQL server binaries not found (install the 'postgresql' package)" >&2; exit 1; }
dir=$(mktemp -d /tmp/todo-pg.XXXXXX)
chmod 755 "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
cleanup() {
  as_pg "$bin/pg_ctl" -D "$dir/standby" -m immediate stop >/dev/null 2>&1 || true
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-locale -E UTF8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c "CREATE DATABASE todo_test" >/dev/null
export TODO_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/todo_test"
standby_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
as_pg "$bin/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$dir/standby" -R -X stream -c fast >"$dir/basebackup.log" 2>&1 \
  || { cat "$dir/basebackup.log" >&2; exit 1; }
as_pg "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $standby_port -k $dir -c fsync=off -c hot_standby=on -c max_connections=200 -c recovery_min_apply_delay=${TODO_TEST_STANDBY_DELAY:-500ms}" \
  start >/dev/null || { cat "$dir/standby.log" >&2; exit 1; }
export TODO_TEST_POSTGRES_STANDBY_URL="postgres://postgres@127.0.0.1:$standby_port/todo_test"
echo "with-postgres: throwaway cluster on 127.0.0.1:$port, its standby on 127.0.0.1:$standby_port"
"$@"
