"""The app at a million items (#28), imported by bench.py (`BENCH_ONLY=million-client` runs only this).

A todo-server on SQLite holds MILLION of the app's items (seeded with SQL: a third due, each with a
priority and two tags, half in one list, one in five complete); beside it, the same at 10,000
items (the floor, same run). For each:
- the app's first pull: `todo sync` into an empty store, from process start to exit;
- `todo list --json` and `todo export` of that store to /dev/null: time and peak resident memory;
- the full-screen list over that store (`todo-bench-client run`): first frame, keys (scrolling,
  End/Home jumps and the steps after them, filtering, view switches) and resident memory.
"""
import json, os, resource, subprocess, time, uuid

import benchlib

MILLION = int(os.environ.get("BENCH_MILLION_ITEMS", "1000000"))
FLOOR = 10_000


def seed(path, rows):
    """`rows` items in the server's TodoItem table, laid out as its catalog says."""
    query = benchlib.sqlite_query(path)
    columns = dict(line.split("|") for line in query(
        """SELECT "name", "physical" FROM "__columns" WHERE "ns" = '' AND "tbl" = 'todoitem'""").split())
    table = query("""SELECT "physical" FROM "__tables" WHERE "ns" = '' AND "tbl" = 'todoitem'""").strip()
    lists = query("""SELECT "physical" FROM "__tables" WHERE "ns" = '' AND "tbl" = 'todolist'""").strip()
    list_id = query(f"""SELECT "id" FROM "{lists}" WHERE "__owner" = '' LIMIT 1""").strip()
    ts = "strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + n / 1000.0, 'unixepoch')"
    values = {
        "text": "'todo number ' || n", "complete": "n % 5 = 0", "notes": "''",
        "due": "CASE WHEN n % 3 = 0 THEN date('2026-12-01', '+' || (n % 60) || ' days') END",
        "priority": "CASE n % 4 WHEN 1 THEN 'high' WHEN 2 THEN 'medium' WHEN 3 THEN 'low' END",
        "tags": "CASE n % 3 WHEN 0 THEN 'home work' WHEN 1 THEN 'call shop' ELSE 'errand someday' END",
        "listid": f"CASE WHEN n % 2 = 0 THEN '{list_id}' END",
    }
    names = [name for name in values if name in columns]
    sql = (f'DELETE FROM "{table}";'
           f'INSERT INTO "{table}" ("__owner","id","createdAt","updatedAt","version","deleted",'
           + ",".join(f'"{columns[n]}"' for n in names) + ") "
           f"SELECT '', 'item-' || n, {ts}, {ts}, 'v' || n, 0, " + ",".join(values[n] for n in names)
           + f" FROM (WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {rows}) SELECT n FROM s);"
           f"""UPDATE "__clocks" SET "last" = 1767225600000 + {rows} WHERE "ns" = '' AND "tbl" = 'todoitem'; ANALYZE;""")
    benchlib.sh("sqlite3", "-cmd", ".timeout 10000", path, sql)


def timed_with_memory(*args, **kw):
    """Seconds from start to exit and the child's peak resident memory in MB; output to /dev/null."""
    started = time.monotonic()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(args, stdout=null, stderr=subprocess.PIPE, **kw)
        _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.read().decode()[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024


def measure(bin_dir, rows, tmp):
    work = os.path.join(tmp, f"million-client-{rows}-{uuid.uuid4().hex[:6]}")
    os.makedirs(work)
    path = os.path.join(work, "server.sqlite")
    proc, port = benchlib.start(os.path.join(bin_dir, "todo-server"), "--port", "0", "--database", path, "--log-level", "error")
    todo = os.path.join(bin_dir, "todo")
    server = f"http://127.0.0.1:{port}"
    env = dict(os.environ, HOME=work, XDG_DATA_HOME=work, XDG_CONFIG_HOME=work)
    try:
        # The app's own write makes the tables with every column the app sends.
        benchlib.sh(todo, "lists", "add", "List 0", "--server", server, "--store", os.path.join(work, "seeder.sqlite"), env=env, capture_output=True)
        benchlib.sh(todo, "add", "schema", "--due", "2026-12-01", "--priority", "high", "--tag", "home", "--tag", "work", "--list", "List 0", "--notes", "n",
                    "--server", server, "--store", os.path.join(work, "seeder.sqlite"), env=env, capture_output=True)
        benchlib.sh(todo, "sync", "--server", server, "--store", os.path.join(work, "seeder.sqlite"), env=env, capture_output=True)
        started = time.monotonic()
        seed(path, rows)
        seed_s = time.monotonic() - started
        store = os.path.join(work, "device.sqlite")
        pull_s, pull_mb = timed_with_memory(todo, "sync", "--server", server, "--store", store, env=env)
        status = json.loads(benchlib.sh(todo, "status", "--json", "--server", server, "--store", store, env=env, capture_output=True).stdout)
        listed = benchlib.sh(todo, "lists", "--json", "--server", server, "--store", store, env=env, capture_output=True).stdout
        held = sum(row["open"] for row in json.loads(listed))
        expected_open = rows - rows // 5
        if status.get("pending") != 0 or held != expected_open:
            raise SystemExit(f"the first pull of {rows} left {status.get('pending')} pending and {held} open items, not {expected_open}")
        r = {"seed_s": seed_s, "pull_s": pull_s, "pull_mb": pull_mb}
        for name, args in [("list", ("list", "--json", "--all")), ("export", ("export",))]:
            r[name + "_s"], r[name + "_mb"] = timed_with_memory(todo, *args, "--server", server, "--store", store, env=env)
        client = os.path.join(bin_dir, "todo-bench-client")
        runs = [json.loads(benchlib.sh(client, "run", store, capture_output=True).stdout.strip().splitlines()[-1]) for _ in range(3)]
        runs.sort(key=lambda x: x["cold_start_ms"])
        r["screen"] = runs[1]
        return r
    finally:
        benchlib.stop(proc)


def run(bin_dir, tmp):
    """`bin_dir`: the release build's products (todo-server, todo, todo-bench-client)."""
    return {"floor": measure(bin_dir, FLOOR, tmp), "million": measure(bin_dir, MILLION, tmp)}


def report(r, date):
    f, m = r["floor"], r["million"]
    fs, ms = f["screen"], m["screen"]
    met = lambda ok: "met" if ok else "NOT met"
    lines = [
        "## The app at a million items",
        "",
        f"Measured by `make bench` (`BENCH_ONLY=million-client`) on {date}, release build, loopback: a todo-server on SQLite "
        f"holding {MILLION:,} of the app's items (seeded with SQL: a third due, each with a priority and two tags, half in a "
        f"list, one in five complete), beside the same at {FLOOR:,} items (the floor, same run). The first pull is `todo sync` "
        "into an empty store, from process start to exit. `todo list --json --all` and `todo export` write that store to "
        "/dev/null (peak resident memory from the kernel's rusage). The full-screen list is `todo-bench-client run` over it "
        "(as in the client section: a 100×30 frame rendered from the view models; the median of three processes by cold start). "
        "Jumps are End and Home, each followed by ↑ ↑ PgUp or ↓ PgDn.",
        "",
        f"| figure | {FLOOR:,} items | {MILLION:,} items | target |",
        "|---|---:|---:|---:|",
        f"| first pull (`todo sync`) | {f['pull_s']:.2f} s | {m['pull_s']:.1f} s ({m['pull_mb']:.0f} MB) | ≤ 20 s ({met(m['pull_s'] <= 20)}) |",
        f"| `todo list --json --all` | {f['list_s']:.2f} s, {f['list_mb']:.0f} MB | {m['list_s']:.1f} s, {m['list_mb']:.0f} MB | ≤ 100 MB ({met(m['list_mb'] <= 100)}) |",
        f"| `todo export` | {f['export_s']:.2f} s, {f['export_mb']:.0f} MB | {m['export_s']:.1f} s, {m['export_mb']:.0f} MB | ≤ 100 MB ({met(m['export_mb'] <= 100)}) |",
        f"| list: cold start to first frame | {fs['cold_start_ms']:.1f} ms | {ms['cold_start_ms']:.1f} ms | ≤ 150 ms ({met(ms['cold_start_ms'] <= 150)}) |",
    ]
    for label, key in [("scrolling", "scroll"), ("End / Home and the steps after", "jump"), ("filtering as you type", "filter"),
                       ("switching view", "switch")]:
        lines.append(f"| list: {label}, p50 / p99 | {fs[key + '_p50_ms']:.2f} / {fs[key + '_p99_ms']:.2f} ms | "
                     f"{ms[key + '_p50_ms']:.2f} / {ms[key + '_p99_ms']:.2f} ms | p99 ≤ 10 ms ({met(ms[key + '_p99_ms'] <= 10)}) |")
    lines += [f"| list: resident memory after all of it | {fs['rss_mb']:.0f} MB | {ms['rss_mb']:.0f} MB | ≤ 200 MB ({met(ms['rss_mb'] <= 200)}) |", ""]
    benchlib.replace_section("The app at a million items", lines)
