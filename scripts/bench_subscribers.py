"""Ten thousand subscribers (#28), imported by bench.py (`BENCH_ONLY=subscribers` runs only this).

One todo-server on SQLite, FANOUT change feeds open on one table: the server's memory per feed
(feeds opened from this process), inserts/s into another table with the feeds open beside the
same without them (wrk, the same server), and the time from sending a write until each feed has
read its event, each write alone, WRITES of them, measured by Benchmarks/FanOut/fanout_reader.c
(compiled here), which opens the feeds again and reads them through epoll."""
import datetime, http.client, json, os, resource, shutil, subprocess, time

import bench_feed
import benchlib

FANOUT = int(os.environ.get("BENCH_FANOUT", "10000"))
WRITES = int(os.environ.get("BENCH_FANOUT_WRITES", "20"))


def run(binary, tmp):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FANOUT + 200:
        return {"skipped": f"this process may open only {hard} files"}
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    proc, port = benchlib.start(binary, "--port", "0", "--database", os.path.join(tmp, "fanout.sqlite"), "--log-level", "error",
                                "--max-feeds-per-account", str(FANOUT + 10))
    headers = {"ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"}
    conn = http.client.HTTPConnection("127.0.0.1", port)
    results = {}
    try:
        for table in ("fan", "bench"):
            conn.request("POST", f"/tables/{table}", json.dumps({"id": "schema", "text": "x"}), headers)
            conn.getresponse().read()
        time.sleep(1)
        before = bench_feed.rss_kb(proc.pid)
        started = time.monotonic()
        socks = [bench_feed.subscribe(port, "fan") for _ in range(FANOUT)]
        results["subscribe_s"] = time.monotonic() - started
        time.sleep(2)
        results["kb_each"] = (bench_feed.rss_kb(proc.pid) - before) / FANOUT
        results["server_mb"] = bench_feed.rss_kb(proc.pid) / 1024
        results["insert_with"] = benchlib.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua")
        for s in socks:
            s.close()
        time.sleep(2)
        results["insert_without"] = benchlib.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua")
    finally:
        conn.close()
        benchlib.stop(proc)
    # The floor: as many idle keep-alive connections that each made one request, on a fresh server.
    results["keepalive_kb_each"] = bench_feed.memory_each(binary, tmp, bench_feed.keep_alive, "keepalive", count=FANOUT)
    # A fresh server: the feeds closed above count (and are written to) until their next heartbeat.
    reader = os.path.join(tmp, "fanout_reader")
    compiler = shutil.which("cc") or shutil.which("clang")
    benchlib.sh(compiler, "-O2", "-o", reader, os.path.join(benchlib.ROOT, "Benchmarks", "FanOut", "fanout_reader.c"))
    fanouts = []
    for n in range(benchlib.ROUNDS):
        proc, port = benchlib.start(binary, "--port", "0", "--database", os.path.join(tmp, f"fanout-{n}.sqlite"), "--log-level", "error",
                                    "--max-feeds-per-account", str(FANOUT + 10))
        try:
            benchlib.post(port, "/tables/fan", {"id": "schema", "text": "x"})
            run = subprocess.run([reader, str(port), "fan", str(FANOUT), str(WRITES)], capture_output=True, text=True)
            if run.returncode != 0:
                raise SystemExit(f"bench: fanout_reader failed: {run.stderr.strip()}")
            fanouts.append(json.loads(run.stdout.strip().splitlines()[-1]))
        finally:
            benchlib.stop(proc)
    # The round with the median p99.
    results["fanout"] = benchlib.median(fanouts, key="p99_ms")
    results["fanout_p99s"] = [f["p99_ms"] for f in fanouts]
    return results


def report(r):
    if "skipped" in r:
        print(f"bench: ten thousand subscribers skipped: {r['skipped']}")
        return
    ratio = r["insert_with"]["rps"] / r["insert_without"]["rps"]
    f = r["fanout"]
    lines = [
        "## Ten thousand subscribers",
        "",
        f"Measured by `make bench` (`BENCH_ONLY=subscribers`) on {datetime.date.today().isoformat()}, release build, loopback, one "
        f"todo-server on SQLite (it raises its own open-file limit to the hard limit at start and logs how many connections that "
        f"allows). {FANOUT:,} change feeds on one table, opened one after another ({r['subscribe_s']:.0f} s). Inserts: `wrk` "
        "(insert.lua) into another table with the feeds open, then without them, on the same server (one round each). "
        f"Fan-out: {WRITES} writes to that table, each alone, and the time from sending each until every feed has read its "
        f"event ({f['arrivals']:,} arrivals per round), read by `Benchmarks/FanOut/fanout_reader.c` (C, epoll) on the same 2 cores; "
        f"a fresh server per round, {len(r['fanout_p99s'])} rounds (p99s: {', '.join(f'{p:.0f}' for p in r['fanout_p99s'])} ms), the median round shown.",
        "",
        "| figure | value | target |",
        "|---|---:|---:|",
        f"| server memory per open feed (RSS growth over {FANOUT:,}) | {r['kb_each']:.1f} KB (server {r['server_mb']:.0f} MB) | ≤ 20 KB ({'met' if r['kb_each'] <= 20 else 'NOT met'}) |",
        f"| one write → its event on every feed, p50 / p99 / max | {f['p50_ms']:.0f} / {f['p99_ms']:.0f} / {f['max_ms']:.0f} ms | p99 ≤ 200 ms ({'met' if f['p99_ms'] <= 200 else 'NOT met'}) |",
        f"| inserts/s with {FANOUT:,} feeds open / without | {r['insert_with']['rps']:,.0f} / {r['insert_without']['rps']:,.0f} ({ratio:.0%}) | ≥ 90% ({'met' if ratio >= 0.9 else 'NOT met'}) |",
        f"| floor: server memory per idle keep-alive connection that made one request (RSS growth over {FANOUT:,}, a fresh server) | {r['keepalive_kb_each']:.1f} KB | — |",
        "",
        "A feed is an HTTP connection whose response never ends: most of its memory is the connection's (Hummingbird's and "
        "SwiftNIO's channel, pipeline and handlers, and the async frames of the task that serves it), which the floor row "
        "measures for a connection waiting for its next request. The feed's own part is its subscription in the hub and the "
        "suspended loop that writes its events; the server ends every feed at once when a graceful shutdown begins "
        "(`FeedShutdown`), rather than each feed watching for it (a watch per feed cost 11 KB and a task switch per event).",
        "",
    ]
    benchlib.replace_section("Ten thousand subscribers", lines)
