import Foundation

/// The query options of `GET /tables/{t}`, parsed and validated.
public struct TableQuery: Sendable, Equatable {
    /// `$filter`, nil when absent or blank.
    public var filter: FilterExpression?
    /// `$orderby` terms in order (without the server's `id` tie-breaker).
    public var orderBy: [OrderByClause]
    /// `$top`, nil when absent; not capped here (the server rejects values over 1000).
    public var top: Int?
    /// `$skip`, nil when absent, invalid or negative.
    public var skip: Int?
    /// `$select` member names, nil when absent, blank or `*`.
    public var select: [String]?
    /// `$inlinecount=allpages`.
    public var includeTotalCount: Bool
    /// `__includeDeleted=true`.
    public var includeDeleted: Bool

    /// Creates a query from its parts.
    public init(filter: FilterExpression? = nil, orderBy: [OrderByClause] = [], top: Int? = nil, skip: Int? = nil,
                select: [String]? = nil, includeTotalCount: Bool = false, includeDeleted: Bool = false) {
        self.filter = filter
        self.orderBy = orderBy
        self.top = top
        self.skip = skip
        self.select = select
        self.includeTotalCount = includeTotalCount
        self.includeDeleted = includeDeleted
    }

    /// Parses URL query items (names case-insensitive, first occurrence wins, unknown names ignored).
    public init(queryItems: [URLQueryItem], maxFilterDepth: Int = 64) throws(TableQueryError) {
        var values: [String: String] = [:]
        for item in queryItems {
            let name = item.name.caseFolded
            if values[name] == nil { values[name] = item.value ?? "" }
        }
        self.init()
        if let text = values["$filter"], !Self.isBlank(text) {
            do { filter = try FilterParser.parse(text, maxDepth: maxFilterDepth) } catch { throw Self.invalid("$filter", error) }
        }
        if let text = values["$orderby"] {
            do { orderBy = try OrderByClause.parseList(text) } catch { throw Self.invalid("$orderby", error) }
        }
        if let text = values["$top"] {
            guard let n = Self.nonNegativeInteger(text) else {
                throw TableQueryError(parameter: "$top", message: "Invalid $top: expected a non-negative integer")
            }
            top = n
        }
        if let text = values["$skip"] { skip = Self.nonNegativeInteger(text) }
        if let text = values["$select"], !Self.isBlank(text), text.trimmingCharacters(in: .whitespaces) != "*" {
            do { select = try SelectList.parse(text) } catch { throw Self.invalid("$select", error) }
        }
        switch values["$inlinecount"]?.caseFolded {
        case nil, "", "none": includeTotalCount = false
        case "allpages": includeTotalCount = true
        default:
            throw TableQueryError(parameter: "$inlinecount", message: "Invalid $inlinecount: expected 'allpages' or 'none'")
        }
        includeDeleted = values["__includedeleted"]?.caseFolded == "true"
    }

    /// Canonical query items (filter printed by `FilterPrinter`); parsing them gives back this query.
    public var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let filter { items.append(URLQueryItem(name: "$filter", value: FilterPrinter.print(filter))) }
        if !orderBy.isEmpty { items.append(URLQueryItem(name: "$orderby", value: OrderByClause.format(orderBy))) }
        if let top { items.append(URLQueryItem(name: "$top", value: String(top))) }
        if let skip { items.append(URLQueryItem(name: "$skip", value: String(skip))) }
        if let select, !select.isEmpty { items.append(URLQueryItem(name: "$select", value: SelectList.format(select))) }
        if includeTotalCount { items.append(URLQueryItem(name: "$inlinecount", value: "allpages")) }
        if includeDeleted { items.append(URLQueryItem(name: "__includeDeleted", value: "true")) }
        return items
    }

    private static func invalid(_ parameter: String, _ error: FilterParseError) -> TableQueryError {
        TableQueryError(parameter: parameter, message: "Invalid \(parameter): \(error)")
    }

    private static func isBlank(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(isWhitespace) }

    /// ASCII digits (surrounding whitespace allowed); too large a value clamps to `Int.max`.
    private static func nonNegativeInteger(_ text: String) -> Int? {
        // Byte-level (every page request has two): spaces around, ASCII digits inside.
        let digits = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var value = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 48))
            if overflow1 || overflow2 { return Int.max }
            value = sum
        }
        return value
    }
}
