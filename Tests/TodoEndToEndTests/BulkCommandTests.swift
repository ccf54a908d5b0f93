import Foundation
import ServerTestSupport
import Testing

/// `todo export`, `todo import` and `todo edit --all`, as scripts use them.
@Suite struct BulkCommandTests {
    func write(_ text: String, in dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func exportedJSONImportsOnAnotherDeviceWithItsIdsAndASecondImportAddsNothing() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "buy milk"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["add", "call mum"], home: home)
        try await TodoCLI.run(["done", id], home: home)
        let export = try await TodoCLI.run(["export"], home: home)
        #expect(export.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(export.out.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["text"] as? String } == ["buy milk", "call mum"])
        #expect(rows.first?["id"] as? String == id)
        #expect(rows.first?["complete"] as? Bool == true)
        let file = try write(export.out, in: home, "items.json")
        let first = try await TodoCLI.run(["import", file, "--device", "other"], home: home)
        #expect(first.out.contains("Imported 2 items"))
        let again = try await TodoCLI.run(["import", file, "--device", "other"], home: home)
        #expect(again.out.contains("Imported 0 items (2 already here)"))
        let list = try await TodoCLI.run(["list", "--all", "--device", "other"], home: home).out
        #expect(list.contains("\(id)\t[x]\tbuy milk"))
        #expect(list.split(separator: "\n").count == 2)
    }

    @Test func exportWithOutputWritesTheFileStdoutWouldHaveHad() async throws {
        let home = try TempDir.make()
        try await TodoCLI.run(["add", "buy milk +home"], home: home)
        try await TodoCLI.run(["add", "call mum"], home: home)
        let file = home.appendingPathComponent("items.txt").path
        let written = try await TodoCLI.run(["export", "--format", "todotxt", "--output", file], home: home)
        #expect(written.status == 0 && written.out.isEmpty)
        let printed = try await TodoCLI.run(["export", "--format", "todotxt"], home: home).out
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed)
    }

    @Test func exportIntoAFolderThatIsNotThereFailsSayingWhich() async throws {
        let home = try TempDir.make()
        try await TodoCLI.run(["add", "buy milk"], home: home)
        let missing = home.appendingPathComponent("nowhere/items.json").path
        let result = try await TodoCLI.run(["export", "-o", missing], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("there is no folder \(home.appendingPathComponent("nowhere").path)"))
    }

    @Test func todoTxtFieldsArriveAndExportBackAsTheSameLines() async throws {
        let home = try TempDir.make()
        let file = try write("x 2026-11-20 (A) pay rent +home\n\n(B) write report @work due:2026-12-01\n", in: home, "todo.txt")
        #expect(try await TodoCLI.run(["import", file], home: home).out.contains("Imported 2 items"))
        let list = try await TodoCLI.run(["list", "--all"], home: home).out
        #expect(list.contains("[x]\tpay rent\t!high +home"))
        #expect(list.contains("[ ]\twrite report\tdue 2026-12-01 !medium #work"))
        let back = try await TodoCLI.run(["export", "--format", "todotxt"], home: home).out
        #expect(back == "x 2026-11-20 (A) pay rent +home\n(B) write report @work due:2026-12-01\n")
        #expect(try await TodoCLI.run(["import", file], home: home).out.contains("Imported 0 items"))
    }

    @Test func aMalformedFileChangesNothingAndNamesTheLine() async throws {
        let home = try TempDir.make()
        let file = try write("[{\"id\": \"a1\", \"text\": \"fine\"},\n {\"id\": \"a2\", \"complete\": true}]", in: home, "bad.json")
        let result = try await TodoCLI.run(["import", file], home: home)
        #expect(result.status == 1)
        #expect(result.err.contains("line 2: item 2 has no \"text\" string"))
        #expect(try await TodoCLI.run(["list", "--all"], home: home).out.isEmpty)
        let broken = try write("[{\"text\": \"a\"},\n{\"text\": ", in: home, "cut.json")
        let cut = try await TodoCLI.run(["import", broken], home: home)
        #expect(cut.status == 1)
        #expect(cut.err.contains("line 2"))
    }

    @Test func editAllMarksTheMatchingItemsInOneUndoStep() async throws {
        let home = try TempDir.make()
        for text in ["buy milk", "buy bread", "call mum"] { try await TodoCLI.run(["add", text], home: home) }
        let edit = try await TodoCLI.run(["edit", "--all", "--match", "BUY", "--complete", "true"], home: home)
        #expect(edit.out.contains("Marked 2 items done"))
        #expect(try await TodoCLI.run(["list"], home: home).out.split(separator: "\n").count == 1)
        #expect(try await TodoCLI.run(["undo"], home: home).out.contains("Undid edit of 2 items"))
        #expect(try await TodoCLI.run(["list"], home: home).out.split(separator: "\n").count == 3)
        #expect(try await TodoCLI.run(["edit", "--all", "--text", "x"], home: home).status != 0)
    }
}
