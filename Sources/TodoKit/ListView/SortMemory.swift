import Foundation

/// Each view's sort, kept in a small file beside the store: a device remembers how each of its
/// views is sorted (`o`), and another device keeps its own.
public struct SortMemory: Sendable {
    let path: String

    /// The sorts remembered, by `ListScope.memoryKey`; none when there is no file yet or it cannot
    /// be read (a name this version does not know is left out).
    public func load() -> [String: ListSort] {
        guard let data = FileManager.default.contents(atPath: path),
              let names = try? JSONSerialization.jsonObject(with: data) as? [String: String] else { return [:] }
        return names.compactMapValues(ListSort.init(rawValue:))
    }

    /// Remembers `sorts`, replacing what was remembered.
    public func save(_ sorts: [String: ListSort]) {
        guard let data = try? JSONSerialization.data(withJSONObject: sorts.mapValues(\.rawValue), options: [.sortedKeys]) else { return }
        try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
