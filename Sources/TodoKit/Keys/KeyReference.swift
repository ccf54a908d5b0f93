/// Every view's keys as a reference, made from the key tables themselves: `todo keys` prints
/// it, the man page carries it, and README's key table is this markdown (a test fails when
/// they drift).
public enum KeyReference {
    /// One view's keys.
    public struct Section: Sendable, Equatable {
        /// The view's name.
        public var title: String
        /// Its keys, in help order.
        public var rows: [HelpRow]
    }

    /// Every view, in the order a person meets them.
    public static let sections: [Section] = [
        Section(title: "The list", rows: KeyTables.list.helpRows + KeyTables.global.helpRows),
        Section(title: "The “New item:” prompt", rows: KeyTables.addPrompt.helpRows),
        Section(title: "The “Change … marked:” prompt", rows: KeyTables.markedChangePrompt.helpRows),
        Section(title: "The “Filter:” prompt", rows: KeyTables.filterPrompt.helpRows),
        Section(title: "Deleting (y/n)", rows: KeyTables.confirm.helpRows),
        Section(title: "The help", rows: KeyTables.help.helpRows),
        Section(title: "The view switcher (v)", rows: KeyTables.scopeSwitcher.helpRows),
        Section(title: "The editor", rows: KeyTables.editor.helpRows),
        Section(title: "Every text field (editor, prompts, sign-in)", rows: KeyTables.textField.helpRows),
        Section(title: "The conflict dialog", rows: KeyTables.dialog.helpRows),
        Section(title: "The conflict history", rows: KeyTables.history.helpRows),
        Section(title: "The sign-in dialog", rows: KeyTables.signIn.helpRows),
        Section(title: "The share dialog (s on a list)", rows: KeyTables.shareDialog.helpRows),
        Section(title: "The “Export to:” prompt (x)", rows: KeyTables.exportPrompt.helpRows),
    ]

    /// The reference as markdown: a table per view.
    public static var markdown: String {
        sections.map { section in
            "**\(section.title)**\n\n| key | does |\n|---|---|\n"
                + section.rows.map { "| \(markdownKeys($0.keys)) | \($0.title) |\n" }.joined()
        }.joined(separator: "\n")
    }

    /// The reference as plain text, for a terminal or a man page.
    public static var plainText: String {
        sections.map { section in
            // Key labels are one column per character (arrows included).
            let width = section.rows.map(\.keys.count).max() ?? 0
            return section.title.uppercased() + "\n" + section.rows.map { row in
                "  " + row.keys + String(repeating: " ", count: width - row.keys.count) + "  " + row.title + "\n"
            }.joined()
        }.joined(separator: "\n")
    }

    /// "↑ / k" as "`↑`, `k`".
    private static func markdownKeys(_ keys: String) -> String {
        keys.components(separatedBy: " / ").map { "`\($0)`" }.joined(separator: ", ")
    }
}
