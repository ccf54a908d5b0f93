import Foundation
@testable import SyncServer
import Testing

/// Item versions: opaque, random and never repeated.
@Suite struct RandomVersionsTests {
    @Test func versionsDoNotRepeatAcrossManyBufferRefills() {
        let versions = (0..<100_000).map { _ in RandomVersions.next() }
        #expect(Set(versions).count == versions.count)
    }

    @Test func aVersionIsSixteenBytesInBase64() throws {
        let bytes = try #require(Data(base64Encoded: RandomVersions.next()))
        #expect(bytes.count == 16)
    }

    @Test func versionsMadeOnManyThreadsAtOnceDoNotRepeat() async {
        let versions = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { (0..<5_000).map { _ in RandomVersions.next() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(versions).count == 40_000)
    }
}
