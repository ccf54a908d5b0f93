import ArgumentParser
import TodoKit

/// `todo keys`: every view's keys, from the same tables the app dispatches with.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Print the full-screen list's keys, view by view (? shows them in the app).")

    @Flag(help: "Markdown tables (README's key section is this output).") var markdown = false

    func run() {
        print(markdown ? KeyReference.markdown : KeyReference.plainText, terminator: "")
    }
}
