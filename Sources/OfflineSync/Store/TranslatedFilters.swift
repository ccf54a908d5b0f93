import Foundation
import FilterSQL
import Synchronization
import TableProtocol

/// Filters lately checked and translated to SQL, by table and filter: a list's every window of
/// the open items names the thousands of subtasks that stand at the top, and checking and
/// translating that filter again for each window was a fifth of scrolling's work.
final class TranslatedFilters: Sendable {
    /// A filter as checked (`SyncQuery.checkedFilter`), its `WHERE` clause and the clause's binds.
    struct Translation: Sendable {
        let checked: FilterExpression?
        let whereClause: String
        let binds: SQLBinds
    }

    private struct Key: Equatable, Sendable {
        let definition: SyncTableDefinition
        let filter: FilterExpression?

        /// The same filter in the same bytes: Swift's `==` takes canonically equivalent text for
        /// equal ("é" and "e" with a combining accent), where SQLite compares bytes, and the
        /// second would have been answered with the first one's binds.
        static func == (lhs: Key, rhs: Key) -> Bool {
            guard lhs.definition == rhs.definition else { return false }
            switch (lhs.filter, rhs.filter) {
            case (nil, nil): return true
            case (let left?, let right?): return left.isByteForByte(right)
            default: return false
            }
        }
    }

    /// Translations kept: the lists of a few views, with their counts.
    static let capacity = 16

    private let entries = Mutex<[(key: Key, translation: Translation)]>([])

    /// The translation of `query`'s filter on `definition`, made by `translate` unless kept.
    func translation(of query: SyncQuery, on definition: SyncTableDefinition, _ translate: () throws -> Translation) throws -> Translation {
        let key = Key(definition: definition, filter: query.predicate)
        if let kept = entries.withLock({ entries in entries.first { $0.key == key }?.translation }) { return kept }
        let made = try translate()
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.insert((key, made), at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
        return made
    }
}

extension FilterExpression {
    /// Equal to `other` (as `==`, positions aside), and every name and text in the same bytes.
    func isByteForByte(_ other: FilterExpression) -> Bool {
        switch (node, other.node) {
        case (.literal(let a), .literal(let b)):
            return Self.sameBytes(a, b)
        case (.member(let a), .member(let b)):
            return Self.sameBytes(a, b)
        case (.unary(let op, let a), .unary(let otherOp, let b)):
            return op == otherOp && a.isByteForByte(b)
        case (.binary(let op, let a, let c), .binary(let otherOp, let b, let d)):
            return op == otherOp && a.isByteForByte(b) && c.isByteForByte(d)
        case (.call(let function, let a), .call(let otherFunction, let b)):
            return function == otherFunction && a.count == b.count && a.indices.allSatisfy { a[$0].isByteForByte(b[$0]) }
        case (.oneOf(let a, let these), .oneOf(let b, let those)):
            return these.count == those.count && these.indices.allSatisfy { Self.sameBytes(these[$0], those[$0]) } && a.isByteForByte(b)
        default:
            return false
        }
    }

    private static func sameBytes(_ a: FilterLiteral, _ b: FilterLiteral) -> Bool {
        guard case .string(let x) = a, case .string(let y) = b else { return a == b }
        return sameBytes(x, y)
    }

    /// Compared as bytes in place (a native string's are contiguous), not a byte at a time.
    private static func sameBytes(_ x: String, _ y: String) -> Bool {
        var x = x, y = y
        return x.withUTF8 { a in y.withUTF8 { b in a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0) } }
    }
}
