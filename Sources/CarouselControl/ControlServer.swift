import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP control API: SwiftNIO's HTTP/1 server (llhttp parses the requests) on one
/// event-loop thread of its own, with every bound set. At rest the thread sleeps in epoll.
public final class ControlServer: Sendable {
    /// Every bound of the server.
    public struct Limits: Sendable {
        /// Connections open at once; one more is closed as soon as it is accepted.
        public var connections = 64
        /// The request line (its URL) and each header, and all of them, in bytes: beyond
        /// them llhttp stops and the client gets 400. Bodies: `ControlRoute.bodyLimit` (413).
        public var headerFieldBytes = 8 * 1024
        public var headerListBytes = 16 * 1024
        public var headerCount = 64
        /// Seconds a client may take to send a whole request, or to send the next one on a
        /// kept-alive connection; then the connection closes.
        public var requestSeconds: Int64 = 10
        /// Seconds the run loop may take to answer before the client gets 503.
        public var answerSeconds: Int64 = 5
        public init() {}
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The address it listens on (the port chosen, for port 0).
    public let address: SocketAddress
    private let open: NIOLockedValueBox<Int>
    /// Connections accepted and not yet closed.
    var openConnections: Int { open.withLockedValue { $0 } }

    /// Listens on `host:port` at once; throws a one-line reason when it cannot.
    public init(host: String, port: Int, desk: ControlDesk, token: BearerToken?, limits: Limits = Limits()) throws(ControlRefusal) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let open = NIOLockedValueBox(0)
        self.open = open
        let decoderLimits = {
            var l = NIOHTTPDecoderLimitConfiguration()
            l.maxHeaderFieldSize = limits.headerFieldBytes
            l.maxHeaderListSize = limits.headerListBytes
            l.maxHeaderFieldCount = limits.headerCount
            return l
        }()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 128)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let count = open.withLockedValue { n -> Int in n += 1; return n }
                channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
                guard count <= limits.connections else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withEncoderConfiguration: .init(),
                                                         withDecoderLimitConfiguration: decoderLimits)
                    try sync.addHandler(ControlHTTPHandler(desk: desk, token: token, limits: limits))
                }
            }
        // Answering yields to drawing where a core is shared.
        group.next().execute(desk.threadSetUp)
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ControlRefusal(0, "--control \(host):\(port): cannot listen there (\(error))")
        }
        self.group = group
        self.address = channel.localAddress ?? (try! SocketAddress(ipAddress: "127.0.0.1", port: port))
    }

    /// Stops listening and closes every connection.
    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Whether `host` is a loopback address (no token needed there).
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
