import Foundation
import TableProtocol

/// Records to items and back.
///
/// Writing goes through `ItemEncoder`, which writes a nil optional as null (Swift's synthesised
/// `Codable` skips it, and an update that skipped it would leave the stored value in place).
/// Reading goes through `ItemDecoder`, straight from the stored item. Dates are the protocol's
/// ISO-8601 millisecond strings both ways.
enum RecordCoding {
    /// The item for a record: its properties, nils as nulls.
    static func item<Record: SyncRecord>(_ record: Record) throws -> JSONObject {
        let encoder = ItemEncoder()
        try record.encode(to: encoder)
        guard case .object(let object) = encoder.root.value else {
            throw SyncError.invalid("\(Record.self) must encode as an object of properties (a keyed container)")
        }
        return object
    }

    /// The record and system properties of a stored item.
    static func synced<Record: SyncRecord>(_ item: JSONObject) throws -> Synced<Record> {
        let record: Record
        do {
            record = try Record(from: ItemDecoder(.object(item)))
        } catch {
            throw SyncError.invalid("The item '\(item[SystemProperty.id]?.stringValue ?? "")' of \(Record.tableName) does not decode as \(Record.self): \(error)")
        }
        return Synced(
            record: record, version: item[SystemProperty.version]?.stringValue, deleted: item[SystemProperty.deleted]?.boolValue ?? false,
            createdAtText: item[SystemProperty.createdAt]?.stringValue, updatedAtText: item[SystemProperty.updatedAt]?.stringValue,
            updatedBy: item[SystemProperty.updatedBy]?.stringValue, space: SharedSpace.of(item))
    }
}

/// An `Encoder` that builds a `JSONValue` tree directly (no bytes in between).
final class ItemEncoder: Encoder {
    /// A value being built; containers hold nodes so that nested containers filled later land in place.
    final class Node {
        enum Content {
            case value(JSONValue)
            case object([(String, Node)])
            case array([Node])
        }
        var content: Content = .value(.null)

        var value: JSONValue {
            switch content {
            case .value(let value): return value
            case .object(let members): return .object(JSONObject(uniqueKeysWithValues: members.map { ($0.0, $0.1.value) }))
            case .array(let items): return .array(items.map(\.value))
            }
        }

        func set(_ key: String, _ node: Node) {
            guard case .object(var members) = content else { content = .object([(key, node)]); return }
            if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = node } else { members.append((key, node)) }
            content = .object(members)
        }

        func append(_ node: Node) {
            guard case .array(var items) = content else { content = .array([node]); return }
            items.append(node)
            content = .array(items)
        }
    }

    let root: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(root: Node = Node(), codingPath: [any CodingKey] = []) {
        self.root = root
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .value = root.content { root.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: root, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .value = root.content { root.content = .array([]) }
        return UnkeyedContainer(node: root, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: root, codingPath: codingPath) }

    /// The JSON value of a leaf, or nil for a value that encodes itself (nested types).
    static func scalar(_ value: any Encodable) -> JSONValue? {
        switch value {
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int: return .number(Double(v))
        case let v as Int64: return .number(Double(v))
        case let v as Int32: return .number(Double(v))
        case let v as Int8: return .number(Double(v))
        case let v as Int16: return .number(Double(v))
        case let v as UInt: return .number(Double(v))
        case let v as UInt8: return .number(Double(v))
        case let v as UInt16: return .number(Double(v))
        case let v as UInt32: return .number(Double(v))
        case let v as UInt64: return .number(Double(v))
        case let v as Double: return .number(v)
        case let v as Float: return .number(Double(v))
        case let v as Date: return .string(SyncDateFormat.string(from: v))
        case let v as URL: return .string(v.absoluteString)
        case let v as UUID: return .string(v.uuidString)
        default: return nil
        }
    }

    /// A node for any value: a scalar directly, anything else through its own `encode(to:)`.
    static func node(for value: any Encodable, codingPath: [any CodingKey]) throws -> Node {
        let node = Node()
        if let scalar = scalar(value) {
            node.content = .value(scalar)
        } else {
            try value.encode(to: ItemEncoder(root: node, codingPath: codingPath))
        }
        return node
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, Node()) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(key.stringValue, try ItemEncoder.node(for: value, codingPath: codingPath + [key]))
        }

        // Synthesised `Codable` skips nil optionals; an item writes them as null, so an update clears them.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresent(value as (any Encodable)?, key) }

        private mutating func encodeIfPresent(_ value: (any Encodable)?, _ key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            node.set(key.stringValue, try ItemEncoder.node(for: value, codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .object([])
            node.set(key.stringValue, child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .array([])
            node.set(key.stringValue, child)
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Node()
            node.set(key.stringValue, child)
            return ItemEncoder(root: child, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let items) = node.content { return items.count }
            return 0
        }

        mutating func encodeNil() throws { node.append(Node()) }

        mutating func encode<T: Encodable>(_ value: T) throws { node.append(try ItemEncoder.node(for: value, codingPath: codingPath)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .object([])
            node.append(child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .array([])
            node.append(child)
            return UnkeyedContainer(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node()
            node.append(child)
            return ItemEncoder(root: child, codingPath: codingPath)
        }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .value(.null) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.content = try ItemEncoder.node(for: value, codingPath: codingPath).content
        }
    }
}
