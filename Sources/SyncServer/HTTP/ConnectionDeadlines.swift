import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import TableProtocol

/// Bounds what one connection can hold: its receive buffer's first size, the time to send a
/// request head, the time between the pieces of a body, the time a kept-alive connection waits for
/// its next request; and answers requests the HTTP parser refuses with a JSON error instead of an
/// empty 400.
///
/// The deadlines run from fixed points, so dripping a byte at a time extends nothing: a head must
/// be complete `headTimeout` after the connection opened, the next head `keepAliveTimeout` after
/// the previous response ended, and each part of a body must follow the last within
/// `bodyStallTimeout` (a body shorter than its Content-Length is closed, not waited on). Before,
/// half-sent requests were held open and never closed.
final class ConnectionDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Timeouts: Sendable {
        var head: TimeAmount = .seconds(10)
        var bodyStall: TimeAmount = .seconds(10)
        /// Longer than AsyncHTTPClient's 60 s pool idle time, so a client closes an idle connection
        /// before the server does and never sends a request into one that is closing.
        var keepAlive: TimeAmount = .seconds(120)
    }

    private let timeouts: Timeouts
    private var deadline: Scheduled<Void>?
    /// A head was read and its body has not ended.
    private var readingBody = false
    /// A head was read and its response has not ended.
    private var responding = false

    init(_ timeouts: Timeouts = Timeouts()) { self.timeouts = timeouts }

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.receiveBuffers)
        if context.channel.isActive { arm(timeouts.head, context) }
    }

    /// Receive buffers that start at 256 bytes, not SwiftNIO's 2 KiB, and grow as reads fill them.
    /// A channel keeps its last receive buffer for the next read, so a connection that reads
    /// little (a change feed reads one request head, then only writes) held 2 KiB it never filled
    /// (BENCHMARKS.md, "Ten thousand subscribers"). Set here, in a handler every connection has,
    /// because a wrapping child channel adds an async frame to each connection's task, which that
    /// task keeps while it lives (more memory per feed, measured the same way).
    static var receiveBuffers: AdaptiveRecvByteBufferAllocator { AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65_536) }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelActive(context: ChannelHandlerContext) {
        arm(timeouts.head, context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingBody = true
            responding = true
            arm(timeouts.bodyStall, context)
        case .body:
            if readingBody { arm(timeouts.bodyStall, context) }
        case .end:
            readingBody = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responding = false
            if !readingBody { arm(timeouts.keepAlive, context) }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError, !responding else {
            context.fireErrorCaught(error)
            return
        }
        // Nothing is being answered on this connection: answer the refused request ourselves.
        let (status, message): (HTTPResponse.Status, String) = parse == .headerOverflow
            ? (.requestHeaderFieldsTooLarge, "The request's headers are too large")
            : (.badRequest, "The request is not valid HTTP (\(parse))")
        let body = JSONWriter.bytes(.object(JSONObject([("error", .string(message))])))
        let head = HTTPResponse(status: status, headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close",
        ])
        responding = true
        disarm()
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    private func arm(_ timeout: TimeAmount, _ context: ChannelHandlerContext) {
        deadline?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
