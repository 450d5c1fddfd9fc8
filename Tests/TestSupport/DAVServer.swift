import Foundation
import Glibc

/// A real WebDAV server for the tests: Apache httpd with mod_dav and mod_dav_fs (Debian's
/// apache2, which kiosk/setup installs), in one process (`-X`) on a free port of 127.0.0.1,
/// serving `root` (`files` under `/Photos/`) to one user with Basic authentication,
/// configured from nothing but its own folder. Stopped by `stop` or when it goes.
public final class DAVServer: @unchecked Sendable {
    public static var unavailableReason: String? {
        OutsideProgram.missing(.apache2, .htpasswd)
            ?? (FileManager.default.fileExists(atPath: modules + "/mod_dav_fs.so") ? nil : "Apache's mod_dav_fs is not installed: it comes with Debian's apache2 package, which kiosk/setup installs")
    }

    static let modules = "/usr/lib/apache2/modules"
    public static let user = "anna"
    public static let password = "a password with spaces"

    public let port: Int
    /// The folder served at `/`: what the tests change between refreshes.
    public let root: String
    /// A netrc file with the user's login for 127.0.0.1.
    public let netrc: String
    private let folder: String
    private var process: Process?

    public init() throws {
        try RequiredTools.check(Self.unavailableReason)
        folder = ScratchRoot.path + "/dav-\(UUID().uuidString)"
        root = folder + "/root"
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/Photos", withIntermediateDirectories: true)
        try files.createDirectory(atPath: folder + "/lock", withIntermediateDirectories: true)
        // Apache started as root serves as nobody: its lock database must be writable by it.
        chmod(folder + "/lock", 0o777)
        let htpasswd = Process()
        htpasswd.executableURL = try OutsideProgram.htpasswd.url
        htpasswd.arguments = ["-cbB", folder + "/users", Self.user, Self.password]
        htpasswd.standardOutput = FileHandle.nullDevice
        htpasswd.standardError = FileHandle.nullDevice
        try htpasswd.run()
        htpasswd.waitUntilExit()
        chmod(folder + "/users", 0o644)
        netrc = folder + "/netrc"
        try "machine 127.0.0.1 login \(Self.user) password \"\(Self.password)\"\n".write(toFile: netrc, atomically: true, encoding: .utf8)
        // A free port, found by binding port 0: another process may take it before httpd
        // binds it, so httpd must still be running once the port answers, or another is tried.
        var started: (Process, Int)?
        for _ in 0..<5 where started == nil {
            let port = LoopbackPort.free()
            let p = try Self.start(folder: folder, root: root, port: port)
            for _ in 0..<100 where p.isRunning && !LoopbackPort.answers(port) { Thread.sleep(forTimeInterval: 0.1) }
            if p.isRunning && LoopbackPort.answers(port) { started = (p, port) } else { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        }
        guard let (process, port) = started else {
            let dir = folder
            let log = ["/stderr.log", "/error.log"].compactMap { try? String(contentsOfFile: dir + $0, encoding: .utf8) }.joined()
            throw RequiredTools.Missing(description: "Apache httpd did not start: \(log.suffix(400))")
        }
        self.process = process
        self.port = port
    }

    deinit { stop() }

    private static func start(folder: String, root: String, port: Int) throws -> Process {
        let modules = ["mpm_event", "authz_core", "authz_user", "authn_core", "authn_file", "auth_basic", "dav", "dav_fs"]
        var config = "ServerRoot \(folder)\nServerName 127.0.0.1\nListen 127.0.0.1:\(port)\n"
        config += modules.map { "LoadModule \($0)_module \(Self.modules)/mod_\($0).so\n" }.joined()
        if getuid() == 0 { config += "User nobody\nGroup nogroup\n" }
        config += """
            PidFile \(folder)/httpd-\(port).pid
            ErrorLog \(folder)/error.log
            LogFormat "%h %u \\"%r\\" %>s %b" requests
            CustomLog \(folder)/access.log requests
            DavLockDB \(folder)/lock/db
            DocumentRoot \(root)
            <Directory \(root)>
              Dav On
              AuthType Basic
              AuthName "photos"
              AuthUserFile \(folder)/users
              Require valid-user
            </Directory>

            """
        let file = folder + "/httpd-\(port).conf"
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = try OutsideProgram.apache2.url
        p.arguments = ["-f", file, "-X", "-DFOREGROUND"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        // What it says before its error log is open (a configuration it refuses) goes here.
        _ = FileManager.default.createFile(atPath: folder + "/stderr.log", contents: nil)
        p.standardError = FileHandle(forWritingAtPath: folder + "/stderr.log") ?? FileHandle.nullDevice
        try p.run()
        return p
    }

    /// `dav://127.0.0.1:PORT/path`.
    public func address(_ path: String) -> String { "dav://127.0.0.1:\(port)\(path)" }
    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Writes `bytes` at `path` under the root (its folders made), readable by the server.
    public func put(_ path: String, _ bytes: [UInt8]) throws {
        let full = root + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        chmod(full, 0o644)
    }

    public func remove(_ path: String) throws { try FileManager.default.removeItem(atPath: root + path) }

    /// The server's access log: a line per request (client, user, request line, status, bytes).
    public var log: [String] {
        ((try? String(contentsOfFile: folder + "/access.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The requests the server answered, by method (`GET`, `PROPFIND`).
    public func requests(_ method: String) -> Int {
        log.filter { $0.contains("\"\(method) ") }.count
    }

    /// Stops it, and waits.
    public func stop() {
        guard let p = process else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }
}
