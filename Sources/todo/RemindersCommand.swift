import ArgumentParser
import Foundation
import TableProtocol
import TodoKit
import TodoModel

/// `todo reminders`: what came due since this device last looked, each listed once.
struct RemindersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders", abstract: "List the reminders that came due since this device last looked (then they are seen).",
        discussion: "A first look goes back a day. --notify runs notify-send (or $TODO_NOTIFY_COMMAND, given the title and the text "
            + "as its arguments) once per reminder, for a systemd timer or cron.")
    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON: an array of {id, text, reminder, at}.") var json = false
    @Flag(help: "Run a notifier per reminder instead of printing.") var notify = false

    func run() async throws {
        let store = try openStore(options)
        let now = Date()
        let due = try store.reminders.due(after: store.reminders.lastLook(now: now), by: now)
        if notify {
            let notifier = try Notifier.find()
            for reminder in due {
                try notifier.send(title: "todo: reminder", body: Self.body(reminder))
                // Seen one by one: a notifier that fails leaves the rest for the next run.
                store.reminders.markSeen(through: reminder.at)
            }
            store.reminders.markSeen(through: now)
            return
        }
        store.reminders.markSeen(through: now)
        if json {
            print(JSONWriter.string(.array(due.map { reminder in
                .object(JSONObject([("id", .string(reminder.item.id)), ("text", .string(reminder.item.text)),
                                    ("reminder", .string(reminder.reminder.text)), ("at", .string(SyncDateFormat.string(from: reminder.at)))]))
            })))
            return
        }
        if due.isEmpty { print("No reminders came due.") }
        for reminder in due {
            print("\(SyncDateFormat.string(from: reminder.at))\t\(reminder.item.id)\t\(reminder.item.text.asOutputField)")
        }
    }

    /// The notification's text: the item, and its due time when it has one.
    static func body(_ reminder: DueReminder) -> String {
        reminder.item.text + (reminder.item.due.map { " (due \($0.text))" } ?? "")
    }
}

/// What shows a notification: `$TODO_NOTIFY_COMMAND` run by the shell with the title and the
/// text as `$1` and `$2`, else `notify-send` from the PATH.
struct Notifier {
    let executable: String
    let leading: [String]

    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Notifier {
        if let command = environment["TODO_NOTIFY_COMMAND"], !command.isEmpty {
            return Notifier(executable: "/bin/sh", leading: ["-c", command, "todo-notify"])
        }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/notify-send"
            if FileManager.default.isExecutableFile(atPath: path) { return Notifier(executable: path, leading: []) }
        }
        throw CommandFailure(description: "--notify needs notify-send (apt-get install libnotify-bin) or TODO_NOTIFY_COMMAND, a command given the title and the text.")
    }

    func send(title: String, body: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = leading + [title, body]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(description: "The notifier (\(executable)) exited with \(process.terminationStatus); the reminders not shown stay due.")
        }
    }
}
