#!/usr/bin/env python3
"""`make soak MINUTES=60`: SOAK_DEVICES signed-in devices (default 100, two per account; the real
SDK with live sync: change feed, automatic pushes, pulls on events) write a round every
SOAK_INTERVAL seconds (default 1, ± half) for MINUTES minutes against two todo-server processes
on one PostgreSQL, both reading its hot standby (`--read-database`; scripts/with-postgres.sh makes
it). Then every device drains and pulls, and each account is checked as `make load` checks
(todo-load soak). Targets: 0 lost, 0 duplicated, every device converged; each server's memory at
the end at most 10% above its memory after the first 5 minutes (a twelfth of a shorter run); the
p99 request latency of the last 10 minutes at most 1.2× the first 10 minutes' (a sixth of a
shorter run). Exits 1 when a write was lost or duplicated or a device diverged, and, for runs of
10 minutes or more, when a target is missed. A run of 10 minutes or more writes the "Soak"
section of BENCHMARKS.md. SOAK_BUILD=debug uses the debug build instead of a release one."""
import datetime, json, os, subprocess, sys, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402 (a sibling module)
MINUTES = float(os.environ.get("MINUTES", "60"))
DEVICES = int(os.environ.get("SOAK_DEVICES", "100"))
INTERVAL = float(os.environ.get("SOAK_INTERVAL", "1"))


def binaries():
    if os.environ.get("SOAK_BUILD") == "debug":
        build = ["swift", "build"]
    else:
        build = ["swift", "build", "-c", "release", "--scratch-path", os.path.join(ROOT, ".build-release")]
    for product in ("todo-server", "todo-load"):
        subprocess.run([*build, "--product", product], cwd=ROOT, check=True)
    return subprocess.run([*build, "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def main():
    pg, standby = os.environ.get("TODO_TEST_POSTGRES_URL"), os.environ.get("TODO_TEST_POSTGRES_STANDBY_URL")
    if not (pg and standby):
        sys.exit("soak: run through scripts/with-postgres.sh (it makes the PostgreSQL cluster and its standby)")
    bin_dir = binaries()
    server = os.path.join(bin_dir, "todo-server")
    db = f"soak_{uuid.uuid4().hex[:8]}"
    benchlib.sh("psql", pg, "-X", "-q", "-c", f"CREATE DATABASE {db}", capture_output=True)
    url, standby_url = pg.rsplit("/", 1)[0] + "/" + db, standby.rsplit("/", 1)[0] + "/" + db
    users = "soak" + uuid.uuid4().hex[:6]
    for n in range((DEVICES + 1) // 2):
        benchlib.sh(server, "users", "add", f"{users}-{n}", "--password-stdin", "--database", url, input=f"password {users}-{n}\n", capture_output=True)
    arguments = ("--port", "0", "--database", url, "--read-database", standby_url, "--auth", "required", "--log-level", "error")
    servers = [benchlib.start(server, *arguments) for _ in range(2)]
    tmp = subprocess.run(["mktemp", "-d"], capture_output=True, text=True).stdout.strip()
    try:
        args = [os.path.join(bin_dir, "todo-load"), "soak", "--devices", str(DEVICES), "--seconds", str(int(MINUTES * 60)),
                "--interval", str(INTERVAL), "--users", users, "--work", tmp, "--table", "soak_" + uuid.uuid4().hex[:8]]
        for proc, port in servers:
            args += ["--server", f"http://127.0.0.1:{port}", "--server-pid", str(proc.pid)]
        run = subprocess.run(args, capture_output=True, text=True)
        sys.stderr.write(run.stderr[-4000:])
        if run.returncode == 2 or not run.stdout.strip():
            sys.exit("soak: todo-load failed")
        report = json.loads(run.stdout.strip().splitlines()[-1])
    finally:
        for proc, _ in servers:
            benchlib.stop(proc)
    clean = run.returncode == 0
    memory_ok = all(m["growth"] <= 0.10 for m in report["memory"])
    latency_ok = report["p99Ratio"] <= 1.2
    lines = report_lines(report, clean, memory_ok, latency_ok)
    print("\n".join(lines))
    if MINUTES >= 10:
        benchlib.replace_section("Soak", lines)
    if not clean or (MINUTES >= 10 and not (memory_ok and latency_ok)):
        sys.exit(1)


def report_lines(r, clean, memory_ok, latency_ok):
    def verdict(ok):
        return "met" if ok else "NOT met"
    span = min(600, r["seconds"] / 6) / 60
    lines = [
        "## Soak",
        "",
        f"Measured by `make soak MINUTES={MINUTES:g}` on {datetime.date.today().isoformat()}, "
        f"{'debug' if os.environ.get('SOAK_BUILD') == 'debug' else 'release'} builds, loopback: "
        f"{r['devices']} signed-in devices ({r['accounts']} accounts, two devices each; the real SDK with live sync: change "
        f"feed, automatic pushes, pulls on events) writing a round (two inserts, an edit, every fifth round a delete) every "
        f"{INTERVAL:g} s ± half and pulling by hand every fourth round, for {r['seconds'] / 60:.1f} minutes, against two "
        "todo-server processes on one PostgreSQL, both reading its hot standby. The load generator, the servers and both "
        "PostgreSQL clusters share the machine's 2 cores.",
        "",
        "| check | figure | target |",
        "|---|---:|---:|",
        f"| items checked / lost / duplicated | {r['writesChecked']:,} / {r['lostWrites']} / {r['duplicatedWrites']} | 0 lost, 0 duplicated ({verdict(r['lostWrites'] == 0 and r['duplicatedWrites'] == 0)}) |",
        f"| devices not converged (diverged + undrained) | {r['divergedDevices'] + r['undrainedDevices']} | 0 ({verdict(r['divergedDevices'] + r['undrainedDevices'] == 0)}) |",
        f"| requests / local writes / sync errors | {r['requestsPerSecond'] * r['seconds']:,.0f} ({r['requestsPerSecond']:.0f}/s) / {r['localWrites']:,} / {r['syncErrors']} | |",
    ]
    for n, m in enumerate(r["memory"]):
        lines.append(f"| server {n + 1} memory after warm-up → end (peak) | {m['baselineMB']:.1f} → {m['endMB']:.1f} MB "
                     f"({m['growth']:+.1%}; peak {m['peakMB']:.1f}) | ≤ +10% ({verdict(m['growth'] <= 0.10)}) |")
    lines += [
        f"| request p99, first {span:.1f} min → last {span:.1f} min | {r['first']['p99ms']:.1f} → {r['last']['p99ms']:.1f} ms "
        f"(×{r['p99Ratio']:.2f}) | ≤ ×1.2 ({verdict(latency_ok)}) |",
        f"| request p50, first → last | {r['first']['p50ms']:.1f} → {r['last']['p50ms']:.1f} ms | |",
        "",
        "Request p99 by window: " + ", ".join(f"{w['p99ms']:.0f}" for w in r["windows"]) + " ms.",
        "",
        f"Verdict: **{'passed' if clean and memory_ok and latency_ok else 'FAILED'}**.",
        "",
    ]
    return lines


if __name__ == "__main__":
    main()
