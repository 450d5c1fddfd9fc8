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
            p.executableURL = try OutsideProgram.openssl.url
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
        // A free port, found by binding port 0: between its closing and s_server's bind
        // another process may take it (one run in twenty on a busy machine: s_server exited
        // and the probe reached someone else's server), so s_server must still be running
        // once the port answers, or another port is tried.
        var started: (Process, Int)?
        for _ in 0..<5 where started == nil {
            let port = LoopbackPort.free()
            let p = try openssl(["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem",
                                 "-WWW", "-quiet"])
            // Until it listens (at most 10 s on a busy machine).
            for _ in 0..<100 where p.isRunning && !LoopbackPort.answers(port) { Thread.sleep(forTimeInterval: 0.1) }
            Thread.sleep(forTimeInterval: 0.2)
            if p.isRunning && LoopbackPort.answers(port) { started = (p, port) } else { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        }
        guard let (process, port) = started else { throw POSIXError(.EADDRINUSE) }
        self.process = process
        self.port = port
    }

    public func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// s_server ignores SIGTERM: SIGKILL, and wait for it.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
