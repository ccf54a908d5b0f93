import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebDAVXML

/// One signed-in CalDAV request, sent to the responder of its method and place.
struct CalDAVRequestHandler: Sendable {
    let context: DAVContext
    let maxBodyBytes: Int

    func respond(_ request: Request, _ place: DAVPath) async throws -> Response {
        switch (request.method.rawValue, place) {
        case ("DELETE", .pushSubscription(let id)):
            return try await PushRegistrationResponder(context: context).unregister(id)
        case (_, .pushSubscription):
            var error = DAVError(405, "A push registration can only be removed (DELETE)")
            error.headers.append(("Allow", Self.allowed(at: place)))
            throw error
        case ("POST", .collection(_, let segment)):
            let collection = try await context.collection(segment)
            guard let body = try await xml(request) else { throw WebDAVPush.invalidSubscription("A POST to a list registers a push subscription: its body is push-register") }
            return try await PushRegistrationResponder(context: context).register(collection, body: body, host: request.head.authority)
        case ("PROPFIND", _):
            let status = try await PropfindResponder(context: context).respond(place, depth: request.headers[HTTPField.Name("Depth")!], body: try await xml(request))
            return Self.multiStatus(status)
        case ("REPORT", _):
            guard let body = try await xml(request) else { throw DAVError(400, "A REPORT needs a body naming the report") }
            switch body.name {
            case .caldav("free-busy-query"):
                let text = try await FreeBusyReport(context: context).respond(place, body: body)
                return CalDAVMiddleware.response(200, headers: [(.contentType, "text/calendar; charset=utf-8")], body: text)
            case .dav("principal-property-search"):
                // Principals are not searched (one account sees only its own): no match, as Radicale answers.
                return Self.multiStatus(MultiStatus())
            default:
                return Self.multiStatus(try await ReportResponder(context: context).respond(place, body: body))
            }
        case ("GET", .resource(_, let segment, let name)), ("HEAD", .resource(_, let segment, let name)):
            let collection = try await context.collection(segment)
            guard let task = try await context.tasks(collection).task(named: name) else { throw DAVError.notFound() }
            return Self.content(request, task.text, headers: [(.contentType, "text/calendar; charset=utf-8"), (.eTag, task.etag),
                                                              (.lastModified, ResourceProperties.httpDate(task.updatedAt))])
        case ("GET", _), ("HEAD", _):
            // A collection answers only when it exists; the root, a principal and the home always do.
            if case .collection(_, let segment) = place { _ = try await context.collection(segment) }
            let body = "This is todo-server's CalDAV face: add \(DAVPath.prefix)/ to a CalDAV app with your account's name and an app password.\n"
            return Self.content(request, body, headers: [(.contentType, "text/plain; charset=utf-8")])
        case ("PUT", .resource(_, let segment, let name)):
            let collection = try await context.collection(segment)
            let type = request.headers[.contentType]?.lowercased() ?? "text/calendar"
            guard type.hasPrefix("text/calendar") || type.hasPrefix("application/octet-stream") || type.hasPrefix("text/plain") else {
                throw DAVError(415, "A task is sent as text/calendar", precondition: .caldav("supported-calendar-data"))
            }
            let data = try await bytes(request, limit: ResourceProperties.maxResourceSize)
            guard let text = String(data: data, encoding: .utf8) else {
                throw DAVError(403, "The resource is not UTF-8 text", precondition: .caldav("valid-calendar-data"))
            }
            let stored = try await TaskWriter(tasks: context.tasks(collection), writer: context.writer, agent: request.headers[.userAgent])
                .put(name: name, text: text, ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch])
            return CalDAVMiddleware.response(stored.created ? 201 : 204, headers: stored.etag.map { [(.eTag, $0)] } ?? [])
        case ("DELETE", .resource(_, let segment, let name)):
            let collection = try await context.collection(segment)
            try await TaskWriter(tasks: context.tasks(collection), writer: context.writer, agent: request.headers[.userAgent]).delete(name: name, ifMatch: request.headers[.ifMatch])
            return CalDAVMiddleware.response(204)
        case ("DELETE", .collection(_, let segment)):
            try await CollectionResponder(context: context).delete(segment)
            return CalDAVMiddleware.response(204)
        case ("MKCALENDAR", .collection(_, let segment)), ("MKCOL", .collection(_, let segment)):
            try await CollectionResponder(context: context).make(segment, body: try await xml(request), extended: request.method.rawValue == "MKCOL")
            return CalDAVMiddleware.response(201)
        case ("PROPPATCH", .collection(_, let segment)):
            guard let body = try await xml(request) else { throw DAVError(400, "A PROPPATCH needs a body") }
            return Self.multiStatus(try await CollectionResponder(context: context).patch(segment, body: body))
        case ("PROPPATCH", _):
            throw DAVError(403, "Only a list's properties can be changed", precondition: .dav("cannot-modify-protected-property"))
        case ("MKCALENDAR", _), ("MKCOL", _):
            throw Self.notACalendarLocation(user: context.user)
        case ("PUT", _), ("DELETE", _):
            var error = DAVError(405, "\(request.method.rawValue) is not allowed here")
            error.headers.append(("Allow", Self.allowed(at: place)))
            throw error
        default:
            var error = DAVError(405, "\(request.method.rawValue) is not supported")
            error.headers.append(("Allow", CalDAVMiddleware.allow))
            throw error
        }
    }

    /// The body as an XML document; nil for an empty body.
    private func xml(_ request: Request) async throws -> DAVElement? {
        let data = try await bytes(request, limit: maxBodyBytes)
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        do {
            return try DAVXMLReader.read(data)
        } catch {
            throw DAVError(error.tooLarge ? 413 : 400, error.message)
        }
    }

    private func bytes(_ request: Request, limit: Int) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer: buffer)
        } catch is NIOTooManyBytesError {
            throw DAVError(413, "The request body is larger than \(limit) bytes", precondition: limit == ResourceProperties.maxResourceSize ? .caldav("max-resource-size") : nil)
        }
    }

    /// The methods a place answers, for a 405's `Allow`.
    static func allowed(at place: DAVPath) -> String {
        switch place {
        case .collection: return "OPTIONS, GET, HEAD, POST, DELETE, PROPFIND, PROPPATCH, REPORT"
        case .pushSubscription: return "OPTIONS, DELETE"
        case .resource: return "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT"
        case .root, .principal, .home: return "OPTIONS, GET, HEAD, PROPFIND, REPORT"
        }
    }

    /// RFC 4791 §5.3.1: a calendar is made only as a member of the home.
    static func notACalendarLocation(user: String) -> DAVError {
        DAVError(403, "A list is made in your calendar home (\(DAVPath.home(user: user).href)), not inside another list or task",
                 precondition: .caldav("calendar-collection-location-ok"))
    }

    /// A GET's body, or for HEAD none, with the length GET's would have.
    private static func content(_ request: Request, _ text: String, headers: [(HTTPField.Name, String)]) -> Response {
        guard request.method == .head else { return CalDAVMiddleware.response(200, headers: headers, body: text) }
        return CalDAVMiddleware.response(200, headers: headers + [(.contentLength, String(text.utf8.count))])
    }

    static func multiStatus(_ status: MultiStatus) -> Response {
        CalDAVMiddleware.response(207, headers: [(.contentType, "application/xml; charset=utf-8")], body: status.xml)
    }
}
