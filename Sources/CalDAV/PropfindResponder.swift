import Foundation
import SyncServer
import WebDAVXML

/// PROPFIND (RFC 4918 §9.1) on the root, a principal, the home, a collection or a task; Depth 0
/// or 1 (a home's lists, a list's tasks). Depth infinity is refused (`propfind-finite-depth`);
/// a list's tasks past `ReportBudget`'s bytes end the answer with a 507.
struct PropfindResponder: Sendable {
    let context: DAVContext

    func respond(_ path: DAVPath, depth: String?, body: DAVElement?) async throws -> MultiStatus {
        if let body, body.name != .dav("propfind") { throw DAVError(400, "A PROPFIND body is a DAV:propfind element") }
        let request = PropertyRequest(body)
        let deep: Bool
        switch depth?.lowercased() ?? "infinity" {
        case "0": deep = false
        case "1": deep = true
        default: throw DAVError(403, "PROPFIND with Depth: infinity is not supported; ask with Depth 0 or 1", precondition: .dav("propfind-finite-depth"))
        }
        let user = context.user
        var status = MultiStatus()
        func add(_ href: String, _ values: [PropertyValue]) {
            status.responses.append(.init(href: href, propstats: request.propstats(values, inAll: ResourceProperties.inAll, minimal: context.minimal)))
        }
        switch path {
        case .root:
            add(path.href, ResourceProperties.root(user: user))
        case .principal:
            add(DAVPath.principal(user: user).href, ResourceProperties.principalResource(user: user))
        case .home:
            add(DAVPath.home(user: user).href, ResourceProperties.home(user: user))
            if deep {
                for collection in try await context.directory.all() {
                    add(DAVPath.collection(user: user, segment: collection.segment).href,
                        ResourceProperties.collection(collection, user: user, token: try await context.token(of: collection), vapidPublicKey: context.services.push.vapidPublicKey))
                }
            }
        case .pushSubscription:
            throw DAVError.notFound()
        case .collection(_, let segment):
            let collection = try await context.collection(segment)
            add(DAVPath.collection(user: user, segment: segment).href,
                ResourceProperties.collection(collection, user: user, token: try await context.token(of: collection), vapidPublicKey: context.services.push.vapidPublicKey))
            if deep {
                // Task text (a client may ask for calendar-data here too) is bounded as a REPORT's is.
                var budget = ReportBudget()
                for task in try await context.tasks(collection).all() {
                    try RequestDeadline.check()
                    let text = request.needsContent ? task.text : nil
                    guard budget.spend(bytes: text?.utf8.count ?? 0) else {
                        status.responses.append(.overLimits(DAVPath.collection(user: user, segment: segment).href))
                        break
                    }
                    add(DAVPath.resource(user: user, segment: segment, name: task.name).href, ResourceProperties.task(task, text: text))
                }
            }
        case .resource(_, let segment, let name):
            let collection = try await context.collection(segment)
            guard let task = try await context.tasks(collection).task(named: name) else { throw DAVError.notFound() }
            add(DAVPath.resource(user: user, segment: segment, name: task.name).href, ResourceProperties.task(task, text: request.needsContent ? task.text : nil))
        }
        return status
    }
}
