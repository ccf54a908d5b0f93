import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
import TodoModel

/// `x` writes every item to a file, as `todo export` does: the prompt, the flow through the
/// runtime, and the file on a real store.
@MainActor
@Suite struct ExportTests {
    func prompt(_ app: ListFixture) -> ExportPromptViewModel? {
        if case .export(let prompt)? = app.state.layers.last { prompt } else { nil }
    }

    @Test func xOpensThePromptWithTheDefaultFile() {
        var app = ListFixture(["milk"])
        app.press(.character("x"))
        #expect(prompt(app)?.field.text == "~/todo-export.json")
        #expect(prompt(app)?.format == .json)
    }

    @Test func enterAsksToWriteTheFileInTheFormatItsNameSays() {
        var app = ListFixture(["milk"])
        app.press(.character("x"))
        for _ in 0..<4 { app.press(.backspace) }
        app.type("txt")
        #expect(app.send(.key(.enter)) == [.export(.write(path: "~/todo-export.txt", format: .todotxt))])
        #expect(prompt(app) == nil)
    }

    @Test func anEmptyNameWritesNothingAndThePromptStays() {
        var app = ListFixture(["milk"])
        app.press(.character("x"))
        app.press(.control("u"))
        #expect(app.send(.key(.enter)) == [])
        #expect(prompt(app)?.preview == "Type a file name")
    }

    @Test func escapeClosesThePromptWithoutWriting() {
        var app = ListFixture(["milk"])
        app.press(.character("x"))
        #expect(app.send(.key(.escape)) == [])
        #expect(prompt(app) == nil)
    }

    @Test func theRuntimeWritesTheFileAndTheStatusBarSaysHowMany() async throws {
        let outside = InMemoryEnvironment(["milk", "bread"])
        let app = AppRuntime.started(outside)
        app.key(.character("x"))
        app.key(.enter)
        try await eventually("exported") { app.state.status.message == "Exported 2 items to ~/todo-export.json" }
        let written = try #require(outside.exportedFiles["~/todo-export.json"])
        #expect(try TodoFile.parse(Data(written.utf8)).map(\.item.text).sorted() == ["bread", "milk"])
    }

    @Test func aFailedExportSaysWhyOnTheStatusBar() async throws {
        let outside = InMemoryEnvironment(["milk"])
        let app = AppRuntime.started(outside)
        app.key(.character("x"))
        app.key(.control("u"))
        app.type("/missing/x.json")
        app.key(.enter)
        try await eventually("refused") { app.state.status.message == "Could not export: there is no folder /missing/x.json" }
        #expect(outside.exportedFiles.isEmpty)
    }

    @Test func theServiceWritesWhatTodoExportWrites() async throws {
        let service = try makeService()
        _ = try await service.items.add("buy milk +home")
        _ = try await service.items.add("call mum")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("items.txt").path
        let (count, written) = try service.exporting.export(toFile: path, format: .todotxt)
        #expect(count == 2 && written == path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == TodoFile.render(try service.exporting.allEntries(), as: .todotxt))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["items.txt"])  // no partial file left
    }

    @Test func exportingIntoAFolderThatIsNotThereFailsSayingSo() throws {
        let service = try makeService()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        let error = #expect(throws: SyncError.self) { try service.exporting.export(toFile: folder.appendingPathComponent("items.json").path, format: .json) }
        #expect(error?.message == "there is no folder \(folder.path)")
    }

    @Test func exportingOntoAFolderFailsBeforeWritingAndLeavesNothingBehind() async throws {
        let service = try makeService()
        _ = try await service.items.add("buy milk")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        let target = folder.appendingPathComponent("items.json")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: SyncError.self) { try service.exporting.export(toFile: target.path, format: .json) }
        #expect(error?.message == "\(target.path) is a folder: name a file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["items.json"])
    }

    @Test func aKilledExportsPartialFileIsWrittenOverByTheNext() async throws {
        let service = try makeService()
        _ = try await service.items.add("buy milk")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("half a file from a killed export".utf8).write(to: folder.appendingPathComponent(".items.json.partial"))
        _ = try service.exporting.export(toFile: folder.appendingPathComponent("items.json").path, format: .json)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["items.json"])
        #expect(try TodoFile.parse(Data(contentsOf: folder.appendingPathComponent("items.json"))).map(\.item.text) == ["buy milk"])
    }

    @Test func aSpaceAfterTheNameDoesNotChangeTheFormat() {
        var app = ListFixture(["milk"])
        app.press(.character("x"))
        app.press(.control("u"))
        app.type("items.txt ")
        #expect(app.send(.key(.enter)) == [.export(.write(path: "items.txt", format: .todotxt))])
    }
}
