import Foundation
import NIOCore
import NIOHTTP1

/// One connection of the control API: reads a request (head and a bounded body), checks
/// the token, routes it, and answers; commands and screenshots wait for the run loop
/// without ever blocking it or the event loop. `GET /events` turns the connection into a
/// server-sent event stream.
final class ControlHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let desk: ControlDesk
    let token: BearerToken?
    let limits: ControlServer.Limits
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    /// Closes the connection when the next request is not in within `requestSeconds`.
    private var deadline: Scheduled<Void>?
    /// Counts requests, so that a late answer to an old one is dropped.
    private var serial = 0
    private var following: Int?

    init(desk: ControlDesk, token: BearerToken?, limits: ControlServer.Limits) {
        self.desk = desk
        self.token = token
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        armDeadline(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        if let following { desk.feed.unfollow(following) }
    }

    private func armDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .seconds(limits.requestSeconds)) { ctx.value.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            let declared = h.headers.first(name: "content-length").flatMap(Int.init) ?? 0
            bodyTooLarge = declared > ControlRoute.bodyLimit
        case .body(var chunk):
            if body.count + chunk.readableBytes > ControlRoute.bodyLimit { bodyTooLarge = true }
            if !bodyTooLarge, let bytes = chunk.readBytes(length: chunk.readableBytes) { body += bytes }
        case .end:
            deadline?.cancel()
            guard let head else { return }
            self.head = nil
            serial += 1
            handle(head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func handle(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if bodyTooLarge {
            return respond(context, head, ControlRefusal(413, "the body is longer than \(ControlRoute.bodyLimit) bytes"), close: true)
        }
        if let token, !token.accepts(authorization: head.headers.first(name: "authorization")) {
            desk.noteRefusedToken()
            return respond(context, head, ControlRefusal(401, "this API wants the bearer token of --control-token-file"),
                           extra: [("WWW-Authenticate", "Bearer")])
        }
        switch ControlRoute.parse(method: head.method.rawValue, target: head.uri, body: body) {
        case .failure(let refusal):
            respond(context, head, refusal)
        case .success(.status):
            respond(context, head, 200, "application/json", desk.statusJSON())
        case .success(.metrics):
            respond(context, head, 200, "text/plain; version=0.0.4; charset=utf-8", Array(desk.metricsText().utf8))
        case .success(.events):
            follow(context, head)
        case .success(.command(let command)):
            ask(.command(command), context, head) { [desk] answer in
                switch answer {
                case .done: (200, "application/json", desk.statusJSON())
                case .refused(let r): Self.refusal(r)
                case .frame: Self.refusal(ControlRefusal(500, "the run loop answered a command with a frame"))
                }
            }
        case .success(.screenshot(let width)):
            ask(.screenshot, context, head, heavy: true) { [desk] answer in
                switch answer {
                case .frame(let w, let h, let pixels, let bgra):
                    guard let png = desk.png(width: w, height: h, pixels: pixels, bgra: bgra, scaledTo: width) else { return Self.refusal(ControlRefusal(500, "the frame could not be encoded")) }
                    return (200, "image/png", png)
                case .refused(let r): return Self.refusal(r)
                case .done: return Self.refusal(ControlRefusal(500, "the run loop answered a screenshot without a frame"))
                }
            }
        }
    }

    /// Posts a request to the run loop and answers when it does (or with 503 after
    /// `answerSeconds`); `make` runs on the event loop, or with `heavy` on the desk's
    /// worker (PNG encoding).
    private func ask(_ request: LoopRequest, _ context: ChannelHandlerContext, _ head: HTTPRequestHead, heavy: Bool = false,
                     make: @escaping @Sendable (LoopAnswer) -> (Int, String, [UInt8])) {
        let loop = context.eventLoop
        let promise = loop.makePromise(of: (Int, String, [UInt8]).self)
        let seconds = limits.answerSeconds
        let timeout = loop.scheduleTask(in: .seconds(seconds)) {
            promise.succeed(Self.refusal(ControlRefusal(503, "the screen did not answer within \(seconds) s")))
        }
        desk.inbox.post(request) { [desk] answer in
            guard heavy else { return promise.succeed(make(answer)) }
            let queued = desk.worker.run { promise.succeed(make(answer)) }
            if !queued { promise.succeed(Self.refusal(ControlRefusal(503, "\(BackgroundWorker.limit) screenshots are being made already"))) }
        }
        let mine = serial
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        promise.futureResult.assumeIsolated().whenSuccess { status, type, bytes in
            timeout.cancel()
            let (handler, context) = bound.value
            guard handler.serial == mine else { return }
            handler.respond(context, head, status, type, bytes)
        }
    }

    private static func refusal(_ r: ControlRefusal) -> (Int, String, [UInt8]) {
        (r.status, "application/json", Array("{\"error\":\(jsonString(r.reason))}\n".utf8))
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ r: ControlRefusal,
                         close: Bool = false, extra: [(String, String)] = []) {
        let (status, type, body) = Self.refusal(r)
        respond(context, head, status, type, body, close: close, extra: extra)
    }

    private func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: Int, _ type: String,
                         _ body: [UInt8], close: Bool = false, extra: [(String, String)] = []) {
        let keepAlive = head.isKeepAlive && !close
        var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", String(body.count)),
                                   ("Cache-Control", "no-store")] + extra)
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .init(statusCode: status), headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { ctx.value.close(promise: nil) }
        }
        if keepAlive { armDeadline(context) }
    }

    /// `GET /events`: every event line from now on as a server-sent event, until the client
    /// goes or cannot keep up (then the connection closes; it reconnects).
    private func follow(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        let channel = context.channel
        let id = desk.feed.follow { line in
            channel.eventLoop.execute {
                guard channel.isActive else { return }
                guard channel.isWritable else { channel.close(promise: nil); return }
                let text = "data: " + line.trimmingCharacters(in: .newlines) + "\n\n"
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))), promise: nil)
            }
        }
        guard let id else {
            return respond(context, head, ControlRefusal(429, "\(EventFeed.followerLimit) clients follow the events already"), close: true)
        }
        following = id
        let headers = HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")])
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: ": following the event log\n\n")))), promise: nil)
    }
}
