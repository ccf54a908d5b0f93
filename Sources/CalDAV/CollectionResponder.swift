import Foundation
import SyncServer
import TableProtocol
import TodoModel
import WebDAVXML

/// Lists as calendars: MKCALENDAR (RFC 4791 §5.3.1) and extended MKCOL (RFC 5689) make one,
/// PROPPATCH renames, recolours or reorders it, DELETE removes it as `todo lists rm` does (its
/// tasks go to the Inbox).
struct CollectionResponder: Sendable {
    let context: DAVContext

    private var lists: TableRows { TableRows(tables: context.services.tables, table: TodoList.tableName, owner: context.account) }

    /// MKCALENDAR or MKCOL at `segment`: a new list of the account's, named by `displayname`.
    func make(_ segment: String, body: DAVElement?, extended: Bool) async throws {
        if let body {
            let expected: QName = extended ? .dav("mkcol") : .caldav("mkcalendar")
            guard body.name == expected else { throw DAVError(400, "The body of this request is a \(expected.name) element") }
        }
        guard segment != TaskCollection.inboxSegment, !segment.contains(TaskCollection.spaceSeparator), ItemID.validate(segment) == nil else {
            throw DAVError(403, "A new calendar's name must be a valid item id other than 'inbox', without '~'", precondition: .dav("resource-must-be-null"))
        }
        let props = body?.child(.dav("set"))?.child(.dav("prop"))
        if extended {
            guard let type = props?.child(.dav("resourcetype")), type.child(.caldav("calendar")) != nil else {
                throw DAVError(403, "Only calendar collections can be made here (resourcetype collection and calendar)", precondition: .dav("valid-resourcetype"))
            }
        }
        if let components = props?.child(.caldav("supported-calendar-component-set")) {
            let names = Set(components.children(.caldav("comp")).compactMap { $0.attributes["name"]?.uppercased() })
            guard names.contains("VTODO") else {
                throw DAVError(403, "This server keeps task lists: a calendar's components must include VTODO", precondition: .caldav("supported-calendar-component"))
            }
        }
        if try await context.directory.collection(segment) != nil { throw DAVError(405, "A calendar exists at this URL") }
        let name: String
        do {
            name = try TodoList.checkedName(props?.child(.dav("displayname"))?.trimmedText ?? segment)
        } catch {
            throw DAVError(403, error.message)
        }
        var row: JSONObject = ["name": .string(name)]
        if let order = props?.child(QName(DAVNamespace.appleICal, "calendar-order")).flatMap({ Double($0.trimmedText) }) { row["position"] = .number(order) }
        if let color = props?.child(QName(DAVNamespace.appleICal, "calendar-color"))?.trimmedText, !color.isEmpty {
            row[TaskCollection.colorColumn] = .string(color)
        }
        let known: Set<QName> = [.dav("displayname"), .dav("resourcetype"), .caldav("supported-calendar-component-set"),
                                 QName(DAVNamespace.appleICal, "calendar-order"), QName(DAVNamespace.appleICal, "calendar-color")]
        let dead = (props?.children ?? []).filter { !known.contains($0.name) && !ResourceProperties.isLive($0.name) }.map { ($0.name, Optional($0)) }
        if !dead.isEmpty {
            switch DeadProperties.applying(dead, to: nil) {
            case .success(let value): row[DeadProperties.column] = value
            case .failure(let error): throw DAVError(403, "\(error.name.name): \(error.reason)", precondition: .dav("valid-prop"))
            }
        }
        let tables = context.services.tables
        if let gone = try await lists.anyRow(id: segment), let version = gone[SystemProperty.version.rawValue]?.stringValue {
            // A list deleted earlier at the same URL comes back.
            let restored = try await tables.undelete(table: TodoList.tableName, id: segment, ifMatch: ETag.quote(version), owner: context.account, writer: context.writer)
            _ = try await tables.update(table: TodoList.tableName, id: segment, body: row, ifMatch: ETag.quote(restored.version), owner: context.account, writer: context.writer)
        } else {
            row["id"] = .string(segment)
            if row["position"] == nil { row["position"] = .number(0) }
            _ = try await tables.insert(table: TodoList.tableName, body: row, owner: context.account, writer: context.writer)
        }
    }

    /// PROPPATCH of a list: `displayname`, Apple's `calendar-color` and `calendar-order`. All or
    /// nothing (RFC 4918 §9.2): one refused property refuses the rest with 424.
    func patch(_ segment: String, body: DAVElement) async throws -> MultiStatus {
        guard body.name == .dav("propertyupdate") else { throw DAVError(400, "A PROPPATCH body is a DAV:propertyupdate element") }
        let collection = try await context.collection(segment)
        var changes: JSONObject = [:]
        var refused: [QName: String] = [:]
        var names: [QName] = []
        var dead: [(QName, DAVElement?)] = []
        for instruction in body.children {
            let remove = instruction.name == .dav("remove")
            guard remove || instruction.name == .dav("set") else { continue }
            for property in instruction.child(.dav("prop"))?.children ?? [] {
                names.append(property.name)
                switch property.name {
                case .dav("displayname") where !remove && !property.trimmedText.isEmpty:
                    do {
                        changes["name"] = .string(try TodoList.checkedName(property.trimmedText))
                    } catch {
                        refused[property.name] = error.message
                    }
                case QName(DAVNamespace.appleICal, "calendar-color"):
                    changes[TaskCollection.colorColumn] = remove || property.trimmedText.isEmpty ? .null : .string(property.trimmedText)
                case QName(DAVNamespace.appleICal, "calendar-order"):
                    if remove { changes["position"] = .number(0) } else if let order = Double(property.trimmedText) { changes["position"] = .number(order) } else {
                        refused[property.name] = "calendar-order is a number"
                    }
                case let name where ResourceProperties.isLive(name): refused[name] = "a property of the server's"
                default: dead.append((property.name, remove ? nil : property))
                }
            }
        }
        if !dead.isEmpty {
            switch DeadProperties.applying(dead, to: collection.list) {
            case .success(let value): changes[DeadProperties.column] = value
            case .failure(let error): refused[error.name] = error.reason
            }
        }
        if collection.listId == nil, !changes.isEmpty { for name in names { refused[name] = "the Inbox's properties cannot change" } }
        if !collection.canWrite { for name in names { refused[name] = "you are a viewer of this shared list" } }
        var status = MultiStatus.Response(href: DAVPath.collection(user: context.user, segment: segment).href)
        if refused.isEmpty {
            if let listId = collection.listId, !changes.isEmpty {
                _ = try await context.services.tables.update(table: TodoList.tableName, id: listId, body: changes, ifMatch: nil,
                                                            owner: collection.namespace, writer: context.writer)
            }
            status.propstats = [(200, names.map { PropertyValue($0) })]
        } else {
            status.propstats = [(403, names.filter { refused[$0] != nil }.map { PropertyValue($0) }),
                                (424, names.filter { refused[$0] == nil }.map { PropertyValue($0) })]
        }
        return MultiStatus(responses: [status])
    }

    /// DELETE of a list: its tasks move to the Inbox, then the list goes, as `todo lists rm`.
    func delete(_ segment: String) async throws {
        let collection = try await context.collection(segment)
        guard let listId = collection.listId else { throw DAVError(403, "The Inbox cannot be deleted") }
        guard collection.role == nil else {
            throw DAVError(403, "A shared list is deleted or left from todo (todo lists rm, todo leave), not over CalDAV")
        }
        let tables = context.services.tables
        for task in try await context.tasks(collection).all() {
            _ = try await tables.update(table: TodoItem.tableName, id: task.item.id, body: ["listId": .null], ifMatch: nil,
                                        owner: context.account, writer: context.writer)
        }
        _ = try await tables.delete(table: TodoList.tableName, id: listId, ifMatch: nil, owner: context.account, writer: context.writer)
    }
}
