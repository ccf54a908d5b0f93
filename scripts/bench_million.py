"""A million rows (#28), imported by bench.py (`BENCH_ONLY=million` runs only this section).

On SQLite and on PostgreSQL, a namespace's table of MILLION rows beside one of 10,000 (the
floor, same run): the latency of pull pages read one after another by one client, as a device
pulls, over keep-alive HTTP:
- keyset pages (`updatedAt ge T and (updatedAt gt T or id gt …)`) at the start and at the end;
- a base-protocol client's `$skip` pages (the Azure JS client pages so): the first page beside
  consecutive pages from `$skip=500000` on (each the page after the one before), and one lone
  page at `$skip=500000` that no earlier page led to (counted with OFFSET).
"""
import http.client, os, time, urllib.parse, uuid

import benchlib

MILLION = int(os.environ.get("BENCH_MILLION_ROWS", "1000000"))
SMALL = 10_000
PAGES = int(os.environ.get("BENCH_MILLION_PAGES", "200"))


def stamp(n):
    """The seeded row n's updatedAt (seed_sql: 2026-01-01 plus n ms)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1767225600 + n // 1000)) + f".{n % 1000:03d}Z"


def keyset_path(table, n):
    q = (f"(updatedAt ge datetimeoffset'{stamp(n)}') and (updatedAt gt datetimeoffset'{stamp(n)}' or id gt 'row-{n}')")
    return f"/tables/{table}?" + urllib.parse.urlencode(
        {"$filter": q, "$orderby": "updatedAt asc,id asc", "$top": "50", "__includeDeleted": "true"}, quote_via=urllib.parse.quote)


def skip_path(table, skip, top=50):
    return f"/tables/{table}?" + urllib.parse.urlencode(
        {"$filter": "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z')", "$orderby": "updatedAt asc",
         "$top": str(top), "$skip": str(skip), "__includeDeleted": "true"}, quote_via=urllib.parse.quote)


def timed(conn, paths):
    """Milliseconds of each GET, in order, on one kept-alive connection."""
    out = []
    for path in paths:
        started = time.perf_counter()
        conn.request("GET", path, headers={"ZUMO-API-VERSION": "2.0.0"})
        reply = conn.getresponse()
        body = reply.read()
        out.append((time.perf_counter() - started) * 1000)
        assert reply.status == 200 and body.startswith(b"[{"), f"page {path} answered {reply.status}"
    return out


def summary(ms):
    ms = sorted(ms)
    return {"p50": ms[len(ms) // 2], "p99": ms[min(len(ms) - 1, int(len(ms) * 0.99))]}


def measure(port, table, rows):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    try:
        timed(conn, [keyset_path(table, 1)] * 20)  # warm up
        r = {"keyset_first": summary(timed(conn, [keyset_path(table, 1 + i) for i in range(PAGES)])),
             "keyset_last": summary(timed(conn, [keyset_path(table, rows - 60 - i) for i in range(PAGES)])),
             "skip_first": summary(timed(conn, [skip_path(table, 0)] * PAGES))}
        if rows >= 2 * 500_000:
            deep = 500_000
            r["skip_deep"] = summary(timed(conn, [skip_path(table, deep - 50)] + [skip_path(table, deep + 50 * i) for i in range(PAGES)])[1:])
            # Lone pages: a query no page led to (its $top differs each time, so no mark matches).
            r["skip_lone"] = summary(timed(conn, [skip_path(table, deep, top=40 + i) for i in range(5)]))
        return r
    finally:
        conn.close()


def seeded_server(binary, database, query, dialect, rows):
    proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--log-level", "error")
    table = f"m{uuid.uuid4().hex[:8]}"
    benchlib.post(port, f"/tables/{table}", {"id": "schema", "text": "creates the table", "complete": False})
    query(benchlib.seed_sql(rows, dialect, benchlib.table_layout(query, table)))
    return proc, port, table


def run(binary, tmp):
    results = {}
    stores = [("SQLite", os.path.join(tmp, f"million-{uuid.uuid4().hex[:6]}.sqlite"), "sqlite")]
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        db = f"million_{uuid.uuid4().hex[:8]}"
        benchlib.sh("psql", pg, "-X", "-q", "-c", f"CREATE DATABASE {db}", capture_output=True)
        stores.append(("PostgreSQL", pg.rsplit("/", 1)[0] + "/" + db, "postgres"))
    for name, database, dialect in stores:
        query = benchlib.sqlite_query(database) if dialect == "sqlite" else benchlib.psql_query(database)
        started = time.monotonic()
        proc, port, big = seeded_server(binary, database, query, dialect, MILLION)
        seed_s = time.monotonic() - started
        try:
            benchlib.post(port, "/tables/small", {"id": "schema", "text": "creates the table", "complete": False})
            query(benchlib.seed_sql(SMALL, dialect, benchlib.table_layout(query, "small")))
            small, large = [], []
            for _ in range(benchlib.ROUNDS):
                small.append(measure(port, "small", SMALL))
                large.append(measure(port, big, MILLION))
            pick = lambda runs: sorted(runs, key=lambda r: r["keyset_first"]["p50"])[len(runs) // 2]
            results[name] = {"small": pick(small), "large": pick(large), "seed_s": seed_s}
        finally:
            benchlib.stop(proc)
    return results


def report(r, date):
    def row(label, s, l, key):
        return f"| {label} | {s[key]['p50']:.2f} / {s[key]['p99']:.2f} ms | {l[key]['p50']:.2f} / {l[key]['p99']:.2f} ms |"
    lines = [
        "## A million rows",
        "",
        f"Measured by `make bench` (`BENCH_ONLY=million`) on {date}, release build: one client reading pull pages of 50 one "
        f"after another over a kept-alive connection ({PAGES} pages per figure, {benchlib.ROUNDS} alternated rounds, the "
        f"median round), from a namespace's table of {MILLION:,} rows beside one of {SMALL:,} (the floor), both seeded "
        "with distinct `updatedAt` values and analyzed. Latency per page, p50 / p99, with Python's client on loopback.",
        "",
    ]
    for name, x in r.items():
        s, l = x["small"], x["large"]
        deep_ok = l["skip_deep"]["p50"] <= 2 * l["skip_first"]["p50"]
        lines += [
            f"**{name}** (seeding {MILLION:,} rows took {x['seed_s']:.0f} s)",
            "",
            f"| page | {SMALL:,} rows | {MILLION:,} rows |",
            "|---|---:|---:|",
            row("keyset, first pages", s, l, "keyset_first"),
            row("keyset, last pages", s, l, "keyset_last"),
            row("`$skip`, the first page", s, l, "skip_first"),
            f"| `$skip`, consecutive pages from 500,000 | — | {l['skip_deep']['p50']:.2f} / {l['skip_deep']['p99']:.2f} ms "
            f"(target ≤ 2× the first page's p50: {'met' if deep_ok else 'NOT met'}) |",
            f"| `$skip=500000` alone (no page led there: OFFSET) | — | {l['skip_lone']['p50']:.2f} / {l['skip_lone']['p99']:.2f} ms |",
            "",
        ]
    benchlib.replace_section("A million rows", lines)
