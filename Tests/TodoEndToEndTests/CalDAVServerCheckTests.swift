import Foundation
import ServerTestSupport
import Testing

/// python-caldav's server checker, caldav-server-tester 1.7.0 (from the project's `.venv`, which
/// `make test` makes), against one real todo-server through `scripts/caldav_server_check.py`:
/// the tester cannot be told a server holds tasks only, so the script moves its probes onto
/// task fixtures and grades the event and journal features unsupported (its docstring says
/// how). One run, a few seconds, read by every test here.
@Suite(.serialized) struct CalDAVServerCheckTests {
    /// What the run found.
    struct Report: Sendable {
        /// Each server feature's support level: full, unsupported, quirk, fragile, broken, ungraceful or unknown.
        let support: [String: String]
        /// The tester's note on a feature, where it made one.
        let behaviour: [String: String]
        /// Where the run differs from `scripts/caldav-server-check.yaml`, a line each.
        let differences: [String]

        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// Starts a server requiring accounts, adds ann, runs the checker against it with
        /// `--dump`, stops the server, and reads the dump.
        static func make() async throws -> Report {
            guard FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(".venv/bin/caldav-server-tester").path) else {
                throw ServerStartError(description: "caldav-server-tester is not in .venv: run the tests with `make test` (scripts/ensure-venv.sh makes it)")
            }
            let home = try TempDir.make()
            let database = home.appendingPathComponent("server.sqlite").path
            let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
            defer { _ = server.stop() }
            let (added, addErrors) = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database],
                                                                       input: "password ann\n")
            guard added == 0 else { throw ServerStartError(description: "users add failed: \(addErrors)") }
            let dump = home.appendingPathComponent("check.json")
            let python = root.appendingPathComponent(".venv/bin/python").path
            let arguments = [root.appendingPathComponent("scripts/caldav_server_check.py").path, "--task-only",
                             "--profile", root.appendingPathComponent("scripts/caldav-server-check.yaml").path, "--dump", dump.path]
            let environment = ["CALDAV_URL": "\(server.baseURL.absoluteString)/dav/", "CALDAV_USERNAME": "ann", "CALDAV_PASSWORD": "password ann",
                               "HOME": home.path, "LANG": "C.UTF-8"]
            // Its report (stdout) is not needed: the dump holds it. Its log (stderr) names what went wrong.
            let (status, log): (Int32, String) = try await offPool {
                let child = try ChildProcess(python, arguments, environment: environment, captureError: true)
                let errors = child.standardError!.readDataToEndOfFile()
                return (child.wait(), String(decoding: errors, as: UTF8.self))
            }
            guard status == 0 else {
                throw ServerStartError(description: "caldav_server_check.py exited with \(status):\n\(String(log.suffix(6000)))")
            }
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dump)) as? [String: Any] ?? [:]
            let features = json["features"] as? [String: [String: Any]] ?? [:]
            guard !features.isEmpty else { throw ServerStartError(description: "the checker's dump holds no features:\n\(String(log.suffix(6000)))") }
            let diff = json["diff"] as? [String: [String: Any]] ?? [:]
            return Report(support: features.compactMapValues { $0["support"] as? String },
                          behaviour: features.compactMapValues { $0["behaviour"].map { "\($0)" } },
                          differences: diff.keys.sorted().map { name in
                              "  \(name): expected \(diff[name]?["expected"] as? String ?? "?"), observed \(diff[name]?["observed"] as? String ?? "?")"
                          })
        }

        /// `feature: level (note)` for each of `features`, then the differences from the profile.
        func describe(_ features: [String]) -> String {
            var lines: [String] = features.map { name in
                "\(name): \(support[name] ?? "not graded")" + (behaviour[name].map { note in " (\(note))" } ?? "")
            }
            if !differences.isEmpty { lines += ["Differences from scripts/caldav-server-check.yaml:"] + differences }
            return lines.joined(separator: "\n")
        }
    }

    static let report = Task { try await Report.make() }

    /// What a task server must do, all full in the run: discovery, lists made and removed, tasks
    /// stored whole and found again, ETags and preconditions, sync tokens, the searches clients
    /// send. (Full besides, and left to the floor below: calendar-color, calendar-color.name,
    /// calendar-order, freebusy-query.)
    static let required = [
        "auth.www-authenticate", "auth.www-authenticate.usable-scheme",
        "get-current-user-principal", "propfind", "propfind.allprop", "propfind.allprop.resourcetype", "propfind.displayname",
        "propfind.principal-depth-1", "non-existing-raises-not-found.collection", "non-existing-raises-not-found.object",
        "create-calendar", "create-calendar.set-displayname", "create-calendar.stable-url", "create-calendar.with-supported-component-types",
        "delete-calendar", "delete-calendar.free-namespace",
        "synchronous-write", "synchronous-write.create-calendar", "synchronous-write.delete-calendar", "synchronous-write.proppatch",
        "save-load.todo", "save-load.todo.mixed-calendar", "save-load.todo.recurrences", "save-load.todo.recurrences.count",
        "save-load.todo.uncomplete", "save-load.get-by-url", "save-load.stable-url", "save-load.icalendar.related-to",
        "save-load.mutable", "save-load.mutable.attendee-partstat", "save-load.mutable.if-match-optional", "save-load.mutable.if-match-wildcard",
        "save.duplicate-event", "save.etag", "save.if-none-match", "save.no-uid-conflict",
        "url.encode-at.encoded", "url.encode-at.literal.collection", "url.encode-at.literal.object",
        "sync-token", "sync-token.delete", "sync-token.invalid-token", "sync-token.limit", "sync-token.limit.initial-sync",
        "search.comp-type", "search.comp-type.optional", "search.combined-is-logical-and",
        "search.time-range.todo", "search.time-range.todo.strict", "search.time-range.todo.old-dates",
        "search.time-range.todo.no-dtstart", "search.time-range.todo.no-dtstart.no-due",
        "search.time-range.open.start", "search.time-range.open.start.duration", "search.time-range.open.end",
        "search.time-range.alarm", "search.time-range.comp-type-optional", "search.unlimited-time-range",
        "search.recurrences.includes-implicit.todo", "search.recurrences.includes-implicit.todo.pending",
        "search.recurrences.includes-implicit.infinite-scope", "search.recurrences.expanded.todo",
        "search.is-not-defined", "search.is-not-defined.category", "search.is-not-defined.class", "search.is-not-defined.dtend",
        "search.text.case-sensitive", "search.text.case-insensitive", "search.text.substring", "search.text.category",
    ]

    /// Features full when this test was written, of 96 graded. The other 22: twelve event and
    /// journal features (expanding an event's exception among them), scheduling, principal search (three), one UID in two lists,
    /// lists made by a PUT, a prop-filter on VCALENDAR itself, '@' and '%40' as one name, and two
    /// this run cannot probe (well-known on 127.0.0.1, '@' in ann's name). Raise it when one is gained.
    static let fullFloor = 74

    @Test func noFeatureIsBrokenQuirkyFragileOrUngraceful() async throws {
        let report = try await Self.report.value
        let offenders = report.support.filter { ["broken", "quirk", "fragile", "ungraceful"].contains($0.value) }.keys.sorted()
        #expect(offenders.isEmpty, "\(report.describe(offenders))")
    }

    @Test func whatATaskServerMustDoIsFull() async throws {
        let report = try await Self.report.value
        let missing = Self.required.filter { report.support[$0] != "full" }
        #expect(missing.isEmpty, "\(report.describe(missing))")
    }

    @Test func atLeastAsManyFeaturesAreFullAsBefore() async throws {
        let report = try await Self.report.value
        let full = report.support.values.filter { $0 == "full" }.count
        let others = report.support.keys.filter { report.support[$0] != "full" }.sorted()
        #expect(full >= Self.fullFloor, "\(full) features full, fewer than \(Self.fullFloor); the others:\n\(report.describe(others))")
    }
}
