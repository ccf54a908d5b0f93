import Foundation
import Testing

/// Every fuzz input kept in the repository (the seed corpora and each crash, leak or timeout
/// `make fuzz` ever found, in `Fuzz/Regressions`) goes once through its target's check, in this
/// ordinary debug build: a parser change that breaks a kept input fails `make test` without
/// the sanitizer build. Leaks and time limits are `make fuzz`'s (AddressSanitizer, libFuzzer's
/// `-timeout`); here an input is held to every property its target asserts.
@Suite struct FuzzReplayTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz").standardized

    /// The kept inputs of a target: its corpus, then its regressions.
    static func inputs(of target: FuzzTarget) throws -> [URL] {
        try ["Corpus", "Regressions"].flatMap { kind -> [URL] in
            let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
            guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyKeptInputHoldsItsTargetsProperties(_ target: FuzzTarget) async throws {
        let inputs = try Self.inputs(of: target)
        #expect(!inputs.isEmpty, "\(target.rawValue) has no kept input under \(Self.fuzzFolder.path)")
        for file in inputs {
            let bytes = try [UInt8](Data(contentsOf: file))
            if let failure = await target.check(bytes) {
                Issue.record("\(target.rawValue) \(file.lastPathComponent): \(failure)")
            }
        }
    }

    @Test func everyTargetOfTheFuzzPackageIsReplayed() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.appendingPathComponent("Sources").path)
        #expect(Set(folders) == Set(FuzzTarget.allCases.map(\.rawValue)))
    }
}
