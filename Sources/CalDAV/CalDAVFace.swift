import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SyncServer
import TableProtocol
import TodoModel
import WebDAVXML

/// todo-server's CalDAV face (RFC 4791 for tasks): every task app that speaks CalDAV (tasks.org,
/// DAVx5, Apple Reminders, Thunderbird, todoman) reaches the same lists as `todo`, on the same
/// port, over the same storage, accounts and shared spaces. Lists are calendar collections,
/// items are VTODO resources (`VTODOMapping`), and every write is an ordinary table write.
///
/// The face answers `/.well-known/caldav` (a redirect) and everything under `/dav` (`DAVPath`).
public struct CalDAVFace: ServerFace {
    /// The face.
    public init() {}

    /// The tables of the face's own that only a list's writers read: a refused edit (`LostEdit`)
    /// can only be restored by someone who may write the task, so a viewer is never sent one.
    public static let writersOnlyTables = [LostEdit.tableName]

    /// The face's change groups: tasks by list, so each calendar's `getctag` and sync token are
    /// its list's own and cost one read (`TableService.groupStamp`).
    public static let changeGroups = [TodoItem.tableName: "listId"]

    /// A change to a list's tasks is pushed to its WebDAV-Push subscribers: the list's topic and
    /// its calendar's new sync token.
    public var pushMessages: [String: PushMessageFormat] {
        [TodoItem.tableName: PushMessageFormat { subscription, namespace, stamp in
            WebDAVPush.message(topic: subscription.topic, syncToken: SyncToken(stamp: stamp, scope: StableTag.of(namespace)).text)
        }]
    }

    public func register(on router: Router<TableRequestContext>, services: ServerServices) {
        // Added after the table routes: it runs only for requests no route of theirs matched.
        router.add(middleware: CalDAVMiddleware(services: services))
    }
}

/// Answers the face's paths, and passes every other request on.
struct CalDAVMiddleware: RouterMiddleware {
    typealias Context = TableRequestContext
    let services: ServerServices

    /// `DAV:` of OPTIONS: WebDAV classes 1 and 3, CalDAV, extended MKCOL, WebDAV-Push.
    static let davHeader = "1, 3, calendar-access, extended-mkcol, \(WebDAVPush.complianceClass)"
    static let allow = "OPTIONS, GET, HEAD, POST, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL"
    static let challenge = #"Basic realm="todo-server", charset="UTF-8""#
    /// The methods run as `HeavyWork`.
    static let heavyMethods: Set<String> = ["PROPFIND", "REPORT", "PUT", "PROPPATCH", "MKCALENDAR", "MKCOL", "POST"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == DAVPath.wellKnown || path == DAVPath.wellKnown + "/" {
            return Self.response(301, headers: [(.location, DAVPath.prefix + "/")])
        }
        guard path == DAVPath.prefix || path.hasPrefix(DAVPath.prefix + "/") else { return try await next(request, context) }
        do {
            if request.method == .options {
                return Self.response(200, headers: [(HTTPField.Name("DAV")!, Self.davHeader), (.allow, Self.allow)])
            }
            guard let place = DAVPath(path: path) else {
                // A calendar asked for inside a list: the owner learns where lists are made.
                if ["MKCALENDAR", "MKCOL"].contains(request.method.rawValue), let owner = DAVPath.calendarsOwner(of: path),
                   try await signIn(request, context).user.lowercased() == owner.lowercased() {
                    throw CalDAVRequestHandler.notACalendarLocation(user: owner)
                }
                throw DAVError.notFound()
            }
            let who = try await signIn(request, context)
            guard who.owns(place) else { throw DAVError.notFound() }
            let handler = CalDAVRequestHandler(context: who, maxBodyBytes: min(services.maxBodyBytes, DAVXMLReader.maximumBytes))
            // Requests that parse a body or build a listing compute off the threads that answer
            // everyone else, bounded per account and in time.
            guard Self.heavyMethods.contains(request.method.rawValue) else { return try await handler.respond(request, place) }
            return try await services.heavyWork.run(account: who.account) { try await handler.respond(request, place) }
        } catch let error as DAVError {
            return Self.response(error)
        } catch let error as TableError {
            return Self.response(Self.davError(error))
        } catch is NIOTooManyBytesError {
            return Self.response(DAVError(413, "The request body is too large"))
        } catch {
            context.logger.error("CalDAV request failed", metadata: ["error": "\(String(reflecting: error))"])
            return Self.response(DAVError(500, "The server could not complete the request"))
        }
    }

    /// Who asks: `Authorization: Basic` (name and password), or a bearer token as the table API
    /// takes; anonymous only when the server runs without accounts.
    private func signIn(_ request: Request, _ context: Context) async throws -> DAVContext {
        let minimal = request.headers[HTTPField.Name("Prefer")!]?.lowercased().contains("return=minimal") == true
            || request.headers[HTTPField.Name("Brief")!]?.lowercased() == "t"
        let authenticator = services.authenticator
        if let account = try await authenticator.account(basic: request.headers, address: ForwardedClientAddress.of(request, peer: context.clientAddress)) {
            return DAVContext(services: services, account: account.id, user: account.name, writer: account.name, minimal: minimal)
        }
        if request.headers[.authorization] != nil || !authenticator.required, let account = try await authenticator.account(of: request.headers) {
            return DAVContext(services: services, account: account.id, user: account.name, writer: account.name, minimal: minimal)
        }
        guard !authenticator.required else { throw DAVError(401, "Sign in with your account's name and password (or an app password)") }
        return DAVContext(services: services, account: "", user: DAVContext.anonymousUser, writer: nil, minimal: minimal)
    }

    /// The face's answer for a table error (a refused sign-in, a throttle, a bad value).
    static func davError(_ error: TableError) -> DAVError {
        var dav = DAVError(error.status, error.message)
        if case .tooManyRequests(let seconds) = error { dav.headers.append(("Retry-After", String(seconds))) }
        if case .busy(_, let seconds) = error { dav.headers.append(("Retry-After", String(seconds))) }
        if case .overloaded(_, let seconds) = error { dav.headers.append(("Retry-After", String(seconds))) }
        return dav
    }

    static func response(_ error: DAVError) -> Response {
        var headers: [(HTTPField.Name, String)] = [(.contentType, "application/xml; charset=utf-8")]
        if error.status == 401 { headers.append((.wwwAuthenticate, challenge)) }
        for (name, value) in error.headers { if let name = HTTPField.Name(name) { headers.append((name, value)) } }
        return response(error.status, headers: headers, body: DAVXMLWriter.error(error))
    }

    static func response(_ status: Int, headers: [(HTTPField.Name, String)] = [], body: String = "") -> Response {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: name, value: value)) }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
