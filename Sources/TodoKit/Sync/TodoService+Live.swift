import OfflineSync
import TodoModel

extension TodoService {
    /// Live mode for the todo table: the same pull and push as `sync()` (same conflict handling),
    /// run by themselves when the server announces a change or a local change is made.
    /// Not started; `onState` and `onSync` are called on background tasks.
    public func makeLiveSync(options: LiveSync.Options = LiveSync.Options(),
                             onState: @escaping @Sendable (LiveSyncState) -> Void,
                             onSync: @escaping @Sendable (LiveSyncActivity, SyncError?) -> Void,
                             onChange: @escaping @Sendable (FeedChange) -> Void = { _ in }) -> LiveSync? {
        guard serverURL != nil else { return nil }
        return LiveSync(context: context, tables: [TodoList.tableName, TodoTable.name, LostEdit.tableName], options: options,
                        pull: { try await self.sync(push: false, pull: true) },
                        push: { try await self.sync(push: true, pull: false) },
                        onState: onState, onSync: onSync, onChange: onChange)
    }
}
