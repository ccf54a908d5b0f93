"""The PostgreSQL page's CPU (#29), imported by bench.py (`BENCH_ONLY=page-cpu` runs only this).

Bench (a)'s pull page (50 of 100k rows) four ways, in alternating rounds, medians:
todo-server on SQLite (everything in one process), todo-server on PostgreSQL, and pgbench running
that page's own SELECT prepared (read from PostgreSQL's statement log, same parameters), flat out
and limited to the rate todo-server's PostgreSQL page reached in the same round; and a page of
one row on each store, which shows what a round trip to PostgreSQL costs todo-server. Each
run's CPU is read from /proc (bench_cpu): todo-server, every PostgreSQL process, the load
generator. The targets: todo-server's CPU per PostgreSQL page at most its CPU per SQLite page,
and PostgreSQL's CPU per page at most 1.2× pgbench's.
"""
import os, urllib.request

import benchlib


def served_page(base, page):
    with urllib.request.urlopen(urllib.request.Request(f"{base}/tables/bench?{page}", headers=benchlib.HEADERS)) as r:
        return r.read()


def seeded_server(binary, database, query, dialect):
    proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--log-level", "error")
    benchlib.post(port, "/tables/bench", {"id": "schema", "text": "creates the table", "complete": False})
    query(benchlib.seed_sql(benchlib.ROWS, dialect, benchlib.table_layout(query, "bench")))
    return proc, f"http://127.0.0.1:{port}"


def run(binary, tmp, pg):
    import bench_cpu, bench_pgbench
    sqlite_path = os.path.join(tmp, "page-cpu.sqlite")
    sqlite_proc, sqlite_base = seeded_server(binary, sqlite_path, benchlib.sqlite_query(sqlite_path), "sqlite")
    pg_proc = None
    try:
        pg_proc, pg_base = seeded_server(binary, pg, benchlib.psql_query(pg), "postgres")
        page = benchlib.pull_query()
        assert served_page(sqlite_base, page) == served_page(pg_base, page), "both stores must serve the same page"
        page_sql = bench_pgbench.logged_statement(pg, lambda: served_page(pg_base, page))
        postmaster = bench_pgbench.postmaster_pid(pg)
        seconds = int(benchlib.DURATION.rstrip("s"))
        one_row = page.replace("%24top=50", "%24top=1")
        assert one_row != page, "the page's query string names $top=50"
        runs = {"sqlite": [], "postgres": [], "pgbench": [], "pgbench_paced": [], "sqlite_one": [], "postgres_one": []}
        for _ in range(benchlib.ROUNDS):
            runs["sqlite"].append(bench_cpu.measure(lambda: benchlib.wrk(f"{sqlite_base}/tables/bench?{page}", "get.lua"), sqlite_proc.pid, postmaster))
            runs["postgres"].append(bench_cpu.measure(lambda: benchlib.wrk(f"{pg_base}/tables/bench?{page}", "get.lua"), pg_proc.pid, postmaster))
            runs["pgbench"].append(bench_cpu.measure(lambda: bench_pgbench.pgbench(pg, page_sql, seconds), pg_proc.pid, postmaster))
            # A backend that waits for its next query sleeps and is woken for it; flat out,
            # pgbench's next query is mostly there already. At todo-server's rate it is not.
            paced = runs["postgres"][-1]["rps"]
            runs["pgbench_paced"].append(bench_cpu.measure(lambda: bench_pgbench.pgbench(pg, page_sql, seconds, rate=paced), pg_proc.pid, postmaster))
            runs["sqlite_one"].append(bench_cpu.measure(lambda: benchlib.wrk(f"{sqlite_base}/tables/bench?{one_row}", "get.lua"), sqlite_proc.pid, postmaster))
            runs["postgres_one"].append(bench_cpu.measure(lambda: benchlib.wrk(f"{pg_base}/tables/bench?{one_row}", "get.lua"), pg_proc.pid, postmaster))
        # Each figure per page, the median of the rounds (each party's own median).
        return {name: {party: sorted(bench_cpu.per_request_us(r, seconds)[party] for r in measured)[len(measured) // 2]
                       for party in ("server", "postgres", "client", "total")} | {"rps": benchlib.median(measured)["rps"]}
                for name, measured in runs.items()}
    finally:
        benchlib.stop(sqlite_proc)
        if pg_proc:
            benchlib.stop(pg_proc)


def report(results, today, rounds):
    s, p, g, paced = results["sqlite"], results["postgres"], results["pgbench"], results["pgbench_paced"]
    server_met, database_met = p["server"] <= s["server"], p["postgres"] <= 1.2 * g["postgres"]
    lines = [
        "## The PostgreSQL page's CPU", "",
        f"Measured by `make bench` on {today} (`BENCH_ONLY=page-cpu` runs this section alone). Bench (a)'s pull page "
        "(50 of 100,000 rows) served by todo-server on SQLite and on PostgreSQL (wrk, 16 connections), and its own SELECT "
        "run by `pgbench -M prepared` (8 connections, taken from PostgreSQL's statement log with the same parameters), "
        f"alternated in {rounds} rounds. CPU read from /proc for todo-server, every PostgreSQL process and the load "
        "generator, all on the same 2 cores; each figure is the median of its rounds.", "",
        "| run | pages/s | todo-server µs | PostgreSQL µs | wrk / pgbench µs | total µs |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, r in (("pull page on SQLite, everything in process", s), ("pull page on PostgreSQL", p), ("its SELECT, pgbench prepared", g),
                     ("its SELECT, pgbench prepared at the PostgreSQL page's rate", paced),
                     ("a page of one row on SQLite", results["sqlite_one"]), ("a page of one row on PostgreSQL", results["postgres_one"])):
        server = "—" if r is g or r is paced else f"{r['server']:.0f}"
        database = "—" if r is s or r is results["sqlite_one"] else f"{r['postgres']:.0f}"
        lines.append(f"| {label} | {r['rps']:.0f} | {server} | {database} | {r['client']:.0f} | {r['total']:.0f} |")
    lines += [
        "",
        f"- todo-server's CPU per PostgreSQL page ≤ its CPU per SQLite page: {p['server']:.0f} µs against {s['server']:.0f} µs "
        f"({'met' if server_met else 'NOT met'}).",
        f"- PostgreSQL's CPU per page ≤ 1.2× pgbench's prepared SELECT: {p['postgres']:.0f} µs against {g['postgres']:.0f} µs, "
        f"{p['postgres'] / g['postgres']:.2f}× ({'met' if database_met else 'NOT met'}); against pgbench at the page's own rate "
        f"({paced['postgres']:.0f} µs) {p['postgres'] / paced['postgres']:.2f}×.",
        f"- The page's rate on PostgreSQL is {100 * p['rps'] / g['rps']:.0f}% of pgbench's.",
        f"- A round trip to PostgreSQL: todo-server's CPU for a page of one row is {results['postgres_one']['server']:.0f} µs on PostgreSQL "
        f"against {results['sqlite_one']['server']:.0f} µs on SQLite, {results['postgres_one']['server'] - results['sqlite_one']['server']:.0f} µs "
        "more before a single row is written.", "",
        "How the PostgreSQL page runs (ARCHITECTURE.md, the pull page): prepared once per pooled connection, its `LIMIT` in "
        "the statement's text so that PostgreSQL keeps one generic plan for it; its rows handed to a callback on the "
        "connection's event loop (no task switch per row) and written as JSON from the DataRow messages' bytes "
        "(`PostgresWireRow`).",
        "",
        "Why the first target is out of reach this way: the one-row pages show that the round trip alone (writing Bind and "
        "Execute to PostgreSQL's socket, the loopback TCP work the kernel does for it, the reply read and decoded by "
        "PostgresNIO, and the request's task suspended and resumed) costs todo-server more than SQLite's whole query and "
        "its 50 rows of JSON (the SQLite page less its one-row page). The second target compares a database waiting for "
        "todo-server's next query with pgbench flat out, whose backends mostly find their next query already there: at "
        "todo-server's own rate pgbench's backends are woken for every query too, and PostgreSQL's CPU per query rises "
        "(the paced row).", "",
    ]
    benchlib.replace_section("The PostgreSQL page's CPU", lines)
