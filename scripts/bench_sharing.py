"""Shared lists (#27), imported by bench.py (`BENCH_ONLY=sharing` runs only this section):

1. Live across people: ann renames an item of a list shared with bob; the time until bob's open
   list shows it, both apps live (todo-bench-client shared), beside the same from ann's device
   to her other one (the floor: one account). On SQLite (one process), and on PostgreSQL with
   ann and bob on two server processes.
2. A shared list of ITEMS items: a new member's (carol's) first sync on a fresh device, beside
   dave's fresh device pulling as many items of his own (the floor).
"""
import json, os, subprocess, uuid

import benchlib

ROUNDS = int(os.environ.get("BENCH_SHARED_ROUNDS", "100"))
ITEMS = int(os.environ.get("BENCH_SHARED_ITEMS", "10000"))
USERS = ["ann", "bob", "carol", "dave"]


def add_users(binary, database):
    for user in USERS:
        subprocess.run([binary, "users", "add", user, "--password-stdin", "--database", database],
                       input=f"password {user}\n", capture_output=True, text=True, check=True)


def measure(client, port_a, port_b):
    out = subprocess.run([client, "shared", f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}", str(ROUNDS), str(ITEMS)],
                         capture_output=True, text=True, check=True, timeout=ROUNDS * 3 + 300).stdout
    return json.loads(out.strip().splitlines()[-1])


def run(binary, tmp):
    client = os.path.join(os.path.dirname(binary), "todo-bench-client")
    results = {}
    database = os.path.join(tmp, f"sharing-{uuid.uuid4().hex[:8]}.sqlite")
    add_users(binary, database)
    proc, port = benchlib.start(binary, "--port", "0", "--database", database, "--auth", "required", "--log-level", "error")
    try:
        results["sqlite"] = measure(client, port, port)
    finally:
        benchlib.stop(proc)
    pg = os.environ.get("TODO_TEST_POSTGRES_URL")
    if pg:
        db = f"sharing_{uuid.uuid4().hex[:8]}"
        benchlib.sh("psql", pg, "-X", "-q", "-c", f"CREATE DATABASE {db}", capture_output=True)
        url = pg.rsplit("/", 1)[0] + "/" + db
        add_users(binary, url)
        a, port_a = benchlib.start(binary, "--port", "0", "--database", url, "--auth", "required", "--log-level", "error")
        b, port_b = benchlib.start(binary, "--port", "0", "--database", url, "--auth", "required", "--log-level", "error")
        try:
            results["postgres"] = measure(client, port_a, port_b)
        finally:
            benchlib.stop(a)
            benchlib.stop(b)
    return results


def report(r, date):
    def verdict(ok):
        return "met" if ok else "NOT met"
    lines = [
        "## Shared lists",
        "",
        f"Measured by `make bench` (`BENCH_ONLY=sharing`) on {date}, release build, a server requiring accounts. "
        "Live across people: ann renames an item of a list she shares with bob, 350 ms apart so each push leaves alone "
        f"({ROUNDS} rounds); the time until bob's open list shows it, both apps live as the terminal client runs them "
        "(ann's automatic push, the combined feed, bob's pull of his spaces, his list's live query). The floor is the same "
        "path from ann's device to her other one (one account). On PostgreSQL ann and bob use two server processes on "
        f"one database. First sync: carol, just added to a shared list of {ITEMS:,} items, syncs a fresh device (her "
        f"spaces listed, the list and its items pulled); the floor is dave's fresh device pulling {ITEMS:,} items of his own.",
        "",
        "| store | across people p50 / p99 | floor (one account) p50 / p99 | target | first sync of the shared list | floor (own items) | target |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for store, name in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
        if store not in r:
            continue
        x = r[store]
        lines.append(f"| {name} | {x['shared_p50_ms']:.1f} / {x['shared_p99_ms']:.1f} ms | {x['own_p50_ms']:.1f} / {x['own_p99_ms']:.1f} ms "
                     f"| p99 ≤ 50 ms ({verdict(x['shared_p99_ms'] <= 50)}) | {x['first_sync_ms'] / 1000:.2f} s | {x['own_first_sync_ms'] / 1000:.2f} s "
                     f"| ≤ 1 s ({verdict(x['first_sync_ms'] <= 1000)}) |")
    lines += ["", "100 spaces × 10 members under load: see \"Shared spaces under load\" (`make load`).", ""]
    benchlib.replace_section("Shared lists", lines)
