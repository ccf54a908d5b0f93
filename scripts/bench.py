#!/usr/bin/env python3
"""`make bench`: release builds on loopback, figures to BENCHMARKS.md.

todo-server (wrk, each on SQLite and PostgreSQL): (a) an incremental-pull page of 50 on a
100k-row table, (b) insert, (c) PATCH with If-Match; beside a floor measured in the same run: a
trivial Hummingbird route returning a pre-built 50-item JSON page.
OfflineSync (todo-bench-sdk): pull 100k rows with page sizes 50 and 1,000, push 10,000 queued
inserts, 10,000 local inserts; each beside a raw floor measured in the same run.
Load test (load.py, also `make load`): 100 simulated devices against two servers on PostgreSQL and one on SQLite.
Bulk cycle against Taskwarrior + taskd (bench_taskd.py): import, sync, first sync, mark all done, sync twice.
Change feed and live sync (bench_feed.py): device A's write to device B's list model (todo-bench-client live), write-to-event latency, memory of idle subscribers, inserts with and without them.
Namespaces (bench_namespaces.py): page and insert beside the server before namespaces, a login flood, inserts of 50 accounts with 1 ms commits.
Shared lists (bench_sharing.py): live across people beside within one account, a new member's first sync of a 10,000-item list beside one's own.
Ten thousand subscribers (bench_subscribers.py): memory per open feed, one write's fan-out to 10,000 feeds, inserts beside them.
A million rows (bench_million.py): keyset and consecutive $skip pages of 1,000,000 rows beside 10,000.
The app at a million items (bench_million_client.py): first pull, `todo list --json` and `export`, the full-screen list.
The PostgreSQL page's CPU (bench_page_cpu.py): the pull page's CPU per page on SQLite, on PostgreSQL, and pgbench's prepared SELECT.
Read replicas and fresh tables (bench_replicas.py): pull pages from a standby beside the primary alone; a table just grown to 10,000 rows beside the same after ANALYZE.
The CalDAV face (bench_caldav.py): PUT, getctag, a one-change sync and DAVx5's full listing at 1,000 and 10,000 tasks beside Radicale and Xandikos.
CalDAV, one change among many lists (bench_caldav_lists.py): getctag and a client's one-change sync in a home of 1, 10 and 100 lists beside Radicale and Xandikos (and `BENCH_BEFORE_SERVER`, a todo-server binary to compare, when set).
WebDAV-Push (bench_push.py): a write's push latency to a local Web Push receiver beside the floor of a message posted straight to it, and the messages an import of 10,000 items sends.
"""
import json, os, platform, re, subprocess, sys, time, datetime, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_taskd  # noqa: E402 (a sibling module)
import bench_pgbench  # noqa: E402
import bench_cpu  # noqa: E402
from benchlib import (ROOT, DURATION, ROUNDS, ROWS, HEADERS, sh, start, stop, wrk, median, post,  # noqa: E402
                      table_layout, sqlite_query, psql_query, seed_sql, pull_query, replace_section)


def run_auth(sqlite_path):
    """(a) with `--auth required` beside (a) without accounts, in alternating rounds: two servers on
    the same SQLite file, each reading a page of its own owner's 100k rows (the seeded rows, copied
    for an account)."""
    server = os.path.join(BIN, "todo-server")
    query = sqlite_query(sqlite_path)
    sh(server, "users", "add", "bencher", "--password-stdin", "--database", sqlite_path, input="bench password\n", capture_output=True)
    account = query("""SELECT "id" FROM "__users" WHERE "name" = 'bencher'""").strip()
    anon, anon_port = start(server, "--port", "0", "--database", sqlite_path, "--log-level", "error")
    auth, auth_port = start(server, "--port", "0", "--database", sqlite_path, "--log-level", "error", "--auth", "required")
    try:
        token = post(auth_port, "/.auth/login", {"username": "bencher", "password": "bench password"})["authenticationToken"]
        req = urllib.request.Request(f"http://127.0.0.1:{auth_port}/tables/bench", headers={**HEADERS, "X-ZUMO-AUTH": token}, method="POST",
                                     data=json.dumps({"id": "schema", "text": "creates the table", "complete": False}).encode())
        urllib.request.urlopen(req).read()
        sh("sqlite3", "-cmd", ".timeout 10000", sqlite_path, seed_sql(ROWS, "sqlite", table_layout(query, "bench", account)))
        url = "http://127.0.0.1:{}/tables/bench?" + pull_query()
        with urllib.request.urlopen(urllib.request.Request(url.format(auth_port), headers={**HEADERS, "X-ZUMO-AUTH": token})) as r:
            assert len(json.load(r)) == 50, "the signed-in pull page must hold 50 rows"
        plain, signed = [], []
        for _ in range(ROUNDS):
            plain.append(wrk(url.format(anon_port), "get.lua"))
            signed.append(wrk(url.format(auth_port), "get_auth.lua", env={"BENCH_TOKEN": token}))
        return {"plain": median(plain), "signed": median(signed)}
    finally:
        stop(anon)
        stop(auth)


def run_backend(name, database, query, floor_url=None):
    proc, port = start(os.path.join(BIN, "todo-server"), "--port", "0", "--database", database, "--log-level", "error")
    try:
        post(port, "/tables/bench", {"id": "schema", "text": "creates the table", "complete": False})
        layout = table_layout(query, "bench")
        query(seed_sql(ROWS, "sqlite" if name == "SQLite" else "postgres", layout))
        query = pull_query()
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(urllib.request.Request(f"{base}/tables/bench?{query}", headers=HEADERS)) as r:
            assert len(json.load(r)) == 50, "the pull page must hold 50 rows"
        results = {}
        if name == "PostgreSQL":
            # The floor is PostgreSQL itself: pgbench running the page's own SELECT and a plain
            # INSERT, alternated with the server's figures, medians of each.
            page_sql = bench_pgbench.logged_statement(database, lambda: urllib.request.urlopen(
                urllib.request.Request(f"{base}/tables/bench?{query}", headers=HEADERS)).read())
            # The server's own insert statement too (table clock, row and notice in one), with a
            # fresh id per run: what the table clock's serialised writes allow PostgreSQL itself.
            probe = "floor-probe-insert"
            write_sql = bench_pgbench.logged_statement(
                database, lambda: post(port, "/tables/bench", {"id": probe, "text": "inserted by wrk 1", "complete": False}), keyword="WITH")
            write_script = bench_pgbench.fresh_id_script(write_sql, probe)
            seconds = int(DURATION.rstrip("s"))
            floors, pulls, insert_floors, clocked_floors, inserts = [], [], [], [], []
            postmaster = bench_pgbench.postmaster_pid(database)
            def measured(run):
                return bench_cpu.measure(run, proc.pid, postmaster)
            for _ in range(ROUNDS):
                floors.append(measured(lambda: bench_pgbench.pgbench(database, page_sql, seconds)))
                pulls.append(measured(lambda: wrk(f"{base}/tables/bench?{query}", "get.lua")))
                insert_floors.append(measured(lambda: bench_pgbench.pgbench(database, bench_pgbench.insert_script(layout), seconds)))
                clocked_floors.append(measured(lambda: bench_pgbench.pgbench(database, write_script, seconds)))
                inserts.append(measured(lambda: wrk(f"{base}/tables/bench", "insert.lua")))
            results["pull"], results["insert"] = median(pulls), median(inserts)
            results["pgbench_page"], results["pgbench_insert"] = median(floors), median(insert_floors)
            results["pgbench_clocked_insert"] = median(clocked_floors)
        elif floor_url:
            # The target compares (a) with the floor: both are measured in alternating rounds and
            # each reported by its median run, so a slow moment of the machine hits both alike.
            floors, pulls = [], []
            for _ in range(ROUNDS):
                floors.append(wrk(floor_url, "get.lua"))
                pulls.append(wrk(f"{base}/tables/bench?{query}", "get.lua"))
            results["floor"], results["pull"] = median(floors), median(pulls)
        else:
            results["pull"] = wrk(f"{base}/tables/bench?{query}", "get.lua")
        results["pull_new_token"] = wrk(f"{base}/tables/bench", "pull_new_token.lua")
        if "insert" not in results:
            results["insert"] = wrk(f"{base}/tables/bench", "insert.lua")
        results["patch"] = wrk(f"{base}/tables/bench", "patch.lua", threads=4, connections=4)
        return results
    finally:
        stop(proc)


def main():
    global BIN
    # A scratch folder of its own, so a release build never waits for (or blocks) the debug one.
    # BENCH_SCRATCH: another release build folder (a soak may be running from .build-release).
    release = ["swift", "build", "-c", "release", "--scratch-path", os.path.join(ROOT, os.environ.get("BENCH_SCRATCH", ".build-release"))]
    # BENCH_ONLY=sdk measures only the SDK section (and rewrites only it in BENCHMARKS.md).
    only_sdk = os.environ.get("BENCH_ONLY") == "sdk"
    # BENCH_ONLY=feed measures only the change feed section.
    only_feed = os.environ.get("BENCH_ONLY") == "feed"
    # BENCH_ONLY=client measures only the terminal client's section.
    only_client = os.environ.get("BENCH_ONLY") == "client"
    # BENCH_ONLY=taskd measures only the bulk cycle against Taskwarrior.
    only_taskd = os.environ.get("BENCH_ONLY") == "taskd"
    # BENCH_ONLY=namespaces measures only the namespaces section (against the server before them).
    only_namespaces = os.environ.get("BENCH_ONLY") == "namespaces"
    # BENCH_ONLY=sharing measures only the shared lists' section.
    only_sharing = os.environ.get("BENCH_ONLY") == "sharing"
    # BENCH_ONLY=replicas measures only the read replicas' and fresh tables' section.
    only_replicas = os.environ.get("BENCH_ONLY") == "replicas"
    # BENCH_ONLY=million measures only the million rows' section.
    only_million = os.environ.get("BENCH_ONLY") == "million"
    # BENCH_ONLY=subscribers measures only the ten thousand subscribers' section.
    only_subscribers = os.environ.get("BENCH_ONLY") == "subscribers"
    # BENCH_ONLY=million-client measures only the app at a million items.
    only_million_client = os.environ.get("BENCH_ONLY") == "million-client"
    # BENCH_ONLY=page-cpu measures only the PostgreSQL page's CPU.
    only_page_cpu = os.environ.get("BENCH_ONLY") == "page-cpu"
    # BENCH_ONLY=server measures only the todo-server section (its page, insert and PATCH on both stores).
    only_server = os.environ.get("BENCH_ONLY") == "server"
    # BENCH_ONLY=caldav measures only the CalDAV face beside Radicale and Xandikos.
    only_caldav = os.environ.get("BENCH_ONLY") == "caldav"
    # BENCH_ONLY=caldav-lists measures only one change among many lists.
    only_caldav_lists = os.environ.get("BENCH_ONLY") == "caldav-lists"
    # BENCH_ONLY=push measures only the WebDAV-Push section.
    only_push = os.environ.get("BENCH_ONLY") == "push"
    products = ["todo-server", "todo", "todo-bench-client"] if only_million_client else ["todo-server", "todo"] if only_push else ["todo-server"] if only_replicas or only_caldav or only_caldav_lists or only_million or only_page_cpu or only_subscribers else ["todo-server", "todo-bench-floor"] if only_server else ["todo-server", "todo-bench-client"] if only_sharing else ["todo-server"] if only_namespaces else ["todo-server", "todo"] if only_taskd else ["todo-bench-client"] if only_client else ["todo-server", "todo-bench-client"] if only_feed else ["todo-server", "todo-bench-sdk", "todo"] if only_sdk else ["todo-server", "todo-bench-floor", "todo-bench-sdk", "todo-bench-client", "todo", "todo-load"]
    for product in products:
        sh(*release, "--product", product, cwd=ROOT)
    BIN = sh(*release, "--show-bin-path", cwd=ROOT, capture_output=True).stdout.strip()

    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    if only_sdk:
        write_sdk_report(run_sdk(tmp))
        return
    if only_feed:
        run_feed(tmp)
        return
    if only_client:
        write_client_report(run_client(tmp))
        return
    if only_taskd:
        replace_section("Bulk cycle against Taskwarrior", bench_taskd.report_lines(bench_taskd.run(BIN, tmp, rounds=ROUNDS)))
        return
    if only_namespaces:
        run_namespaces(tmp)
        return
    if only_sharing:
        run_sharing(tmp)
        return
    if only_replicas:
        run_replicas()
        return
    if only_million:
        run_million(tmp)
        return
    if only_subscribers:
        run_subscribers(tmp)
        return
    if only_million_client:
        run_million_client(tmp)
        return
    if only_page_cpu:
        run_page_cpu(tmp)
        return
    if only_server:
        write_report(*run_server_section(tmp))
        return
    if only_caldav:
        run_caldav(tmp)
        return
    if only_caldav_lists:
        run_caldav_lists(tmp)
        return
    if only_push:
        run_push(tmp)
        return
    # The client's latencies first, before the server loads leave PostgreSQL busy with vacuuming.
    client = run_client(tmp)

    write_report(*run_server_section(tmp))
    run_page_cpu(tmp)
    write_sdk_report(run_sdk(tmp))
    write_client_report(client)
    run_feed(tmp)
    replace_section("Bulk cycle against Taskwarrior", bench_taskd.report_lines(bench_taskd.run(BIN, tmp, rounds=ROUNDS)))
    run_namespaces(tmp)
    run_sharing(tmp)
    run_replicas()
    run_million(tmp)
    run_million_client(tmp)
    run_subscribers(tmp)
    run_caldav(tmp)
    run_caldav_lists(tmp)
    run_push(tmp)
    import load
    runs = load.run_load(BIN, tmp)
    replace_section("Load test", load.report_lines(runs))
    spaces = load.run_spaces_load(BIN, tmp)
    replace_section("Shared spaces under load", load.spaces_report_lines(spaces))
    runs += spaces
    if not all(r["passed"] for r in runs):
        sys.exit("bench: the load test lost or duplicated a write, or a device did not converge")


def run_sharing(tmp):
    import bench_sharing
    results = bench_sharing.run(os.path.join(BIN, "todo-server"), tmp)
    bench_sharing.report(results, datetime.date.today().isoformat())


def run_caldav(tmp):
    import bench_caldav
    names, results = bench_caldav.run(os.path.join(BIN, "todo-server"), tmp)
    replace_section("CalDAV beside Radicale and Xandikos", bench_caldav.report_lines(names, results, datetime.date.today().isoformat()))


def run_caldav_lists(tmp):
    import bench_caldav_lists
    binaries = [os.path.join(BIN, "todo-server")] + ([os.environ["BENCH_BEFORE_SERVER"]] if os.environ.get("BENCH_BEFORE_SERVER") else [])
    names, results = bench_caldav_lists.run(binaries, tmp)
    replace_section("CalDAV: one change among many lists",
                    bench_caldav_lists.report_lines(names, results, datetime.date.today().isoformat(), os.environ.get("BENCH_BEFORE_COMMIT")))


def run_push(tmp):
    import bench_push
    results = bench_push.run(os.path.join(BIN, "todo-server"), os.path.join(BIN, "todo"), tmp)
    replace_section("CalDAV: WebDAV-Push", bench_push.report_lines(results, datetime.date.today().isoformat()))


def run_subscribers(tmp):
    import bench_subscribers
    bench_subscribers.report(bench_subscribers.run(os.path.join(BIN, "todo-server"), tmp))


def run_million(tmp):
    import bench_million
    bench_million.report(bench_million.run(os.path.join(BIN, "todo-server"), tmp), datetime.date.today().isoformat())


def run_million_client(tmp):
    import bench_million_client
    bench_million_client.report(bench_million_client.run(BIN, tmp), datetime.date.today().isoformat())


def run_replicas():
    import bench_replicas
    pg, standby = os.environ.get("TODO_TEST_POSTGRES_URL"), os.environ.get("TODO_TEST_POSTGRES_STANDBY_URL")
    if not (pg and standby):
        print("bench: no PostgreSQL standby (run through scripts/with-postgres.sh); skipping read replicas")
        return
    results = bench_replicas.run(os.path.join(BIN, "todo-server"), pg, standby)
    bench_replicas.report(results, datetime.date.today().isoformat(), int(DURATION.rstrip("s")))


def run_server_section(tmp):
    """The todo-server section's figures: the floor, both stores, and the page with accounts."""
    results = {}
    sqlite_path = os.path.join(tmp, "bench.sqlite")
    floor_proc, floor_port = start(os.path.join(BIN, "todo-bench-floor"), "0")
    try:
        results["SQLite"] = run_backend("SQLite", sqlite_path, sqlite_query(sqlite_path), floor_url=f"http://127.0.0.1:{floor_port}/page")
    finally:
        stop(floor_proc)
    floor = results["SQLite"].pop("floor")
    auth = run_auth(sqlite_path)
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        results["PostgreSQL"] = run_backend("PostgreSQL", pg, psql_query(pg))
    return floor, results, auth


def run_page_cpu(tmp):
    import bench_page_cpu
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if not pg:
        print("bench: no PostgreSQL (run through scripts/with-postgres.sh); skipping the PostgreSQL page's CPU")
        return
    results = bench_page_cpu.run(os.path.join(BIN, "todo-server"), tmp, pg)
    bench_page_cpu.report(results, datetime.date.today().isoformat(), ROUNDS)


def run_namespaces(tmp):
    import bench_namespaces
    lines = bench_namespaces.run(os.path.join(BIN, "todo-server"), tmp, os.environ.get("TODO_TEST_POSTGRES_URL"))
    replace_section("Namespaces", lines)


def run_feed(tmp):
    import bench_feed
    bench_feed.report(bench_feed.run(os.path.join(BIN, "todo-server"), tmp, ROUNDS))


def run_client(tmp):
    """The plain store's run and the run of a store whose items are one in five subtasks, alternated."""
    bench = os.path.join(BIN, "todo-bench-client")
    stores = {"plain": os.path.join(tmp, "client.sqlite"), "subtasks": os.path.join(tmp, "client-subtasks.sqlite")}
    sh(bench, "seed", stores["plain"], str(ROWS))
    sh(bench, "seed", stores["subtasks"], str(ROWS), "subtasks")
    runs = {name: [] for name in stores}
    power = []
    for _ in range(3):
        for name, store in stores.items():
            runs[name].append(json.loads(sh(bench, "run", store, capture_output=True).stdout.strip().splitlines()[-1]))
        # #58's figures, on a copy of the plain store (they complete every item).
        power.append(json.loads(sh(bench, "power", stores["plain"], capture_output=True).stdout.strip().splitlines()[-1]))
    # Cold start is the median of three fresh processes; the rest from the median run.
    for name in runs:
        runs[name].sort(key=lambda r: r["cold_start_ms"])
    # Each of #58's figures is the median of its three runs.
    medians = {key: sorted(run[key] for run in power)[1] for key in power[0]}
    return runs["plain"][1], runs["subtasks"][1], medians


def write_client_report(runs):
    r, s, p = runs
    def verdict(ok):
        return "met" if ok else "NOT met"
    lines = [
        "## todo (terminal client)",
        "",
        f"Measured by `make bench` on {datetime.date.today().isoformat()}, release build, {ROWS:,} local items over 50 lists, each with two tags and a priority, "
        f"one in 50 due today and a third due within ±60 days ({int(r['items']):,} incomplete, shown by default), a 100×30 screen (the sidebar shows, its counts live). A frame is the full `Frame` rendered from "
        "the view models after every row on screen is loaded from SQLite; copying it to ncurses is not included "
        "(no terminal in the benchmark). Cold start is from `main` to the first complete frame, median of three processes. "
        "Keys are sent back to back through the runtime's message stream (as the terminal sends them), each as soon as the previous frame is drawn; the list's rows and count are live queries; the loop sleeps until the view models "
        "report a change, as the UI loop does. Filtering types `item 0` … `item 19` and erases each: rare needles are "
        "answered from the trigram index on `text`, common ones by walking the (complete, text) index. Text is in human order (case and accents set aside, `HumanOrder`), so sorts go through a collation; in byte order filtering was p99 3.6 ms. While keys arrive "
        "faster than 150 ms apart the list's row count waits (it is shown once typing pauses), so it is not in these frames. "
        "A view switch starts the new scope's rows; its count waits, as while typing, until switches pause 150 ms, so back-to-back "
        "switches are rows alone. Live queries read on threads of their own, so a window is not queued behind a count. "
        "Jumps are End and Home, each followed by ↑ ↑ PgUp or ↓ PgDn; a window in the list's second half is read from its end.",
        "",
        "| figure | measured | target |",
        "|---|---:|---:|",
        f"| cold start to first frame | {r['cold_start_ms']:.1f} ms | ≤ 150 ms ({verdict(r['cold_start_ms'] <= 150)}) |",
        f"| keypress to frame, scrolling (2,000 keys) | p50 {r['scroll_p50_ms']:.2f} ms, p99 {r['scroll_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(r['scroll_p99_ms'] <= 10)}) |",
        f"| keypress to frame, End / Home and the steps after (350 keys) | p50 {r['jump_p50_ms']:.2f} ms, p99 {r['jump_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(r['jump_p99_ms'] <= 10)}) |",
        f"| keypress to frame, filtering as you type (400 keys) | p50 {r['filter_p50_ms']:.2f} ms, p99 {r['filter_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(r['filter_p99_ms'] <= 10)}) |",
        f"| switching view to Today ({ROWS // 50:,} due today) and to a list, alternately (200 switches) | p50 {r['switch_p50_ms']:.2f} ms, p99 {r['switch_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(r['switch_p99_ms'] <= 10)}) |",
        f"| resident memory after all of it | {r['rss_mb']:.1f} MB | ≤ 150 MB ({verdict(r['rss_mb'] <= 150)}) |",
        "",
        "**With subtasks (#57).** The same keys in the same run, alternated with the store above, on a store seeded alike but one item in "
        "five a subtask (in each 25 items, a chain four deep and one subtask under its neighbour), plus a parent of 1,000 open subtasks "
        "first in the list. Parents start folded and show their progress; the list's rows at the top level are read by SQL as before, "
        "narrowed by the ids of the subtasks that stand at the top (their parent done or elsewhere), which one narrow read of the "
        "listing's subtasks finds; while a filter is typed the list is flat. An unfolded parent's subtasks are read by id, and as items only "
        "around the screen. Folding is `z` on that parent, 100 times: unfold, fold, and so on; a top-level parent folded keeps its rows read "
        "until the view is chosen again, so only the first unfold reads. Unfolding after a read is 20 rounds of the view read again (as "
        "choosing it does), then `z` twice: the unfold's time.",
        "",
        "| figure | measured | target |",
        "|---|---:|---:|",
        f"| cold start to first frame | {s['cold_start_ms']:.1f} ms | ≤ 150 ms ({verdict(s['cold_start_ms'] <= 150)}) |",
        f"| keypress to frame, scrolling | p50 {s['scroll_p50_ms']:.2f} ms, p99 {s['scroll_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(s['scroll_p99_ms'] <= 10)}) |",
        f"| keypress to frame, End / Home and the steps after | p50 {s['jump_p50_ms']:.2f} ms, p99 {s['jump_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(s['jump_p99_ms'] <= 10)}) |",
        f"| keypress to frame, filtering as you type | p50 {s['filter_p50_ms']:.2f} ms, p99 {s['filter_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(s['filter_p99_ms'] <= 10)}) |",
        f"| switching view to Today and to a list | p50 {s['switch_p50_ms']:.2f} ms, p99 {s['switch_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(s['switch_p99_ms'] <= 10)}) |",
        f"| folding or unfolding the parent of 1,000 subtasks, key to frame | p50 {s['fold_p50_ms']:.2f} ms, p99 {s['fold_p99_ms']:.2f} ms | one frame ({verdict(s['fold_p99_ms'] <= 16.7)}) |",
        f"| unfolding it after the view was read again, key to frame | p50 {s['unfold_read_p50_ms']:.2f} ms, longest {s['unfold_read_max_ms']:.2f} ms | one frame ({verdict(s['unfold_read_max_ms'] <= 16.7)}) |",
        f"| resident memory after all of it | {s['rss_mb']:.1f} MB | ≤ 150 MB ({verdict(s['rss_mb'] <= 150)}) |",
        "",
        "**Your own order, marks and questions (#58).** On a copy of the plain store, three runs alternated with the two above, "
        "each figure the median of its three. The view is sorted by hand (`o`), its first rows placed once; `K` and `J` then move "
        "the fifth row up and down 200 times (the row moves on screen at once; the store writes its key behind). The question is "
        "typed first, with no write queued behind it. Rows written is "
        "one move between two placed items, as `reorder` answers. The question `#call !high due<+30d` is typed into `/` and erased "
        "ten times; kept as a view, it is switched to and from All 100 times. 10,000 items are then moved one by one into one gap "
        "(each just above the one moved before), and every open item is marked with `*` and completed with Space.",
        "",
        "| figure | measured | target |",
        "|---|---:|---:|",
        f"| moving an item by hand, key to frame (200 keys) | p50 {p['reorder_p50_ms']:.2f} ms, p99 {p['reorder_p99_ms']:.2f} ms | ≤ 10 ms ({verdict(p['reorder_p99_ms'] <= 10)}) |",
        f"| rows written by a move between placed items | {p['reorder_rows_written']:.0f} | one row ({verdict(p['reorder_rows_written'] == 1)}) |",
        f"| typing a question of three conditions, key to frame ({len('#call !high due<+30d') * 20} keys) | p50 {p['question_p50_ms']:.2f} ms, p99 {p['question_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(p['question_p99_ms'] <= 10)}) |",
        f"| switching to the kept view and back (100 switches) | p50 {p['view_switch_p50_ms']:.2f} ms, p99 {p['view_switch_p99_ms']:.2f} ms | p99 ≤ 10 ms ({verdict(p['view_switch_p99_ms'] <= 10)}) |",
        f"| 10,000 moves into one gap: longest key, rows written per move, moves a second | {p['gap_max_key_length']:.0f} characters, {p['gap_rows_per_move']:.2f}, {p['gap_moves_per_s']:.0f}/s | short, no storm of writes |",
        f"| marking every open item ({p['complete_all_items']:,.0f}) and completing them | {p['complete_all_s']:.2f} s, {p['complete_all_rows_queued']:,.0f} rows queued to push (the items moved before had theirs queued already) | one row each |",
        "",
    ]
    replace_section("todo (terminal client)", lines)


def run_sdk(tmp):
    path = os.path.join(tmp, "sdk-server.sqlite")
    proc, port = start(os.path.join(BIN, "todo-server"), "--port", "0", "--database", path, "--log-level", "error")
    try:
        post(port, "/tables/pullbench", {"id": "schema", "text": "creates the table", "complete": False})
        sh("sqlite3", "-cmd", ".timeout 10000", path, seed_sql(ROWS, "sqlite", table_layout(sqlite_query(path), "pullbench")))
        work = os.path.join(tmp, "sdk")
        os.makedirs(work, exist_ok=True)
        out = sh(os.path.join(BIN, "todo-bench-sdk"), f"http://127.0.0.1:{port}", "pullbench", work, capture_output=True).stdout
        results = json.loads(out.strip().splitlines()[-1])
        results["app_first_pull_s"] = app_first_pull(port, path, work)
        return results
    finally:
        stop(proc)


def app_first_pull(port, path, work):
    """`todo sync` (release) into an empty store, ROWS items on the server: 3 rounds, the median."""
    post(port, "/tables/TodoItem", {"id": "schema", "text": "creates the table", "complete": False})
    sh("sqlite3", "-cmd", ".timeout 10000", path, seed_sql(ROWS, "sqlite", table_layout(sqlite_query(path), "TodoItem")))
    times = []
    for round in range(3):
        home = os.path.join(work, f"app-{round}")
        os.makedirs(home, exist_ok=True)
        env = dict(os.environ, HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
        start_time = time.monotonic()
        sh(os.path.join(BIN, "todo"), "sync", "--server", f"http://127.0.0.1:{port}", "--device", f"bench{round}", env=env, capture_output=True)
        times.append(time.monotonic() - start_time)
        listed = sh(os.path.join(BIN, "todo"), "status", "--json", "--server", f"http://127.0.0.1:{port}", "--device", f"bench{round}",
                    env=env, capture_output=True).stdout
        if json.loads(listed).get("pending") != 0:
            raise SystemExit("the app's first pull left changes pending")
    return sorted(times)[len(times) // 2]


def write_sdk_report(r):
    def row(name, value, floor, floor_name):
        return f"| {name} | {value:.2f} s | {floor:.2f} s ({floor_name}) | {value / floor:.2f}× |"
    lines = [
        "## OfflineSync",
        "",
        f"Measured by `make bench` on {datetime.date.today().isoformat()} against a release todo-server on SQLite (loopback), "
        f"release builds of the SDK and of its floors, in the same run. Pull is an incremental pull (query id) of {ROWS:,} rows into an empty store. "
        "Push and local inserts run three rounds, each beside its floor in the same round; the table shows the medians. "
        "The floors use what the SDK uses below its own logic: the SDK's own HTTP transport (AsyncHTTPClient), SQLite in WAL mode with "
        "synchronous=NORMAL, and the same JSON parser.",
        "",
        "| figure | time | floor | × floor |",
        "|---|---:|---:|---:|",
        row(f"pull {ROWS:,} rows, page size 50", r["pull_50_s"], r["pull_50_floor_s"], "same pages over the same transport, parsed by TableProtocol's JSON parser, + one raw SQLite transaction per page"),
        row(f"pull {ROWS:,} rows, page size 1,000", r["pull_1000_s"], r["pull_1000_floor_s"], "same pages over the same transport, parsed by TableProtocol's JSON parser, + one raw SQLite transaction per page"),
        row("push 10,000 queued inserts (batched)", r["push_10000_s"], r["push_10000_floor_s"], "the same 20 batches of 500 sent raw over the same transport"),
        row("10,000 local inserts through the sync table", r["local_insert_10000_s"], r["sqlite_raw_insert_10000_s"], "10,000 raw SQLite inserts, one transaction each"),
        f"| the app's first pull of {ROWS:,} items (`todo sync` on an empty store, release build: pages of 1,000, its search index built once at the end; 3 rounds, median) | {r['app_first_pull_s']:.2f} s | "
        f"{r['pull_1000_s']:.2f} s (the SDK's own pull, pages of 1,000, above) | {r['app_first_pull_s'] / r['pull_1000_s']:.2f}× |",
        row("push 1,000 updates that all meet a mergeable conflict", r["merge_push_1000_s"], r["plain_update_push_1000_s"], "the same 1,000 updates pushed without conflicts"),
        row("10,000 local inserts as typed records (`context.table(Record.self)`)", r["typed_insert_10000_s"], r["dictionary_insert_10000_s"], "the same inserts as dictionaries, alternated rounds"),
        f"| a 1,000-row read as typed records | {r['typed_read_1000_s'] * 1000:.2f} ms | {r['dictionary_read_1000_s'] * 1000:.2f} ms (the same read as dictionaries) | {r['typed_read_1000_s'] / r['dictionary_read_1000_s']:.2f}× |",
        f"| a live query over {ROWS:,} rows (first 50 by id): committed local write → new result delivered, 200 writes | p50 {r['live_query_p50_ms']:.2f} ms, p99 {r['live_query_p99_ms']:.2f} ms | — | — |",
        f"| the same live query: a pulled page of 1,000 rows committed (the pull's progress report, made right after the page's commit; a result delivered before the report counts 0) → new result delivered, 20 pages | p50 {r['live_query_pulled_page_p50_ms']:.2f} ms, max {r['live_query_pulled_page_max_ms']:.2f} ms | — | — |",
        "",
        f"Targets: pull ≤ 2× its floor (page 50: {r['pull_50_s'] / r['pull_50_floor_s']:.2f}×, page 1,000: {r['pull_1000_s'] / r['pull_1000_floor_s']:.2f}×); "
        f"push 10,000 ≤ 0.5 s ({r['push_10000_s']:.2f} s: {'met' if r['push_10000_s'] <= 0.5 else 'NOT met'}; one request per operation took 12–18 s) "
        f"and ≤ 1.5× its floor ({r['push_10000_s'] / r['push_10000_floor_s']:.2f}×); "
        f"the app's first pull ≤ 3 s ({r['app_first_pull_s']:.2f} s: {'met' if r['app_first_pull_s'] <= 3 else 'NOT met'}; 12.3 s before); "
        f"the merge path ≤ 3× per operation ({r['merge_push_1000_s'] / r['plain_update_push_1000_s']:.2f}×: each merge is a 412, a merge and a second PATCH, plus a log row); "
        f"typed writes ≤ 1.2× the dictionary form ({r['typed_insert_10000_s'] / r['dictionary_insert_10000_s']:.2f}×), typed reads ≤ 1.5× "
        f"({r['typed_read_1000_s'] / r['dictionary_read_1000_s']:.2f}×); a live query's result p99 ≤ 5 ms after a local write ({r['live_query_p99_ms']:.2f} ms) "
        f"and ≤ 20 ms after a pulled page of 1,000 ({r['live_query_pulled_page_max_ms']:.2f} ms at most).",
        "",
    ]
    replace_section("OfflineSync", lines)


def cpu_lines(pg):
    """Where each PostgreSQL figure's CPU went, per request, from its median round."""
    seconds = int(DURATION.rstrip("s"))
    runs = [("(a) pull page, todo-server (wrk)", pg["pull"]), ("(a) its SELECT, pgbench", pg["pgbench_page"]),
            ("(b) insert, todo-server (wrk)", pg["insert"]), ("(b) a plain INSERT, pgbench", pg["pgbench_insert"]),
            ("(b) todo-server's own insert statement, pgbench", pg["pgbench_clocked_insert"])]
    lines = ["CPU per request in the median round of each, read from /proc: todo-server, every PostgreSQL process, and the load "
             f"generator (wrk or pgbench), all on the same {os.cpu_count()} cores ({os.cpu_count():,} × 1,000,000 µs of CPU a second):", "",
             "| run | req/s | todo-server µs | PostgreSQL µs | wrk / pgbench µs | total µs |", "|---|---:|---:|---:|---:|---:|"]
    for title, run in runs:
        us = bench_cpu.per_request_us(run, seconds)
        server = f"{us['server']:.0f}" if title.endswith("(wrk)") else "—"
        lines.append(f"| {title} | {run['rps']:.0f} | {server} | {us['postgres']:.0f} | {us['client']:.0f} | {us['total']:.0f} |")
    budget = 1e6 * os.cpu_count() / (0.5 * pg["pgbench_page"]["rps"])
    page, floor = bench_cpu.per_request_us(pg["pull"], seconds), bench_cpu.per_request_us(pg["pgbench_page"], seconds)
    lines += ["", f"At 50% of pgbench's page rate the machine has {budget:.0f} µs of CPU per page for everything: todo-server, PostgreSQL "
              f"and wrk. In this run PostgreSQL alone took {page['postgres']:.0f} µs per page for todo-server's prepared statement "
              f"({floor['postgres']:.0f} µs for pgbench's prepared one), and todo-server {page['server']:.0f} µs. "
              "\"The PostgreSQL page's CPU\" measures that page beside the SQLite one and a paced pgbench.", ""]
    return lines


def write_report(floor, results, auth):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
    lines = [
        "# Benchmarks",
        "",
        f"Measured by `make bench` on {datetime.date.today().isoformat()}: {os.cpu_count()} cores ({cpu}), "
        f"{platform.system()} {platform.release()}, release builds, `wrk` on loopback for {DURATION} per figure "
        "(16 connections on one wrk thread; PATCH: 4 connections, each patching its own item with the ETag it last got). "
        "wrk and the server share the same two cores.",
        "",
        "## todo-server",
        "",
        f"Floor, measured in the same run: a trivial Hummingbird route returning a pre-built 50-item JSON page: "
        f"**{floor['rps']:.0f} req/s**, p50 {floor['p50_ms']:.2f} ms, p99 {floor['p99_ms']:.2f} ms. "
        "Both servers install NIO's event loops as Swift's global executor, so handlers run on the socket's thread. "
        f"The floor and (a) on SQLite are measured in {ROUNDS} alternating rounds and each shown by its median round; "
        "every other figure is one run.",
        "",
        "(a) repeats one URL, as a device polling for changes does until something changes: the server reuses the "
        "query's plan (parsed filter and SQL, checked against the table's schema) and reads the rows on every request. "
        "(a′) gives every request its own token, as the pages of a real pull have, so each one is parsed and planned.",
        "",
        "| scenario | store | req/s | p50 ms | p99 ms | errors | % of floor req/s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    names = {"pull": f"(a) incremental-pull page of 50 on {ROWS:,} rows",
             "pull_new_token": "(a′) the same page, a new token on every request",
             "insert": "(b) insert (POST)", "patch": "(c) PATCH with If-Match"}
    for key, title in names.items():
        for store, figures in results.items():
            r = figures[key]
            lines.append(f"| {title} | {store} | {r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['errors']} | {100 * r['rps'] / floor['rps']:.0f}% |")
    target = results["SQLite"]["pull"]["rps"] / floor["rps"]
    lines += ["", f"Target for (a) on SQLite: at least 50% of the floor's throughput — measured **{100 * target:.1f}%**"
              f" ({'met' if target >= 0.5 else 'NOT met'}).", ""]
    if "PostgreSQL" in results:
        pg = results["PostgreSQL"]
        page, insert = pg["pull"]["rps"] / pg["pgbench_page"]["rps"], pg["insert"]["rps"] / pg["pgbench_insert"]["rps"]
        clocked = pg["pgbench_clocked_insert"]
        lines += [
            "### PostgreSQL beside PostgreSQL itself",
            "",
            f"The floor of the PostgreSQL figures is the database: `pgbench -M prepared` over {bench_pgbench.POOL} connections (todo-server's pool), "
            "against the same table in the same run, running (a)'s own SELECT (taken from PostgreSQL's statement log, same parameters) "
            f"and a plain INSERT of a row of that table. {ROUNDS} alternating rounds, medians.",
            "",
            "| figure | todo-server req/s | pgbench tps | share | target |",
            "|---|---:|---:|---:|---:|",
            f"| (a) pull page | {pg['pull']['rps']:.0f} | {pg['pgbench_page']['rps']:.0f} | {100 * page:.0f}% | ≥ 50% ({'met' if page >= 0.5 else 'NOT met'}) |",
            f"| (b) insert | {pg['insert']['rps']:.0f} | {pg['pgbench_insert']['rps']:.0f} | {100 * insert:.0f}% | ≥ 50% ({'met' if insert >= 0.5 else 'NOT met'}) |",
            f"| (b) insert beside pgbench running todo-server's own insert statement | {pg['insert']['rps']:.0f} | {clocked['rps']:.0f} | {100 * pg['insert']['rps'] / clocked['rps']:.0f}% | — |",
            "",
            "The last row's floor is the statement todo-server runs for an insert (taken from the log as (a)'s SELECT, a fresh id per run): "
            "the table clock's tick, the row and its change notice in one statement. Every write to a table takes that table's clock row "
            "until it commits (so `updatedAt` rises in commit order and an incremental pull never skips a write), so writes to one table "
            f"run one at a time: PostgreSQL itself runs that statement at {100 * clocked['rps'] / pg['pgbench_insert']['rps']:.0f}% of the plain INSERT's rate.",
            "",
        ] + cpu_lines(pg)
    plain, signed = auth["plain"], auth["signed"]
    cost = 1 - signed["rps"] / plain["rps"]
    lines += [
        "### The same page with accounts",
        "",
        f"(a) on SQLite with `--auth required` (a token in `X-ZUMO-AUTH`, checked on every request: HS256 signature, expiry, "
        f"and the account's password generation from a copy at most 0.5 s old) beside (a) without accounts, two servers on one file, "
        f"{ROUNDS} alternating rounds, medians:",
        "",
        "| page | req/s | p50 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|",
        f"| without accounts | {plain['rps']:.0f} | {plain['p50_ms']:.2f} | {plain['p99_ms']:.2f} | {plain['errors']} |",
        f"| with `--auth required` | {signed['rps']:.0f} | {signed['p50_ms']:.2f} | {signed['p99_ms']:.2f} | {signed['errors']} |",
        "",
        f"Target: the token check costs at most 10% of the page's throughput — measured **{100 * cost:.0f}%** "
        f"({'met' if cost <= 0.10 else 'NOT met'}).",
        "",
    ]
    path = os.path.join(ROOT, "BENCHMARKS.md")
    old = open(path).read() if os.path.exists(path) else ""
    # Keep other sections (the SDK and the client add their own) and replace only this one.
    sections = re.split(r"(?m)^## ", old)
    others = ["## " + s for s in sections[1:] if not s.startswith("todo-server")]
    open(path, "w").write("\n".join(lines) + ("\n\n" + "\n".join(o.rstrip() + "\n" for o in others) if others else ""))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
