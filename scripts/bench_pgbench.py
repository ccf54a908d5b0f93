"""The PostgreSQL floors of `make bench`: pgbench running, against the same table in the same
run, the exact SELECT todo-server sends for the pull page (read from PostgreSQL's statement log,
with the same parameters) and a plain INSERT of a row of that table; both prepared, over as many
connections as todo-server's pool (8)."""
import os, re, subprocess, time

POOL = 8  # PostgresDatabase's pool size


def psql(pg, sql):
    return subprocess.run(["psql", pg, "-qAt", "-c", sql], check=True, capture_output=True, text=True).stdout


def postmaster_pid(pg):
    """The cluster's postmaster, from postmaster.pid in its data directory."""
    with open(os.path.join(psql(pg, "SHOW data_directory").strip(), "postmaster.pid")) as f:
        return int(f.readline())


def logged_statement(pg, send_request, keyword="SELECT"):
    """The SQL and parameters of the last statement beginning with `keyword` that
    `send_request()` makes todo-server run, its parameters written in as literals."""
    log = os.path.join(os.path.dirname(psql(pg, "SHOW data_directory").strip()), "server.log")
    start = os.path.getsize(log)
    psql(pg, "ALTER SYSTEM SET log_min_duration_statement = 0")
    psql(pg, "SELECT pg_reload_conf()")
    try:
        time.sleep(0.5)
        send_request()
        time.sleep(0.3)
    finally:
        psql(pg, "ALTER SYSTEM RESET log_min_duration_statement")
        psql(pg, "SELECT pg_reload_conf()")
    with open(log) as f:
        f.seek(start)
        text = f.read()
    # A statement may span lines; the log indents its continuation lines with a tab.
    found = re.findall(r"execute [^:]*: (" + keyword + r" .*?)\n[^\n]*DETAIL:  parameters: (.*?)\n", text, re.S)
    if not found:
        raise RuntimeError(f"bench: no {keyword} statement of todo-server's is in PostgreSQL's log")
    sql, params = found[-1]
    sql = sql.replace("\n\t", "\n")
    # Each parameter as PostgreSQL logs it: a quoted literal, or NULL.
    values = dict(re.findall(r"\$(\d+) = ('(?:[^']|'')*'|NULL)", params))
    # The same statement with its parameters as literals; pgbench prepares it (-M prepared).
    return re.sub(r"\$(\d+)", lambda m: values[m.group(1)], sql)


def pgbench(pg, script, duration, clients=POOL, rate=None):
    """pgbench's transactions per second and latency; `rate` limits it to that many a second."""
    path = "/tmp/bench-pgbench.sql"
    with open(path, "w") as f:
        f.write(script.strip() + ";\n")
    run = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(clients), "-j", "1", "-T", str(duration), "-f", path, pg]
                         + (["-R", str(int(rate))] if rate else []), capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"bench: pgbench failed: {run.stderr[-500:]}")
    out = run.stdout
    tps = re.search(r"tps = ([0-9.]+)", out)
    latency = re.search(r"latency average = ([0-9.]+) ms", out)
    return {"rps": float(tps.group(1)), "latency_ms": float(latency.group(1))}


def insert_script(layout):
    """A row like the ones the insert benchmark posts, with a fresh id each time, in the table as
    the namespace catalog lays it out (benchlib.table_layout)."""
    # No colons in the script: pgbench reads `:name` as a variable.
    return (f'INSERT INTO "{layout["table"]}" ("__owner", "id", "createdAt", "updatedAt", "version", "deleted", "{layout["text"]}", "{layout["complete"]}") '
            "VALUES ('', gen_random_uuid()::text, clock_timestamp()::text, clock_timestamp()::text, md5(random()::text), false, 'pgbench insert', false)")


def fresh_id_script(sql, probe_id):
    """A logged insert made repeatable: the probe's id becomes a fresh one per run, as each of
    wrk's inserts has, and the colons of the statement's literals are spelled chr(58), since
    pgbench reads `:name` as a variable."""
    assert sql.count(f"'{probe_id}'") == 1, "the probe's id must appear once in the logged insert"
    sql = sql.replace(f"'{probe_id}'", "gen_random_uuid()::text")
    return re.sub(r"'(?:[^']|'')*'", lambda literal: literal.group(0).replace(":", "' || chr(58) || '"), sql)
