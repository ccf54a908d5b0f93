/// Machine-readable `code`s a server may put beside `error` in an error reply, so a client can
/// tell failures with one status apart without reading the words.
public enum ProtocolErrorCode: String, Sendable {
    /// 404 on a request with `?space=`: there is no such space, or the caller is not (or no
    /// longer) one of its members; the two are answered alike.
    case spaceNotFound
    /// 403 on a write to a shared space the caller may only read (a viewer). Only this code says
    /// so: a client drops a refused change only when the server names this reason.
    case readOnlySpace
    /// 404 on a write to an item that a move took to another namespace (a list shared or
    /// unshared on another device). `movedTo.space` says where: a space's id, or null for the
    /// caller's own namespace. The client moves its copy there and sends the change again.
    case itemMoved
}
