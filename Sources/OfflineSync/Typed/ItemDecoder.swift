import Foundation
import TableProtocol

/// A `Decoder` that reads a `JSONValue` tree directly: a record is decoded from the stored item
/// without writing it to JSON bytes and parsing them again. Through Foundation's `JSONDecoder`
/// a typed read took several times the dictionary read (BENCHMARKS.md, "OfflineSync": a
/// 1,000-row read as typed records). Dates are the protocol's ISO-8601 millisecond strings.
struct ItemDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw Self.mismatch([String: Int].self, value, codingPath) }
        return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw Self.mismatch([Int].self, value, codingPath) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    /// A value of `type` from `value`: leaves directly, anything else through its own `init(from:)`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        if let leaf = try leaf(type, value, codingPath) { return leaf }
        return try T(from: ItemDecoder(value, codingPath: codingPath))
    }

    private static func leaf<T>(_ type: T.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) throws -> T? {
        func number() throws -> Double {
            guard case .number(let n) = value else { throw mismatch(type, value, codingPath) }
            return n
        }
        func integer<I: BinaryInteger>(_: I.Type) throws -> I {
            let n = try number()
            guard let exact = I(exactly: n) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(n) is not a whole \(I.self)"))
            }
            return exact
        }
        switch type {
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch(type, value, codingPath) }
            return s as? T
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch(type, value, codingPath) }
            return b as? T
        case is Double.Type: return try number() as? T
        case is Float.Type: return Float(try number()) as? T
        case is Int.Type: return try integer(Int.self) as? T
        case is Int64.Type: return try integer(Int64.self) as? T
        case is Int32.Type: return try integer(Int32.self) as? T
        case is UInt.Type: return try integer(UInt.self) as? T
        case is Int8.Type: return try integer(Int8.self) as? T
        case is Int16.Type: return try integer(Int16.self) as? T
        case is UInt8.Type: return try integer(UInt8.self) as? T
        case is UInt16.Type: return try integer(UInt16.self) as? T
        case is UInt32.Type: return try integer(UInt32.self) as? T
        case is UInt64.Type: return try integer(UInt64.self) as? T
        case is URL.Type:
            // Written as its string by `ItemEncoder`; Foundation's own decoding wants a keyed form.
            guard case .string(let s) = value, let url = URL(string: s) else { throw mismatch(type, value, codingPath) }
            return url as? T
        case is Date.Type:
            guard case .string(let s) = value, let date = SyncDateFormat.date(from: s) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) is not an ISO-8601 date"))
            }
            return date as? T
        default: return nil
        }
    }

    static func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(T.self), found \(value)"))
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: JSONObject
        let codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = object[key.stringValue] else { return true }
            return value.isNull
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
            }
            if value.isNull {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "'\(key.stringValue)' is null"))
            }
            return try ItemDecoder.decode(type, from: value, codingPath: codingPath + [key])
        }

        // The common leaves and their optionals decoded in one lookup, without the dynamic casts
        // of the generic path (a typed 1,000-row read: most of its cost above the dictionary read).
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try leaf(key) { $0.stringValue } }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try leaf(key) { $0.boolValue } }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try leaf(key) { $0.numberValue } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optionalLeaf(key) { $0.stringValue } }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalLeaf(key) { $0.boolValue } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optionalLeaf(key) { $0.numberValue } }

        private func leaf<T>(_ key: Key, _ read: (JSONValue) -> T?) throws -> T {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
            }
            guard let leaf = read(value) else { throw ItemDecoder.mismatch(T.self, value, codingPath + [key]) }
            return leaf
        }

        private func optionalLeaf<T>(_ key: Key, _ read: (JSONValue) -> T?) throws -> T? {
            guard let value = object[key.stringValue], !value.isNull else { return nil }
            guard let leaf = read(value) else { throw ItemDecoder.mismatch(T.self, value, codingPath + [key]) }
            return leaf
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try ItemDecoder(object[key.stringValue] ?? .null, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ItemDecoder(object[key.stringValue] ?? .null, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ItemDecoder(object["super"] ?? .null, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ItemDecoder(object[key.stringValue] ?? .null, codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private mutating func next() throws -> JSONValue {
            guard !isAtEnd else { throw DecodingError.valueNotFound(JSONValue.self, .init(codingPath: codingPath, debugDescription: "no more items")) }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try ItemDecoder.decode(type, from: try next(), codingPath: codingPath) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try ItemDecoder(try next(), codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try ItemDecoder(try next(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { ItemDecoder(try next(), codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try ItemDecoder.decode(type, from: value, codingPath: codingPath) }
    }
}
