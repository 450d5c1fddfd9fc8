import Foundation
import Glibc

/// `openssl s_server -WWW` serving the files of `folder` over HTTPS on 127.0.0.1, with a
/// certificate for 127.0.0.1 made here (`caFile`): in no system store, so a client trusts
/// it only when given that file.
public final class TLSTestServer {
    public let port: Int
    public let caFile: String
    private let process: Process

    public init(serving folder: String) throws {
        func openssl(_ args: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.currentDirectoryURL = URL(fileURLWithPath: folder)
            p.standardInput = FileHandle.nullDevice
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        let made = try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem"])
        made.waitUntilExit()
        caFile = folder + "/cert.pem"
        port = Int.random(in: 20_000..<60_000)
        process = try openssl(["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem",
                               "-WWW", "-quiet"])
        // Until it listens (at most 5 s).
        for _ in 0..<50 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    public func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// s_server ignores SIGTERM: SIGKILL, and wait for it.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
