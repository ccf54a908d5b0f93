#!/usr/bin/env python3
"""caldav-server-tester 1.7.0 (python-caldav's server checker) against one CalDAV server, with the
few changes a task-only server needs; CalDAVServerCheckTests runs it against todo-server.

  caldav_server_check.py [--task-only] [--profile FILE.yaml] [--dump FILE.json] [tester arguments...]

The tester's own arguments pass through (--caldav-url, --caldav-username, --caldav-password,
--verbose, --diff, ...); a URL, user or password the command line leaves out is read from
CALDAV_URL, CALDAV_USERNAME, CALDAV_PASSWORD.

--profile FILE.yaml  the features the server is expected to have (the file's `features:` mapping,
                     in caldav.compatibility_hints' terms). The tester compares what it observes
                     against it: an ERROR line on stderr per difference, and the --diff section.
                     The probes do not read it (the tester blanks a client's profile while a
                     check runs), so it changes what is reported, never what is observed.
--dump FILE.json     also write every observed feature, its support level resolved, the
                     observations, and the differences from the profile, as JSON:
                     {"tester", "caldav", "task_only", "features", "observations", "diff"}.

Why --task-only patches the tester: todo-server stores VTODO only, and caldav-server-tester 1.7.0
has no way to declare a task-only server. A profile only sets the *expected* levels; every probe
still runs. As shipped, PrepareCalendar's first VEVENT fixture is refused (403
supported-calendar-component), which ends that check with one task fixture stored, and the run
stops at CheckDuplicateEvent's AssertionError (it reads the VEVENT fixture, so save.duplicate-event
goes ungraded) with 47 features seen. Several probes of features that are not about events (get
by URL, stable URL, '@' in URLs, duplicate and cross-calendar UIDs, ETag and If-Match, sync
tokens, searches) also read or write VEVENTs only. The tester logs "Calendar appears empty after
PrepareCalendar" either way: it counts events.
With --task-only, and nothing else changed:
  * PrepareCalendar._create_test_events (replaced) stores the tester's task fixtures as shipped,
    plus task twins of the event fixtures the search probes read (categories, CLASS, an alarm);
    it still tries the VEVENT fixture and grades save-load.event from the answer;
  * the probes listed in TODO_PATCHES are recompiled from their source with VEVENT/Event turned
    into VTODO/Todo (DTEND into DUE) and the event fixtures' UIDs into their task twins';
  * CheckRecurrenceSearch._run_check (replaced) asks its todo questions of the recurring task
    fixture (it gates them on the recurring *event* fixture) and answers its event ones
    'unsupported';
  * a feature about VEVENT or VJOURNAL only (EVENT_ONLY_PREFIXES) observed at any level but
    'full' is recorded 'unsupported' with what the probe saw: refusing an event is what a
    task-only server should do, not 'ungraceful'.
Every other probe runs as shipped. The script asserts that the installed tester is 1.7.0, that
each replaced method's source is the one it was written against (SOURCE_FINGERPRINTS), and that
each textual replacement matches, so an upgrade fails loudly here instead of silently changing
what runs.
"""
import argparse
import hashlib
import importlib.metadata
import inspect
import json
import logging
import os
from datetime import date, datetime, timedelta, timezone

import caldav_server_tester.caldav_server_tester as cli
import caldav_server_tester.checks as checks
import caldav_server_tester.checks_base as checks_base
import yaml
from caldav.calendarobjectresource import Todo
from caldav.compatibility_hints import FeatureSet
from caldav.lib.error import DAVError

TESTER_VERSION = "1.7.0"
utc = timezone.utc

# The first 16 hex digits of the SHA-256 of each replaced method's source in 1.7.0 (a patched
# one is checked by its replacements, each of which must match).
SOURCE_FINGERPRINTS = {
    "PrepareCalendar._create_test_events": "c2390147d280e613",
    "CheckRecurrenceSearch._run_check": "18a20468ba2b76f8",
}


def fingerprint(cls, method):
    return hashlib.sha256(inspect.getsource(getattr(cls, method)).encode()).hexdigest()[:16]


def check_source(cls, method):
    name = f"{cls.__name__}.{method}"
    found = fingerprint(cls, method)
    assert SOURCE_FINGERPRINTS.get(name) == found, (
        f"caldav-server-tester's {name} is not the source this script patches "
        f"(fingerprint {found}, expected {SOURCE_FINGERPRINTS.get(name)}): review the patch, then update SOURCE_FINGERPRINTS")


def patch_source(cls, method, replacements):
    """Recompiles cls.method from its source with textual replacements, each of which must match."""
    src = inspect.getsource(getattr(cls, method))  # indented as in its class body
    for old, new in replacements:
        assert old in src, f"{cls.__name__}.{method}: {old!r} not found"
        src = src.replace(old, new)
    namespace = {}
    exec(compile("class _Patched:\n" + src, f"<patched {cls.__name__}.{method}>", "exec"), vars(checks), namespace)
    setattr(cls, method, namespace["_Patched"].__dict__[method])


def task_only_create_test_events(self, calendar, cal_id, name, add_if_not_existing):
    """PrepareCalendar._create_test_events for a VTODO-only server: the same task fixtures, and
    task twins of the event fixtures the patched search probes read."""
    base = self.checker.fixture_base_year
    todo_ok = self._prepare_task_calendar(cal_id, name, add_if_not_existing)
    self._prepare_journal_calendar(cal_id, name, add_if_not_existing)
    try:
        add_if_not_existing(checks.Event, summary="simple event with a start time and an end time",
                            uid="csc_simple_event1", dtstart=datetime(base, 1, 1, 12, tzinfo=utc),
                            dtend=datetime(base, 1, 1, 13, tzinfo=utc)).load()
        self.set_feature("save-load.event")
        logging.warning("--task-only: the server stored a VEVENT; run without --task-only")
    except DAVError as e:
        self.set_feature("save-load.event", {"support": "unsupported",
                                             "behaviour": f"VEVENT refused ({str(e.reason)[:60]}): task-only server"})
    if todo_ok:
        add_if_not_existing(Todo, summary="task with a due date", uid="csc_simple_task2", due=date(base, 1, 8))
        add_if_not_existing(Todo, summary="task with a dtstart time and due time", uid="csc_simple_task3",
                            dtstart=datetime(base, 1, 9, 12, tzinfo=utc), due=datetime(base, 1, 9, 13, tzinfo=utc))
        add_if_not_existing(Todo, summary="task with dtstart and duration (no due)", uid="csc_task_with_duration",
                            dtstart=datetime(base, 1, 18, 12, tzinfo=utc), duration=timedelta(hours=2))
        # task twins of csc_event_with_categories, csc_event_with_class and csc_event_with_alarm
        add_if_not_existing(Todo, summary="task with categories", uid="csc_task_with_categories",
                            categories="hands,feet,head", dtstart=datetime(base, 1, 7, 12, tzinfo=utc),
                            due=datetime(base, 1, 7, 13, tzinfo=utc))
        add_if_not_existing(Todo, summary="task with confidential class", uid="csc_task_with_class",
                            class_="CONFIDENTIAL", dtstart=datetime(base, 1, 16, 12, tzinfo=utc),
                            due=datetime(base, 1, 16, 13, tzinfo=utc))
        add_if_not_existing(Todo, summary="task with alarm", uid="csc_task_with_alarm",
                            dtstart=datetime(base, 1, 10, 8, tzinfo=utc), due=datetime(base, 1, 10, 9, tzinfo=utc),
                            alarm_trigger=timedelta(minutes=-15), alarm_action="DISPLAY")
        try:
            t = add_if_not_existing(Todo, summary="monthly recurring task", uid="csc_monthly_recurring_task",
                                    rrule={"FREQ": "MONTHLY"}, dtstart=datetime(base, 1, 12, 12, tzinfo=utc),
                                    due=datetime(base, 1, 12, 13, tzinfo=utc))
            t.load()
            self.set_feature("save-load.todo.recurrences")
        except DAVError:
            self.set_feature("save-load.todo.recurrences", "ungraceful")
        try:
            t = add_if_not_existing(Todo, f"""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Example Corp.//CalDAV Client//EN
BEGIN:VTODO
UID:csc_recurring_count_task
DTSTAMP:{base}0113T151313Z
DTSTART:{base}0119T065500Z
STATUS:NEEDS-ACTION
DURATION:PT10M
SUMMARY:Weekly task to be done three times
RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3
CATEGORIES:CHORE
PRIORITY:3
END:VTODO
END:VCALENDAR""")
            t.load()
            rrule = t.component.get("RRULE", None)
            self.set_feature("save-load.todo.recurrences.count", (rrule and rrule.get("COUNT")) == [3])
        except DAVError:
            self.set_feature("save-load.todo.recurrences.count", "ungraceful")
    self._create_olddate_probes()


def task_only_recurrence_search(self):
    """CheckRecurrenceSearch on the recurring task fixture (csc_monthly_recurring_task, monthly
    from <base>-01-12 12:00Z, due 13:00Z), with the original's queries; its event features are
    answered 'unsupported'."""
    tl, base = self.checker.tasklist, self.checker.fixture_base_year
    for feat in ("search.recurrences.includes-implicit.event", "search.recurrences.expanded.event",
                 "search.recurrences.expanded.exception"):
        self.set_feature(feat, False)

    def search(y, m, d, **kw):
        return tl.search(start=datetime(y, m, d, tzinfo=utc), end=datetime(y, m, d + 1, tzinfo=utc),
                         todo=True, post_filter=False, **kw)
    try:
        testable = len(search(base, 1, 12, include_completed=True)) == 1
    except DAVError:
        testable = False
    if not testable:
        for feat in ("search.recurrences.includes-implicit.todo", "search.recurrences.includes-implicit.todo.pending",
                     "search.recurrences.includes-implicit.infinite-scope", "search.recurrences.expanded.todo"):
            self.set_feature(feat, "unknown")
        return
    found = search(base, 2, 12, include_completed=True)
    self.set_feature("search.recurrences.includes-implicit.todo", len(found) == 1)
    self.set_feature("search.recurrences.includes-implicit.todo.pending", bool(found) and len(search(base, 2, 12)) == 1)
    try:
        self.set_feature("search.recurrences.includes-implicit.infinite-scope",
                         len(search(base + 45, 3, 12, include_completed=True)) == 1)
    except DAVError:
        self.set_feature("search.recurrences.includes-implicit.infinite-scope", "ungraceful")
    expanded = search(base, 2, 12, server_expand=True)
    self.set_feature("search.recurrences.expanded.todo",
                     len(expanded) == 1 and expanded[0].component["dtstart"] == datetime(base, 2, 12, 12, tzinfo=utc))


# (class, method, [(old, new), ...]): the probes of features that are not about events, moved
# from the VEVENT fixtures to the VTODO ones.
TODO_PATCHES = [
    (checks.PrepareCalendar, "_check_get_by_url", [('"csc_simple_event1"', '"csc_simple_task1"')]),
    (checks.PrepareCalendar, "_check_stable_url", [('"csc_simple_event1.ics"', '"csc_simple_task1.ics"')]),
    (checks.PrepareCalendar, "_put_probe_object", [('"BEGIN:VEVENT\\r\\n"', '"BEGIN:VTODO\\r\\n"'),
                                                   ('f"DTEND:{year}', 'f"DUE:{year}'),
                                                   ('"END:VEVENT\\r\\n"', '"END:VTODO\\r\\n"')]),
    (checks.CheckDuplicateEvent, "_run_check", [('src_uid = "csc_simple_event1"', 'src_uid = "csc_simple_task1"'),
                                                ("cal.event_by_uid(src_uid)", "cal.todo_by_uid(src_uid)"),
                                                ("url_object(cal, src_uid)", "url_object(cal, src_uid, Todo)"),
                                                ("cal.save_event(dup_data)", "cal.save_todo(dup_data)")]),
    (checks._RawPut, "_ical", [('"BEGIN:VEVENT\\r\\n"', '"BEGIN:VTODO\\r\\n"'), ('f"DTEND:{year}', 'f"DUE:{year}'),
                               ('"END:VEVENT\\r\\n"', '"END:VTODO\\r\\n"')]),
    (checks.CheckMutable, "_run_check", [('uid = "csc_simple_event1"', 'uid = "csc_simple_task1"'),
                                         ("cal.event_by_uid(uid)", "cal.todo_by_uid(uid)"),
                                         ("url_object(cal, uid)", "url_object(cal, uid, Todo)"),
                                         ('walk("VEVENT")', 'walk("VTODO")')]),
    (checks.CheckIfMatchOptional, "_run_check", [("BEGIN:VEVENT", "BEGIN:VTODO"), ("END:VEVENT", "END:VTODO"),
                                                 ("DTEND:{end}", "DUE:{end}"), ("cal.add_event(data)", "cal.add_todo(data)"),
                                                 ("Event(cal.client", "Todo(cal.client"),
                                                 ("url_object(cal, uid)", "url_object(cal, uid, Todo)")]),
    (checks.CheckAttendeePartstat, "_run_check", [("cal.add_event(", "cal.add_todo("), ("dtend=", "due=")]),
    (checks.CheckSynchronousWrite, "_measure_save_load", [("Event,", "Todo,"), ("dtend=", "due="),
                                                          ("WRITE_DELAY_UID, Event)", "WRITE_DELAY_UID, Todo)")]),
    (checks.CheckSynchronousWrite, "_cleanup", [("WRITE_DELAY_UID, Event)", "WRITE_DELAY_UID, Todo)")]),
    (checks.CheckDuplicateUID, "_run_check", [('test_uid = "csc_simple_event1"', 'test_uid = "csc_simple_task1"'),
                                              ("event_by_uid(", "todo_by_uid("),
                                              ("url_object(cal1, test_uid)", "url_object(cal1, test_uid, Todo)"),
                                              ("save_object(Event,", "save_object(Todo,"),
                                              ("cal2.events()", "cal2.todos(include_completed=True)"),
                                              ('walk("vevent")', 'walk("vtodo")'), ("cal1.save_event(", "cal1.save_todo(")]),
    (checks.CheckSyncToken, "_run_check", [("Event,", "Todo,"), ("dtend=", "due=")]),
    (checks.CheckSyncTokenLimit, "_run_check", [("Event,", "Todo,"), ("dtend=", "due=")]),
    (checks.CheckRelatedTo, "_run_check", [("BEGIN:VEVENT", "BEGIN:VTODO"), ("END:VEVENT", "END:VTODO"),
                                           ("DTEND:", "DUE:"), ("Event,", "Todo,")]),
    (checks.CheckSearch, "_run_check", [
        ('cal.search(category="hands", event=True,', 'cal.search(category="hands", todo=True, include_completed=True,'),
        ('category="hands",\n                    event=True,', 'category="hands",\n                    todo=True, include_completed=True,'),
        ("tr_event = cal.save_object(\n                Event,", "tr_event = cal.save_object(\n                Todo,"),
        ("pf_event = cal.save_object(\n                    Event,", "pf_event = cal.save_object(\n                    Todo,"),
        ("dtend=datetime(now.year", "due=datetime(now.year"),
        ("CalDAVSearcher(comp_class=Event)", "CalDAVSearcher(comp_class=Todo)"),
        ("found_old = OLDDATE_EVENT_UID in uids", "found_old = OLDDATE_TASK_UID in uids"),
        ('found_next = "csc_simple_event1" in uids', 'found_next = "csc_simple_task3" in uids')]),
    (checks.CheckIsNotDefined, "_run_check", [("cal.search(event=True,", "cal.search(todo=True, include_completed=True,"),
                                              ('"csc_event_with_categories"', '"csc_task_with_categories"'),
                                              ('"csc_event_with_class"', '"csc_task_with_class"'),
                                              ("no_dtend=True", "no_due=True"),
                                              ('"csc_simple_event1" in dtend_uids', '"csc_simple_task3" in dtend_uids'),
                                              ('"csc_event_with_duration" in dtend_uids', '"csc_task_with_duration" in dtend_uids')]),
    (checks.CheckAlarmSearch, "_run_check", [('"csc_event_with_alarm"', '"csc_task_with_alarm"'),
                                             ("event=True,", "todo=True, include_completed=True,")]),
    (checks.CheckCaseSensitiveSearch, "_run_check", [("CalDAVSearcher(event=True)", "CalDAVSearcher(todo=True, include_completed=True)"),
                                                     ('"SUMMARY", "Simple"', '"SUMMARY", "Monthly"'),
                                                     ('"SUMMARY", "simple"', '"SUMMARY", "monthly"'),
                                                     ('"SUMMARY", "SIMPLE"', '"SUMMARY", "MONTHLY"')]),
    (checks.CheckSubstringSearch, "_run_check", [("CalDAVSearcher(event=True)", "CalDAVSearcher(todo=True, include_completed=True)"),
                                                 ('"simple event with a start time and an end time"', '"monthly recurring task"'),
                                                 ('"SUMMARY", "simple event"', '"SUMMARY", "monthly recurring"')]),
]

# Features about VEVENT or VJOURNAL only: a task-only server refuses what they probe.
EVENT_ONLY_PREFIXES = ("save-load.event", "save-load.journal", "search.time-range.event",
                       "search.recurrences.includes-implicit.event", "search.recurrences.expanded.event",
                       "search.recurrences.expanded.exception")


def is_event_only(feature):
    return any(feature == p or feature.startswith(p + ".") for p in EVENT_ONLY_PREFIXES)


def apply_task_only():
    check_source(checks.PrepareCalendar, "_create_test_events")
    checks.PrepareCalendar._create_test_events = task_only_create_test_events
    check_source(checks.CheckRecurrenceSearch, "_run_check")
    checks.CheckRecurrenceSearch._run_check = task_only_recurrence_search
    for cls, method, replacements in TODO_PATCHES:
        patch_source(cls, method, replacements)
    original = checks_base.Check.set_feature

    def set_feature(self, feature, value=True):
        if is_event_only(feature):
            node = value if isinstance(value, dict) else {"support": {True: "full", False: "unsupported", None: "unknown"}.get(value, value)}
            if node.get("support", "full") != "full":
                seen = node["support"] + (f" ({node['behaviour']})" if node.get("behaviour") else "")
                value = {"support": "unsupported", "behaviour": f"task-only server, VEVENT/VJOURNAL refused; the probe saw {seen}"[:300]}
        return original(self, feature, value)

    checks_base.Check.set_feature = set_feature


def apply_connection(profile_path):
    """The client the tester connects with: a URL, user or password the command line leaves out
    comes from CALDAV_URL, CALDAV_USERNAME, CALDAV_PASSWORD; the profile's features are its expected set."""
    profile = None
    if profile_path:
        with open(profile_path) as f:
            profile = (yaml.safe_load(f) or {}).get("features") or {}
    original = cli.get_davclient

    def get_davclient(*args, **kwargs):
        for key in ("url", "username", "password"):
            if not kwargs.get(key) and os.environ.get(f"CALDAV_{key.upper()}"):
                kwargs[key] = os.environ[f"CALDAV_{key.upper()}"]
        if profile is not None:
            if kwargs.get("features"):
                raise SystemExit("caldav_server_check.py: give --profile or --caldav-features, not both")
            kwargs["features"] = profile
        return original(*args, **kwargs)

    cli.get_davclient = get_davclient


def apply_dump(path, task_only):
    original = cli._emit_report

    def emit(obj, verbose, output_format, show_diff):
        observed = obj.features_checked
        features, observations = {}, {}
        for name, node in sorted(observed.dotted_feature_set_list(compact=False).items()):
            kind = FeatureSet.find_feature(name).get("type", "server-feature")
            if kind in ("server-feature", "server-peculiarity"):
                features[name] = {**node, "support": observed.is_supported(name, str)}
            else:
                observations[name] = node
        with open(path, "w") as f:
            json.dump({"tester": TESTER_VERSION, "caldav": importlib.metadata.version("caldav"), "task_only": task_only,
                       "features": features, "observations": observations, "diff": obj._compute_diff()},
                      f, indent=1, default=str)
        return original(obj, verbose, output_format, show_diff)

    cli._emit_report = emit


def main():
    version = importlib.metadata.version("caldav-server-tester")
    assert version == TESTER_VERSION, f"caldav-server-tester {version} is installed; this script patches {TESTER_VERSION}"
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--task-only", action="store_true")
    parser.add_argument("--profile")
    parser.add_argument("--dump")
    ours, args = parser.parse_known_args()
    if ours.task_only:
        apply_task_only()
    apply_connection(ours.profile)
    if ours.dump:
        apply_dump(ours.dump, ours.task_only)
    cli.check_server_compatibility(args)


if __name__ == "__main__":
    main()
