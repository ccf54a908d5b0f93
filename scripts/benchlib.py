"""The shared helpers of the benchmark sections (bench.py and every bench_*.py import this; it imports none of them)."""
import json, os, re, socket, subprocess, sys, urllib.parse, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WRK_SCRIPTS = os.path.join(ROOT, "Benchmarks", "wrk")
DURATION = os.environ.get("BENCH_DURATION", "10s")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
ROWS = int(os.environ.get("BENCH_ROWS", "100000"))
HEADERS = {"ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"}


def sh(*args, **kw):
    return subprocess.run(args, check=True, text=True, **kw)


def start(binary, *args):
    proc = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    port = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not port:
        proc.kill()
        sys.exit(f"bench: {os.path.basename(binary)} did not start: {line!r}")
    return proc, int(port.group(1))


def stop(proc):
    """SIGTERM, up to 30 s to exit, then SIGKILL (a server that hangs on shutdown is not left running)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def free_port():
    """A port free on 127.0.0.1 now, for a server that cannot be told port 0."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(url, script, threads=1, connections=16, env=None):
    out = subprocess.run(
        ["wrk", "-t", str(threads), "-c", str(connections), "-d", DURATION, "--timeout", "10s", "-s", os.path.join(WRK_SCRIPTS, script), url],
        check=True, text=True, capture_output=True, env={**os.environ, "WRK_SCRIPTS": WRK_SCRIPTS, **(env or {})}).stdout
    return json.loads(out.split("RESULT ", 1)[1].splitlines()[0])


def median(runs, key="rps"):
    """The run (a dict) whose `key` is the median: by default the run with the median throughput.
    With an even count, the upper of the two middle runs."""
    return sorted(runs, key=lambda r: r[key])[len(runs) // 2]


def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=HEADERS, method="POST")
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def table_layout(query, table, ns=""):
    """Where a namespace keeps a table (the server's namespace catalog): its physical table and the
    physical columns of `text` and `complete`. `query` runs SQL and answers its unaligned output."""
    physical = query(f"""SELECT "physical" FROM "__tables" WHERE "ns" = '{ns}' AND "tbl" = '{table.lower()}'""").strip()
    columns = dict(line.split("|") for line in query(
        f"""SELECT "name", "physical" FROM "__columns" WHERE "ns" = '{ns}' AND "tbl" = '{table.lower()}'""").split())
    assert physical and "text" in columns and "complete" in columns, f"no layout for {table} in namespace '{ns}'"
    return {"table": physical, "text": columns["text"], "complete": columns["complete"], "ns": ns, "name": table.lower()}


def sqlite_query(path):
    return lambda sql: sh("sqlite3", "-cmd", ".timeout 10000", path, sql, capture_output=True).stdout


def psql_query(url):
    return lambda sql: sh("psql", url, "-X", "-q", "-A", "-t", "-c", sql, capture_output=True).stdout


def seed_sql(rows, dialect, layout):
    """Rows with distinct, increasing updatedAt (as the server itself would assign), in the
    namespace's table as the catalog lays it out."""
    ts = ("strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + n / 1000.0, 'unixepoch')" if dialect == "sqlite"
          else "to_char(to_timestamp(1767225600 + n / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
    gen = (f"WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {rows}) SELECT n FROM s" if dialect == "sqlite"
           else f"SELECT generate_series(1, {rows}) AS n")
    false = "0" if dialect == "sqlite" else "FALSE"
    t, ns = layout["table"], layout["ns"]
    # The server before namespaces (bench_namespaces' baseline) kept one clock row per table.
    clock = (f"""UPDATE "__sync_clock" SET "last" = 1767225600000 + {rows} WHERE "tbl" = '{layout["name"]}';""" if layout.get("per_table_clock")
             else f"""UPDATE "__clocks" SET "last" = 1767225600000 + {rows} WHERE "ns" = '{ns}' AND "tbl" = '{layout["name"]}';""")
    return (f'DELETE FROM "{t}" WHERE "__owner" = \'{ns}\';'
            f'INSERT INTO "{t}" ("__owner","id","createdAt","updatedAt","version","deleted","{layout["text"]}","{layout["complete"]}") '
            f"SELECT '{ns}', 'row-' || n, {ts}, {ts}, 'v' || n, {false}, 'todo number ' || n, {false} FROM ({gen}) AS g; "
            + clock + " ANALYZE;")  # a live database has statistics; a bulk load needs them refreshed


def pull_query():
    """The incremental-pull page of (a): 50 rows from the middle of the seeded table."""
    token = "2026-01-01T00:00:50.000Z"
    return urllib.parse.urlencode({"$filter": f"(updatedAt ge datetimeoffset'{token}')", "$orderby": "updatedAt asc",
                                   "$top": "50", "$skip": "0", "__includeDeleted": "true"}, quote_via=urllib.parse.quote)


# A line in a section after which its text is written by hand: a new measurement replaces what
# comes before it and keeps the rest (the history of what was tried and why).
HAND_WRITTEN = "<!-- Written by hand from here on: make bench keeps it. -->"


def replace_section(title, lines):
    """Puts one `## title` section into BENCHMARKS.md, keeping the others and the section's
    hand-written part (from `HAND_WRITTEN` on)."""
    path = os.path.join(ROOT, "BENCHMARKS.md")
    old = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    sections = re.split(r"(?m)^## ", old)
    def named(section):
        return section.split("\n", 1)[0].strip() == title
    previous = [s for s in sections[1:] if named(s)]
    kept = [sections[0].rstrip() + "\n"] + ["## " + s for s in sections[1:] if not named(s)]
    hand = ""
    if previous and HAND_WRITTEN in previous[0]:
        hand = "\n" + previous[0][previous[0].index(HAND_WRITTEN):].rstrip() + "\n"
    open(path, "w").write("\n".join(x.rstrip() + "\n" for x in kept) + "\n" + "\n".join(lines).rstrip() + "\n" + hand)
    print("\n".join(lines))
