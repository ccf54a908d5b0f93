/// One iCalendar component (RFC 5545 §3.4–3.6): `VCALENDAR`, `VTODO`, `VALARM`, … with its
/// properties and the components nested in it, in the order they came. Values stay as written
/// (escaped, folded lines joined), so what no field of ours models goes back out as it came in.
public struct ICalendarComponent: Sendable, Hashable {
    /// The name after `BEGIN:`, upper-cased.
    public var name: String
    /// Its properties, in order.
    public var properties: [ICalendarProperty]
    /// The components inside it, in order.
    public var components: [ICalendarComponent]

    /// A component.
    public init(name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = []) {
        (self.name, self.properties, self.components) = (name.uppercased(), properties, components)
    }

    /// The first property with this name (upper-case).
    public func property(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }

    /// Every property with this name (upper-case).
    public func properties(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }

    /// Leaves out every property with one of these names.
    public mutating func remove(_ names: Set<String>) { properties.removeAll { names.contains($0.name) } }
}

/// One content line: `NAME;PARAM=VALUE;…:value`.
public struct ICalendarProperty: Sendable, Hashable {
    /// The name, upper-cased.
    public var name: String
    /// The parameters in order: names upper-cased, values unquoted.
    public var parameters: [(name: String, values: [String])]
    /// The value as written (TEXT values escaped: see `ICalendarText`).
    public var value: String

    /// A property.
    public init(_ name: String, _ value: String, parameters: [(name: String, values: [String])] = []) {
        (self.name, self.value, self.parameters) = (name.uppercased(), value, parameters)
    }

    /// The first value of a parameter (its name upper-case).
    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.values.first }

    public static func == (a: ICalendarProperty, b: ICalendarProperty) -> Bool {
        a.name == b.name && a.value == b.value && a.parameters.map(\.name) == b.parameters.map(\.name)
            && a.parameters.map(\.values) == b.parameters.map(\.values)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.values)
        }
    }
}
