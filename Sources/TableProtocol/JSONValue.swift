import Foundation

/// A JSON value as it travels in table protocol bodies; objects keep their key order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string payload, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The number payload, if this is a number.
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    /// The boolean payload, if this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The object payload, if this is an object.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// True for JSON `null`.
    public var isNull: Bool { if case .null = self { true } else { false } }
}

/// A JSON object that keeps insertion order (so responses print system columns first).
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an object from ordered members; a later duplicate key replaces an earlier one.
    public init(_ members: [(String, JSONValue)] = []) {
        self.members = []
        for (k, v) in members { self[k] = v }
    }

    /// Creates an object from members whose keys the caller knows to be distinct (no checks).
    public init(uniqueKeysWithValues members: [(String, JSONValue)]) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// The value for a key (exact case), or nil when absent.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let i = position(of: key) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Where `key` stands among the members. A loop over indices reads each key in place;
    /// `first(where:)` copied every member it passed (a retain and release of its key and value),
    /// and every read of an item asks.
    private func position(of key: String) -> Int? {
        for index in members.indices where members[index].key == key { return index }
        return nil
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }
    /// Number of members.
    public var count: Int { members.count }

    /// True when it has no members.
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        for (k, v) in members.sorted(by: { $0.key < $1.key }) { hasher.combine(k); hasher.combine(v) }
    }
}

extension JSONValue {
    /// A number that is a whole `Int`, or nil (not a number, a fraction, or out of `Int`'s range:
    /// `Int(1e300)` traps, and a server's reply may say anything).
    public var wholeNumberValue: Int? {
        guard case .number(let number) = self else { return nil }
        return Int(exactly: number)
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let n = try? c.decode(Double.self) { self = .number(n); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        let keyed = try decoder.container(keyedBy: AnyKey.self)
        var members: [(String, JSONValue)] = []
        for key in keyed.allKeys { members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key))) }
        self = .object(JSONObject(members))
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let o):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in o { try c.encode(v, forKey: AnyKey(stringValue: k)) }
        default:
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case .bool(let b): try c.encode(b)
            case .number(let n): try c.encode(n)
            case .string(let s): try c.encode(s)
            case .array(let a): try c.encode(a)
            case .object: break
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
