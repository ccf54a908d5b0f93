"""Read replicas and fresh tables (#28), imported by bench.py (`BENCH_ONLY=replicas` runs only this):

1. Pulls from a standby: bench (a)'s pull page (50 of 100k rows) from a server reading a hot
   standby (`--read-database`) beside the same page from a server on the primary alone, in
   alternating rounds; pages/s and the CPU per page of todo-server, the primary's PostgreSQL and
   the standby's.
2. A fresh table: a new table grows from 0 to 10,000 rows through the batch route, and its first
   pull page is read at once, beside the same page after a manual ANALYZE (the floor: what the
   table serves once PostgreSQL has statistics); one new table per round.
"""
import json, os, time, urllib.request, uuid

import benchlib

FRESH_ROWS = int(os.environ.get("BENCH_FRESH_ROWS", "10000"))


def metric(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{") and line.split(" ")[0] == name:
                return float(line.rsplit(" ", 1)[1])
    return None


def until(what, condition, timeout=120):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: timed out waiting until {what}")
        time.sleep(0.2)


def grow(port, table, rows):
    """`rows` rows into a new table through the batch route, 1,000 per request; seconds taken."""
    started = time.monotonic()
    for chunk in range(0, rows, 1000):
        operations = [{"method": "POST", "table": table, "body": {"id": f"r{n}", "text": f"fresh row {n}", "complete": False}}
                      for n in range(chunk, min(chunk + 1000, rows))]
        benchlib.post(port, "/tables/$batch", {"operations": operations})
    return time.monotonic() - started


def run(binary, pg, standby):
    import bench_cpu, bench_pgbench
    db = f"replicas_{uuid.uuid4().hex[:8]}"
    benchlib.sh("psql", pg, "-X", "-q", "-c", f"CREATE DATABASE {db}", capture_output=True)
    url, standby_url = pg.rsplit("/", 1)[0] + "/" + db, standby.rsplit("/", 1)[0] + "/" + db
    primary_proc, primary_port = benchlib.start(binary, "--port", "0", "--database", url, "--log-level", "error", "--metrics")
    reading_proc = None
    results = {}
    try:
        benchlib.post(primary_port, "/tables/bench", {"id": "schema", "text": "creates the table", "complete": False})
        query = benchlib.psql_query(url)
        layout = benchlib.table_layout(query, "bench")
        query(benchlib.seed_sql(benchlib.ROWS, "postgres", layout))
        standby_query = benchlib.psql_query(standby_url)
        until("the standby has the seeded rows", lambda: (standby_query(
            f"""SELECT count(*) FROM "{layout['table']}" WHERE "__owner" = ''""").strip() or "0") == str(benchlib.ROWS))
        # Started after the seeding, which sets the table's clock back to the seeded rows' stamps:
        # a server that heard the table's first write announced would wait for the standby to
        # reach a stamp the clock no longer shows.
        reading_proc, reading_port = benchlib.start(binary, "--port", "0", "--database", url, "--read-database", standby_url,
                                                    "--log-level", "error", "--metrics")
        until("the reading server's standby serves", lambda: metric(reading_port, "todo_read_replicas_serving") == 1)
        page = benchlib.pull_query()
        primary_postmaster, standby_postmaster = bench_pgbench.postmaster_pid(url), bench_pgbench.postmaster_pid(standby_url)
        alone, replica = [], []
        for _ in range(benchlib.ROUNDS):
            alone.append(bench_cpu.measure(lambda: benchlib.wrk(f"http://127.0.0.1:{primary_port}/tables/bench?{page}", "get.lua"),
                                           primary_proc.pid, primary_postmaster, standby_postmaster))
            replica.append(bench_cpu.measure(lambda: benchlib.wrk(f"http://127.0.0.1:{reading_port}/tables/bench?{page}", "get.lua"),
                                             reading_proc.pid, primary_postmaster, standby_postmaster))
        results["alone"], results["replica"] = benchlib.median(alone), benchlib.median(replica)
        results["standby_reads"] = metric(reading_port, 'todo_replica_reads{database="standby"}') or 0
        results["fallbacks"] = metric(reading_port, 'todo_replica_reads{database="primary_fallback"}') or 0

        fresh, analyzed, growth = [], [], []
        for n in range(benchlib.ROUNDS):
            table = f"fresh{n}"
            growth.append(grow(primary_port, table, FRESH_ROWS))
            fresh.append(benchlib.wrk(f"http://127.0.0.1:{primary_port}/tables/{table}?{page}", "get.lua"))
            query(f'ANALYZE "{benchlib.table_layout(query, table)["table"]}"')
            analyzed.append(benchlib.wrk(f"http://127.0.0.1:{primary_port}/tables/{table}?{page}", "get.lua"))
        results["fresh"], results["analyzed"] = benchlib.median(fresh), benchlib.median(analyzed)
        results["growth_s"] = sorted(growth)[len(growth) // 2]
    finally:
        benchlib.stop(primary_proc)
        if reading_proc:
            benchlib.stop(reading_proc)
    return results


def report(r, date, seconds):
    import bench_cpu

    def cpu(x):
        return bench_cpu.per_request_us(x, seconds)
    alone, replica = cpu(r["alone"]), cpu(r["replica"])
    ratio = r["fresh"]["rps"] / r["analyzed"]["rps"]
    lines = [
        "## Read replicas and fresh tables",
        "",
        f"Measured by `make bench` (`BENCH_ONLY=replicas`) on {date}, release build, wrk on loopback (1 thread, 16 connections, "
        f"{seconds} s rounds, {benchlib.ROUNDS} alternated rounds, medians). The standby is a streaming replica made by "
        "`pg_basebackup` on the same machine (`scripts/with-postgres.sh`), so its CPU comes out of the same 2 cores: "
        "on one machine a standby cannot add throughput, it moves the reads' database work off the primary.",
        "",
        f"**Pulls from a standby:** bench (a)'s pull page (50 of {benchlib.ROWS:,} rows) from a server with `--read-database` "
        "beside a server on the primary alone.",
        "",
        "| server | pages/s | p99 | todo-server µs/page | primary PostgreSQL µs/page | standby PostgreSQL µs/page |",
        "|---|---:|---:|---:|---:|---:|",
        f"| primary alone | {r['alone']['rps']:,.0f} | {r['alone']['p99_ms']:.2f} ms | {alone['server']:.0f} | {alone['postgres']:.0f} | {alone['standby']:.0f} |",
        f"| reading the standby | {r['replica']['rps']:,.0f} | {r['replica']['p99_ms']:.2f} ms | {replica['server']:.0f} | {replica['postgres']:.0f} | {replica['standby']:.0f} |",
        "",
        f"The reading server sent {r['standby_reads']:,.0f} reads to the standby and {r['fallbacks']:,.0f} to the primary "
        "(a standby lacking a write the read needed, or failing).",
        "",
        f"**A fresh table:** a new table grows from 0 to {FRESH_ROWS:,} rows through the batch route "
        f"({r['growth_s']:.2f} s), and its first pull page is read at once; the floor is the same page after a manual "
        "`ANALYZE`. Before the server analyzed growing tables itself, this was 334 against 2,620 pages/s (2026-11-24).",
        "",
        "| table | pages/s | p99 | target |",
        "|---|---:|---:|---:|",
        f"| fresh | {r['fresh']['rps']:,.0f} | {r['fresh']['p99_ms']:.2f} ms | ≥ 80% of analyzed: {ratio:.0%} ({'met' if ratio >= 0.8 else 'NOT met'}) |",
        f"| after ANALYZE (floor) | {r['analyzed']['rps']:,.0f} | {r['analyzed']['p99_ms']:.2f} ms | |",
        "",
    ]
    benchlib.replace_section("Read replicas and fresh tables", lines)
