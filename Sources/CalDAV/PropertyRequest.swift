import WebDAVXML
/// Which properties a PROPFIND or REPORT asks for (RFC 4918 §9.1): all of them (with
/// `DAV:include`'s extra ones), only their names, or the listed ones.
enum PropertyRequest: Sendable {
    case all(include: [QName])
    case names
    case some([QName])

    /// From a PROPFIND body (an empty body asks for all) or a REPORT's children.
    init(_ element: DAVElement?) {
        guard let element else {
            self = .all(include: [])
            return
        }
        if let prop = element.child(.dav("prop")) {
            self = .some(prop.children.map(\.name))
        } else if element.child(.dav("propname")) != nil {
            self = .names
        } else {
            self = .all(include: element.child(.dav("include"))?.children.map(\.name) ?? [])
        }
    }

    /// True when answering needs a task's text (its `calendar-data` or `getcontentlength`).
    var needsContent: Bool {
        switch self {
        case .all, .names: return true
        case .some(let names): return names.contains(.caldav("calendar-data")) || names.contains(.dav("getcontentlength"))
        }
    }

    /// True when `name` is asked for by name.
    func asks(_ name: QName) -> Bool {
        switch self {
        case .all(let include): return include.contains(name)
        case .names: return false
        case .some(let names): return names.contains(name)
        }
    }

    /// The propstats of a resource offering `available` (in order), of which `inAll` come with
    /// `allprop`. `minimal` (`Prefer: return=minimal`): properties it lacks are left out.
    func propstats(_ available: [PropertyValue], inAll: Set<QName>, minimal: Bool) -> [(status: Int, properties: [PropertyValue])] {
        switch self {
        case .names:
            return [(200, available.map { PropertyValue($0.name) })]
        case .all(let include):
            let found = available.filter { inAll.contains($0.name) || include.contains($0.name) }
            return [(200, found)]
        case .some(let names):
            var found: [PropertyValue] = [], missing: [PropertyValue] = []
            for name in names {
                if let value = available.first(where: { $0.name == name }) { found.append(value) } else { missing.append(PropertyValue(name)) }
            }
            return minimal ? [(200, found)] : [(200, found), (404, missing)]
        }
    }
}
