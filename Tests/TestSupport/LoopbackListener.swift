import Foundation
import Glibc

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose, each connection served
/// on a thread of its own once `start` is called, until `stop`: what the tests' small HTTP
/// servers are built on.
public final class LoopbackListener: @unchecked Sendable {
    public let port: UInt16
    private let fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.fd = fd
    }

    /// Serves each connection with `serve` (which closes it) on a thread of its own.
    public func start(_ serve: @escaping @Sendable (Int32) -> Void) {
        Thread { [fd] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 && errno == EINTR { continue }
                // Closed here, not in `stop`: closed there, its number could go to another
                // test's server before this loop calls accept again, and this one would
                // answer (and count) that one's requests.
                guard client >= 0 else { close(fd); return }
                Thread { serve(client) }.start()
            }
        }.start()
    }

    /// Stops accepting.
    public func stop() { shutdown(fd, Int32(SHUT_RDWR)) }
}
