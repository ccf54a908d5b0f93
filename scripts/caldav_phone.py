#!/usr/bin/env python3
"""A phone's CalDAV client for the tests, one step per run: python-caldav (the .venv's) finds
calendars and syncs them as an app does; a task is written by a plain PUT, as a phone sends an
edit it queued offline (with the ETag it had). Prints JSON on stdout.

  caldav_phone.py calendars                   [{"url", "name"}, ...]
  caldav_phone.py put URL UID SUMMARY [ETAG]  {"status", "etag"}  (If-Match ETAG when given)
  caldav_phone.py sync URL [TOKEN]            {"token", "tasks": {href: summary}}
  caldav_phone.py save URL FILE               {"url"}  (python-caldav's save_todo of the VCALENDAR in FILE)
  caldav_phone.py tasks URL                   {"tasks": {uid: iCalendar text}}

The server and account come from CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD. `sync` with a
token the server refuses (valid-sync-token) falls back to a full sync, as python-caldav does.
"""
import json
import os
import sys

import caldav


def client():
    return caldav.DAVClient(url=os.environ["CALDAV_URL"], username=os.environ["CALDAV_USERNAME"],
                            password=os.environ["CALDAV_PASSWORD"])


def calendars(dav):
    return [{"url": str(c.url), "name": c.get_display_name()} for c in dav.principal().get_calendars()]


def put(dav, url, uid, summary, etag=None):
    text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//caldav_phone//EN", "BEGIN:VTODO", f"UID:{uid}",
                        "DTSTAMP:20261129T000000Z", f"SUMMARY:{summary}", "END:VTODO", "END:VCALENDAR", ""])
    headers = {"Content-Type": "text/calendar; charset=utf-8"}
    if etag:
        headers["If-Match"] = etag
    reply = dav.put(url, text, headers)
    return {"status": reply.status, "etag": reply.headers.get("ETag")}


def sync(dav, url, token=None):
    calendar = dav.calendar(url=url)
    found = calendar.get_objects_by_sync_token(sync_token=token, load_objects=True)
    tasks = {str(o.url): str(o.icalendar_component.get("summary")) for o in found}
    return {"token": found.sync_token, "tasks": tasks}


def save(dav, url, path):
    with open(path, encoding="utf-8") as f:
        saved = dav.calendar(url=url).save_todo(ical=f.read())
    return {"url": str(saved.url)}


def tasks(dav, url):
    found = dav.calendar(url=url).todos(include_completed=True)
    return {"tasks": {str(o.icalendar_component.get("uid")): o.data for o in found}}


def main(argv):
    dav = client()
    command, args = argv[1], argv[2:]
    result = {"calendars": calendars, "put": put, "sync": sync, "save": save, "tasks": tasks}[command](dav, *args)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
