import Foundation
import HTTPTypes
import Hummingbird
import SyncServer
import TableProtocol
import TodoModel
import WebDAVXML
import WebPush

/// WebDAV-Push registrations: `POST` of `push-register` to a list's collection, and `DELETE`
/// of the registration URL. Only who sees a list may subscribe to it (`DAVContext.collection`
/// finds only those), and only its registrant may remove a registration.
struct PushRegistrationResponder {
    let context: DAVContext

    /// Registers (or renews) a subscription to `collection`: 201 with the registration's
    /// absolute URL in `Location` and its end in `Expires`.
    func register(_ collection: TaskCollection, body: DAVElement, host: String?) async throws -> Response {
        let request = try PushRegisterRequest(body)
        let push = context.services.push
        do {
            _ = try WebPushSubscriptionKeys(publicKey: request.publicKey, authSecret: request.authSecret)
            try await push.check(resource: request.pushResource)
        } catch let error as WebPushError {
            throw WebDAVPush.invalidSubscription(error.description)
        }
        let expires = PushService.expiry(requested: request.expires)
        let id: String
        do {
            id = try await push.subscriptions.register(
                account: context.account, namespace: collection.namespace, table: TodoItem.tableName, group: collection.listId ?? "",
                topic: WebDAVPush.topic(of: collection), resource: request.pushResource, publicKey: request.publicKey,
                authSecret: request.authSecret, expires: expires, limit: push.maximumPerAccount)
        } catch PushSubscriptions.Refusal.tooMany(let limit) {
            throw WebDAVPush.notAvailable("This account holds \(limit) push subscriptions already: remove one first")
        }
        let path = DAVPath.pushSubscription(id: id).href
        let location = host.map { "\(context.services.scheme)://\($0)\(path)" } ?? path
        return CalDAVMiddleware.response(201, headers: [(.location, location), (.expires, ResourceProperties.httpDate(SyncDateFormat.string(from: expires)))])
    }

    /// Removes the signed-in account's registration `id`: 204, or 404 when it holds none such
    /// (expired, removed, or another account's).
    func unregister(_ id: String) async throws -> Response {
        guard try await context.services.push.subscriptions.remove(id: id, account: context.account) else {
            throw DAVError.notFound("No such push registration (it may have expired)")
        }
        return CalDAVMiddleware.response(204)
    }
}
