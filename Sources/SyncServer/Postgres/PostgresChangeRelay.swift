import Foundation
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// LISTENs on a connection of its own and hands every committed change, from any server process
    /// on this database, to `hub`, and every schema change to `schemaChanged`, until cancelled.
    /// After the connection is lost (and notifications with it) every open feed is ended, so its
    /// client reconnects and is replayed what it missed, and every cached schema is dropped (nil).
    func relayChanges(to hub: ChangeHub, schemaChanged: @escaping @Sendable (String?) -> Void) async {
        var retryDelay = 0.25
        var connectedBefore = false
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 9_000, logger: logger)
                var failure: (any Error)?
                do {
                    try await connection.listen(on: changeChannel) { notifications in
                        if connectedBefore {
                            schemaChanged(nil)
                            hub.endSubscriptions()
                        }
                        connectedBefore = true
                        retryDelay = 0.25
                        for try await notification in notifications {
                            switch ChangeNotice.Signal(payload: notification.payload) {
                            case .change(let notice)?:
                                // Before the feeds hear of it: a pull it wakes must find it.
                                replicas?.announced.note(notice)
                                hub.publish(notice)
                            case .schemaChanged(let table)?: schemaChanged(table)
                            case .membershipChanged(let space, let account, let at)?: hub.endFeeds(of: account, reading: space, openedBefore: at)
                            case nil:
                                logger.warning("ignoring a malformed change notification", metadata: ["payload": "\(notification.payload.prefix(200))"])
                            }
                        }
                    }
                } catch {
                    failure = error
                }
                try? await connection.close()
                if let failure { throw failure }
            } catch {
                if Task.isCancelled { return }
                logger.warning("change feed lost its PostgreSQL LISTEN connection; retrying", metadata: ["error": "\(String(reflecting: error))", "retry_s": "\(retryDelay)"])
            }
            try? await Task.sleep(for: .seconds(retryDelay))
            retryDelay = min(retryDelay * 2, 5)
        }
    }
}
