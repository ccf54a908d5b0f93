"""Where a PostgreSQL figure's CPU goes: the CPU seconds todo-server, PostgreSQL's processes and
the load generator (wrk or pgbench) each used during one run, read from /proc. They share the
machine's cores, so these say what a request costs in all and who spends it."""
import os, resource, time

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        # Fields after the command name: utime, stime, cutime, cstime are the 12th to 15th.
        fields = f.read().rsplit(")", 1)[1].split()
    return [int(x) / TICK for x in fields[11:15]]


def _children_of(postmaster):
    """The stat fields (after the command name) of each live or zombie child of the postmaster."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile: the postmaster's cutime has it now
        if int(fields[1]) == postmaster:
            yield fields


def _postgres_seconds(postmaster):
    """The postmaster, its live children, and (through its cutime and cstime) those that ended."""
    total = sum(_stat(postmaster))
    for fields in _children_of(postmaster):
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def _settle(postmaster):
    """Waits until the backends of the last run have ended and been reaped: an ending backend
    reads as a zombie without its CPU time before the postmaster's cutime gains it."""
    time.sleep(0.3)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and any(fields[0] == "Z" for fields in _children_of(postmaster)):
        time.sleep(0.05)


def _children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(run, server_pid, postmaster_pid, standby_postmaster_pid=None):
    """Runs `run()` (wrk or pgbench, run and waited for by this process) and adds to its result
    the CPU seconds each party used meanwhile (a standby's cluster too, when given)."""
    server_pid_seconds = lambda: sum(_stat(server_pid)[:2])
    standby = (lambda: _postgres_seconds(standby_postmaster_pid)) if standby_postmaster_pid else (lambda: 0.0)
    _settle(postmaster_pid)
    before = (server_pid_seconds(), _postgres_seconds(postmaster_pid), _children_seconds(), standby())
    result = run()
    _settle(postmaster_pid)
    after = (server_pid_seconds(), _postgres_seconds(postmaster_pid), _children_seconds(), standby())
    parties = ("server", "postgres", "client", "standby") if standby_postmaster_pid else ("server", "postgres", "client")
    result["cpu"] = {party: end - start for party, start, end in zip(parties, before, after)}
    return result


def per_request_us(result, seconds):
    """CPU microseconds per request of each party, and in all."""
    requests = result["rps"] * seconds
    shares = {party: 1e6 * used / requests for party, used in result["cpu"].items()}
    shares["total"] = sum(shares.values())
    return shares
