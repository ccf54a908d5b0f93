"""Namespaces (#23), imported by bench.py (`BENCH_ONLY=namespaces` runs only this section):

1. The pull page and insert of todo-server beside the server before namespaces (BASELINE_BIN,
   a release build of the commit before), alternated rounds on the same machine, both stores.
2. A login flood: 16 clients, each from an address of its own on 127/8, posting logins with
   random names, while one signed-in user reads a page; beside the same reads with no flood.
3. Inserts from 50 accounts on PostgreSQL with every commit taking 1 ms (`commit_delay=1000`,
   `commit_siblings=0`, on a cluster of its own with fsync on) beside the same without the
   delay, and beside one account alone.
"""
import datetime, json, os, random, shutil, string, subprocess, tempfile, threading, time, http.client, urllib.error, urllib.request

import benchlib

# The last commit before namespaces: its server is built beside this one and measured alternately.
BASELINE_COMMIT = "e18f09e"
ACCOUNTS = int(os.environ.get("BENCH_ACCOUNTS", "50"))
FLOOD_CLIENTS = 16


def old_seed_sql(rows, dialect, table="bench"):
    """The seed in the layout of the server before namespaces: one physical table per table name,
    the anonymous owner "", one clock row per table."""
    layout = {"table": table, "text": "text", "complete": "complete", "ns": "", "name": table, "per_table_clock": True}
    return benchlib.seed_sql(rows, dialect, layout)


def seeded_server(binary, database, query, dialect, new_layout):
    proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--log-level", "error")
    benchlib.post(port, "/tables/bench", {"id": "schema", "text": "creates the table", "complete": False})
    if new_layout:
        query(benchlib.seed_sql(benchlib.ROWS, dialect, benchlib.table_layout(query, "bench")))
    else:
        query(old_seed_sql(benchlib.ROWS, dialect))
    return proc, port


def page_and_insert(old_bin, new_bin, tmp, pg):
    """(a) and (b) of the server section, old and new binaries alternated; medians."""
    stores = [("SQLite", "sqlite")] + ([("PostgreSQL", "postgres")] if pg else [])
    results = {}
    for name, dialect in stores:
        servers = {}
        for label, binary in (("before", old_bin), ("namespaces", new_bin)):
            if dialect == "sqlite":
                database = os.path.join(tmp, f"ns-{label}.sqlite")
                query = benchlib.sqlite_query(database)
            else:
                db = f"ns_{label}"
                benchlib.sh("psql", pg, "-X", "-q", "-c", f"DROP DATABASE IF EXISTS {db}", "-c", f"CREATE DATABASE {db}", capture_output=True)
                database = pg.rsplit("/", 1)[0] + "/" + db
                query = benchlib.psql_query(database)
            servers[label] = seeded_server(binary, database, query, dialect, label == "namespaces")
        try:
            runs = {(label, figure): [] for label in servers for figure in ("page", "insert")}
            for _ in range(benchlib.ROUNDS):
                for label, (_, port) in servers.items():
                    base = f"http://127.0.0.1:{port}/tables/bench"
                    runs[(label, "page")].append(benchlib.wrk(f"{base}?{benchlib.pull_query()}", "get.lua"))
                    runs[(label, "insert")].append(benchlib.wrk(base, "insert.lua"))
            results[name] = {key: benchlib.median(value) for key, value in runs.items()}
        finally:
            for proc, _ in servers.values():
                benchlib.stop(proc)
    return results


def flood_worker(port, index, stop, counts):
    """Logins with random names from 127.0.0.<index + 2>, one after another on one connection."""
    source = (f"127.0.0.{index + 2}", 0)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=source)
    while not stop.is_set():
        name = "".join(random.choices(string.ascii_lowercase, k=12))
        try:
            conn.request("POST", "/.auth/login", json.dumps({"username": name, "password": "guess"}), benchlib.HEADERS)
            status = conn.getresponse()
            status.read()
            counts[status.status] = counts.get(status.status, 0) + 1
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=source)


def login_flood(binary, tmp, label):
    """p50/p99 of a signed-in user's page (one connection) with and without the flood."""
    database = os.path.join(tmp, f"flood-{label}.sqlite")
    benchlib.sh(binary, "users", "add", "reader", "--password-stdin", "--database", database, input="reader password\n", capture_output=True)
    proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--log-level", "error", "--auth", "required")
    try:
        token = benchlib.post(port, "/.auth/login", {"username": "reader", "password": "reader password"})["authenticationToken"]
        url = f"http://127.0.0.1:{port}/tables/TodoItem"
        quiet = benchlib.wrk(url, "get_auth.lua", connections=1, env={"BENCH_TOKEN": token})
        stop, counts = threading.Event(), {}
        workers = [threading.Thread(target=flood_worker, args=(port, i, stop, counts), daemon=True) for i in range(FLOOD_CLIENTS)]
        for worker in workers:
            worker.start()
        time.sleep(1)  # the flood under way first
        flooded = benchlib.wrk(url, "get_auth.lua", connections=1, env={"BENCH_TOKEN": token})
        stop.set()
        for worker in workers:
            worker.join(timeout=60)
        return {"quiet": quiet, "flooded": flooded, "logins": dict(counts)}
    finally:
        benchlib.stop(proc)


def start_cluster(tmp):
    """A PostgreSQL cluster of its own with fsync and synchronous commits on, so commit_delay works."""
    pg_bin = sorted(d for d in (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")))[-1]
    # A folder of its own that the postgres user can reach (bench's tmp is root's alone).
    data = tempfile.mkdtemp(prefix="todo-pg-commit.")
    os.chmod(data, 0o755)
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
    port = benchlib.sh("python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])", capture_output=True).stdout.strip()
    benchlib.sh(*as_pg, f"{pg_bin}/initdb", "-D", data + "/d", "-A", "trust", "-U", "postgres", "--no-locale", "-E", "UTF8", capture_output=True)
    benchlib.sh(*as_pg, f"{pg_bin}/pg_ctl", "-D", data + "/d", "-l", data + "/log", "-w", "-o",
                f"-c listen_addresses=127.0.0.1 -p {port} -k {data} -c max_connections=200", "start", capture_output=True)
    url = f"postgres://postgres@127.0.0.1:{port}/postgres"
    def stop():
        benchlib.sh(*as_pg, f"{pg_bin}/pg_ctl", "-D", data + "/d", "-m", "immediate", "stop", capture_output=True)
        shutil.rmtree(data, ignore_errors=True)
    return url, stop


def set_commit_delay(url, micros):
    benchlib.sh("psql", url, "-X", "-q", "-c", f"ALTER SYSTEM SET commit_delay = {micros}", "-c", "ALTER SYSTEM SET commit_siblings = 0",
                "-c", "SELECT pg_reload_conf()", capture_output=True)


def account_tokens(binary, url, port, count):
    tokens = []
    for n in range(count):
        name = f"writer{n}"
        benchlib.sh(binary, "users", "add", name, "--password-stdin", "--database", url, input="writer password\n", capture_output=True)
        token = benchlib.post(port, "/.auth/login", {"username": name, "password": "writer password"})["authenticationToken"]
        req = urllib.request.Request(f"http://127.0.0.1:{port}/tables/bench", method="POST", headers={**benchlib.HEADERS, "X-ZUMO-AUTH": token},
                                     data=json.dumps({"id": "schema", "text": "creates the table", "complete": False}).encode())
        try:
            urllib.request.urlopen(req).read()
        except urllib.error.HTTPError as error:
            # The server before namespaces refused a new account's token until its copy of the
            # accounts was refreshed (at most 0.5 s).
            if error.code != 401:
                raise
            time.sleep(0.6)
            urllib.request.urlopen(req).read()
        tokens.append(token)
    return tokens


# The servers of the slow-commit figures: the one before namespaces (its pool of 8 connections,
# fixed then), this one with the same pool, and this one with a connection per writing account.
COMMIT_SERVERS = (("before", "old", []), ("namespaces", "new", []),
                  ("namespaces, `--database-pool-size 50`", "new", ["--database-pool-size", str(ACCOUNTS)]))


def slow_commits(old_bin, new_bin, tmp):
    """Inserts/s from ACCOUNTS accounts (and from one) with and without a 1 ms commit."""
    url, stop_cluster = start_cluster(tmp)
    try:
        servers = {}
        for index, (label, which, flags) in enumerate(COMMIT_SERVERS):
            binary = old_bin if which == "old" else new_bin
            db = f"commit_{index}"
            benchlib.sh("psql", url, "-X", "-q", "-c", f"CREATE DATABASE {db}", capture_output=True)
            database = url.rsplit("/", 1)[0] + "/" + db
            proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--log-level", "error", "--auth", "required", *flags)
            servers[label] = (proc, port, account_tokens(binary, database, port, ACCOUNTS))
        runs = {}
        for _ in range(benchlib.ROUNDS):
            for delay in (0, 1000):
                set_commit_delay(url, delay)
                for label, (_, port, tokens) in servers.items():
                    for accounts in (ACCOUNTS, 1):
                        result = benchlib.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua", connections=ACCOUNTS,
                                              env={"BENCH_TOKENS": ",".join(tokens[:accounts])})
                        runs.setdefault((label, delay, accounts), []).append(result)
        set_commit_delay(url, 0)
        for proc, _, _ in servers.values():
            benchlib.stop(proc)
        return {key: benchlib.median(value) for key, value in runs.items()}
    finally:
        stop_cluster()


def report(pages, floods, commits):
    lines = ["## Namespaces", "",
             f"Measured by `make bench` on {datetime.date.today()} (`BENCH_ONLY=namespaces` runs this section alone). "
             "\"before\" is a release build of the server before namespaces (the commit before them, built beside this one), "
             f"alternated with this one round by round, {benchlib.ROUNDS} rounds of {benchlib.DURATION} each, medians.", "",
             "### The pull page and insert, before and after", "",
             "| store | figure | before req/s | namespaces req/s | change | p99 ms before → after |", "|---|---|---:|---:|---:|---|"]
    for store, result in pages.items():
        for figure, title in (("page", "(a) incremental-pull page of 50 on 100,000 rows"), ("insert", "(b) insert (POST)")):
            old, new = result[("before", figure)], result[("namespaces", figure)]
            change = (new["rps"] / old["rps"] - 1) * 100
            lines.append(f"| {store} | {title} | {old['rps']:.0f} | {new['rps']:.0f} | {change:+.0f}% | {old['p99_ms']:.2f} → {new['p99_ms']:.2f} |")
    lines += ["", "Target: within 10% of the figures before namespaces, in the same run.", "",
              "### Signing in under a login flood", "",
              f"{FLOOD_CLIENTS} clients, each from an address of its own (127.0.0.2 …), post logins with random names as fast as "
              "they are answered, while one signed-in user reads `GET /tables/TodoItem` on one connection (wrk, "
              f"{benchlib.DURATION}); beside the same reads with no flood (the floor). SQLite, `--auth required`.", "",
              "| server | reads, no flood: p50 / p99 ms | reads under the flood: p50 / p99 ms | req/s under the flood | logins answered (status: count) |",
              "|---|---|---|---:|---|"]
    for label, result in floods.items():
        q, f = result["quiet"], result["flooded"]
        logins = ", ".join(f"{status}: {count}" for status, count in sorted(result["logins"].items()))
        lines.append(f"| {label} | {q['p50_ms']:.2f} / {q['p99_ms']:.2f} | {f['p50_ms']:.2f} / {f['p99_ms']:.2f} | {f['rps']:.0f} | {logins} |")
    lines += ["", "Target: p99 ≤ 50 ms under the flood.", "",
              "### Inserts of many accounts with slow commits", "",
              f"PostgreSQL on a cluster of its own with fsync and synchronous commits on; `commit_delay` 0 or 1000 µs with "
              f"`commit_siblings=0` (every commit waits 1 ms, as a cloud disk's flush does). wrk with {ACCOUNTS} connections, each "
              f"request as the next of {ACCOUNTS} accounts (or all as one account), every account inserting into its own `bench` table.", "",
              "| server | accounts | req/s, commit 0 ms | req/s, commit 1 ms | 1 ms / 0 ms |", "|---|---:|---:|---:|---:|"]
    for label, _, _ in COMMIT_SERVERS:
        for accounts in (ACCOUNTS, 1):
            fast, slow = commits[(label, 0, accounts)], commits[(label, 1000, accounts)]
            lines.append(f"| {label} | {accounts} | {fast['rps']:.0f} | {slow['rps']:.0f} | {slow['rps'] / fast['rps'] * 100:.0f}% |")
    lines += ["", f"Targets: {ACCOUNTS} accounts with 1 ms commits ≥ 80% of the same without the delay; {ACCOUNTS} accounts at least one account's rate.",
              "One account's writes still take its one clock row each until they commit (so its pulls never skip a write): "
              "its rate with slow commits is bounded by the commit time whatever the pool; accounts side by side are bounded by the connections."]
    return lines


def baseline_binary(root):
    """todo-server of BASELINE_COMMIT, release (`BENCH_BASELINE_BIN` names a ready one instead):
    its sources from `git archive`, built in `.build-baseline` (kept, so later runs are incremental)."""
    if os.environ.get("BENCH_BASELINE_BIN"):
        return os.environ["BENCH_BASELINE_BIN"]
    home = os.path.join(root, ".build-baseline")
    src = os.path.join(home, "src")
    if not os.path.exists(os.path.join(src, "Package.swift")):
        os.makedirs(src, exist_ok=True)
        archive = subprocess.run(["git", "-C", root, "archive", BASELINE_COMMIT], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    build = ["swift", "build", "-c", "release", "--scratch-path", os.path.join(home, "build")]
    subprocess.run(build + ["--product", "todo-server"], cwd=src, check=True)
    return os.path.join(subprocess.run(build + ["--show-bin-path"], cwd=src, check=True, capture_output=True, text=True).stdout.strip(), "todo-server")


def run(new_bin, tmp, pg):
    """Measures the section; answers its lines."""
    old_bin = baseline_binary(benchlib.ROOT)
    pages = page_and_insert(old_bin, new_bin, tmp, pg)
    print("namespaces: pages", {store: {f"{k[0]} {k[1]}": v["rps"] for k, v in r.items()} for store, r in pages.items()}, flush=True)
    floods = {label: login_flood(binary, tmp, label) for label, binary in (("before", old_bin), ("namespaces", new_bin))}
    print("namespaces: floods", floods, flush=True)
    commits = slow_commits(old_bin, new_bin, tmp)
    return report(pages, floods, commits)
