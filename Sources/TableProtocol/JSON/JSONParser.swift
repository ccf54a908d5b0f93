import Foundation

extension JSONValue {
    /// Parses JSON text (any top-level value) with Foundation's parser, which is several times
    /// faster than decoding the enum through `Codable`.
    public static func parse(_ data: Data) throws -> JSONValue {
        try convert(JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    private static func convert(_ value: Any) throws -> JSONValue {
        switch value {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let number as NSNumber:
            // Foundation reports JSON booleans as NSNumbers of Objective-C type "c".
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let array as [Any]: return .array(try array.map(convert))
        case let object as [String: Any]:
            return .object(JSONObject(uniqueKeysWithValues: try object.map { ($0.key, try convert($0.value)) }))
        default:
            throw JSONParseError(description: "unsupported JSON value \(type(of: value))")
        }
    }
}

/// JSON that Foundation parsed into something JSON cannot hold.
public struct JSONParseError: Error, CustomStringConvertible {
    /// What was found.
    public var description: String
}
