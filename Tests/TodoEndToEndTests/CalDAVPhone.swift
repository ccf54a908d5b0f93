import Foundation
import ServerTestSupport

/// A phone's CalDAV client: the real python-caldav (`scripts/caldav_phone.py`, from the project's
/// `.venv`, which `make test` makes), one step per run, signed in as one account of a household.
enum CalDAVPhone {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One step of `user`'s phone; answers its JSON.
    static func run(_ h: SharingCommandTests.Household, _ user: String, _ arguments: [String]) async throws -> Any {
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ServerStartError(description: "python-caldav is not in .venv: run the tests with `make test` (scripts/ensure-venv.sh makes it)")
        }
        let script = root.appendingPathComponent("scripts/caldav_phone.py").path
        let environment = ["CALDAV_URL": h.url + "/dav/", "CALDAV_USERNAME": user, "CALDAV_PASSWORD": "password \(user)", "LANG": "C.UTF-8"]
        let (status, output, errors): (Int32, Data, String) = try await offPool {
            let child = try ChildProcess(python, [script] + arguments, environment: environment, captureOutput: true, captureError: true)
            let output = child.standardOutput!.readDataToEndOfFile()
            let errors = child.standardError!.readDataToEndOfFile()
            return (child.wait(), output, String(decoding: errors, as: UTF8.self))
        }
        guard status == 0 else { throw ServerStartError(description: "caldav_phone.py \(arguments.first ?? "") exited with \(status):\n\(errors.suffix(4000))") }
        return try JSONSerialization.jsonObject(with: output)
    }

    /// The URLs of the calendars named `name` that `user`'s phone finds.
    static func calendars(_ h: SharingCommandTests.Household, _ user: String, named name: String) async throws -> [String] {
        let found = try await run(h, user, ["calendars"]) as? [[String: Any]] ?? []
        return found.filter { $0["name"] as? String == name }.compactMap { $0["url"] as? String }
    }
}
