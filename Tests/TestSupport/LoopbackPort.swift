import Glibc

/// Ports on 127.0.0.1 for the servers the tests start (openssl's, Apache's).
public enum LoopbackPort {
    /// A port free now, found by binding port 0 (another process may take it before the
    /// server binds it: a server's start checks that it is the one answering).
    public static func free() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on `port`.
    public static func answers(_ port: Int) -> Bool {
        let fd = HTTPProbe(port: port).connect()
        if fd >= 0 { close(fd) }
        return fd >= 0
    }
}
