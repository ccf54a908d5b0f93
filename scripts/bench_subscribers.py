"""Ten thousand subscribers (#28), imported by bench.py (`BENCH_ONLY=subscribers` runs only this).

One todo-server on SQLite, FANOUT change feeds open on one table (plain sockets from this
process, read through epoll): the server's memory per feed, the time from sending a write until
each feed has its event (each write alone, WRITES of them; measured when this process reads the
event, so it includes reading ten thousand sockets in Python), and inserts/s into another table
with the feeds open beside the same without them (wrk, the same server)."""
import datetime, http.client, json, os, resource, selectors, time

FANOUT = int(os.environ.get("BENCH_FANOUT", "10000"))
WRITES = int(os.environ.get("BENCH_FANOUT_WRITES", "20"))


def run(bench, bench_feed, binary, tmp):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FANOUT + 200:
        return {"skipped": f"this process may open only {hard} files"}
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    proc, port = bench.start(binary, "--port", "0", "--database", os.path.join(tmp, "fanout.sqlite"), "--log-level", "error",
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
        selector = selectors.DefaultSelector()
        for s in socks:
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ)
        arrivals = []
        for n in range(WRITES):
            item = f"fan-{n}"
            needle = f'"id":"{item}"'.encode()
            pending = {s.fileno(): b"" for s in socks}
            sent = time.perf_counter()
            conn.request("POST", "/tables/fan", json.dumps({"id": item, "text": "to everyone"}), headers)
            while pending:
                for key, _ in selector.select(timeout=10):
                    fd = key.fd
                    try:
                        data = key.fileobj.recv(65536)
                    except BlockingIOError:
                        continue
                    if fd in pending:
                        pending[fd] += data
                        if needle in pending[fd]:
                            arrivals.append((time.perf_counter() - sent) * 1000)
                            del pending[fd]
            conn.getresponse().read()
            time.sleep(0.5)
        arrivals.sort()
        results["fanout"] = {"p50": arrivals[len(arrivals) // 2], "p99": arrivals[int(len(arrivals) * 0.99) - 1], "max": arrivals[-1]}
        results["insert_with"] = bench.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua")
        for s in socks:
            selector.unregister(s)
            s.close()
        time.sleep(2)
        results["insert_without"] = bench.wrk(f"http://127.0.0.1:{port}/tables/bench", "insert.lua")
    finally:
        conn.close()
        bench.stop(proc)
    return results


def report(r, replace_section):
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
        f"allows). {FANOUT:,} change feeds on one table, opened one after another by one Python process "
        f"({r['subscribe_s']:.0f} s). Fan-out: {WRITES} writes to that table, each alone, and the time from sending each until "
        f"every feed has read its event ({FANOUT * WRITES:,} arrivals), read by that Python process through epoll, so it includes "
        "reading ten thousand sockets in Python. Inserts: `wrk` (insert.lua) into another table with the feeds open, then "
        "without them, on the same server (one round each).",
        "",
        "| figure | value | target |",
        "|---|---:|---:|",
        f"| server memory per open feed (RSS growth over {FANOUT:,}) | {r['kb_each']:.1f} KB (server {r['server_mb']:.0f} MB) | ≤ 20 KB ({'met' if r['kb_each'] <= 20 else 'NOT met'}) |",
        f"| one write → its event on every feed, p50 / p99 / max | {f['p50']:.0f} / {f['p99']:.0f} / {f['max']:.0f} ms | p99 ≤ 200 ms ({'met' if f['p99'] <= 200 else 'NOT met'}) |",
        f"| inserts/s with {FANOUT:,} feeds open / without | {r['insert_with']['rps']:,.0f} / {r['insert_without']['rps']:,.0f} ({ratio:.0%}) | ≥ 90% ({'met' if ratio >= 0.9 else 'NOT met'}) |",
        "",
    ]
    replace_section("Ten thousand subscribers", lines)
