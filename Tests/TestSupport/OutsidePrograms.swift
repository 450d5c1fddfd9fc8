import Foundation

/// Every program from outside the project that the tests run, each with the Debian package
/// it comes from: the one place the suite names them. `OutsideProgramsTests` holds the
/// rest of the suite to it (no test names a program's path itself) and holds it to
/// kiosk/setup (each package is one setup installs, and owns the file).
///
/// A test takes a program's `url`, or `run`s it; a program that is not there fails the test
/// with one line naming it and its package, never a Foundation error about a path.
public struct OutsideProgram: Sendable, Hashable, CustomStringConvertible {
    /// Where Debian puts it.
    public let path: String
    /// The package kiosk/setup installs for it (the file may belong to one that package
    /// depends on: ImageMagick's `convert` is imagemagick-6.q16's, pulled in by imagemagick).
    public let package: String
    /// What runs it, when a test does not run it itself (a script or the program under test).
    public let through: String?

    init(_ path: String, _ package: String, through: String? = nil) {
        self.path = path
        self.package = package
        self.through = through
    }

    public var name: String { (path as NSString).lastPathComponent }
    public var description: String { name }

    /// Whether it is there to run.
    public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Why it cannot be run, or nil when it can.
    public var missingReason: String? {
        isInstalled ? nil : "\(name) is not installed: it comes with Debian's \(package) package, which kiosk/setup installs"
    }

    /// Its executable, or the failure that names it and its package.
    public var url: URL {
        get throws {
            try RequiredTools.check(missingReason)
            return URL(fileURLWithPath: path)
        }
    }

    /// Runs it with `arguments` (and `environment` over the test's own) and waits; a
    /// non-zero exit throws, with the end of what it said on standard error.
    /// Returns its standard output.
    @discardableResult
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        String(decoding: try output(arguments, environment: environment), as: UTF8.self)
    }

    /// The same, its standard output as bytes.
    public func runBytes(_ arguments: [String]) throws -> [UInt8] {
        [UInt8](try output(arguments, environment: [:]))
    }

    private func output(_ arguments: [String], environment: [String: String]) throws -> Data {
        let p = Process()
        p.executableURL = try url
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Both pipes drained at once: a program that fills one while the test waits on the
        // other would otherwise never exit.
        nonisolated(unsafe) var said = Data()
        let errors = DispatchWorkItem { said = err.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(execute: errors)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        errors.wait()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failed(description: "\(name) \(arguments.joined(separator: " ")) exited with \(p.terminationStatus): "
                         + String(decoding: said.suffix(400), as: UTF8.self))
        }
        return output
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    // Pictures and clips made by the formats' reference tools.
    public static let convert = OutsideProgram("/usr/bin/convert", "imagemagick")
    public static let exiftool = OutsideProgram("/usr/bin/exiftool", "libimage-exiftool-perl")
    public static let ffmpeg = OutsideProgram("/usr/bin/ffmpeg", "ffmpeg")
    public static let heifEnc = OutsideProgram("/usr/bin/heif-enc", "libheif-examples")
    public static let avifenc = OutsideProgram("/usr/bin/avifenc", "libavif-bin")
    public static let cjxl = OutsideProgram("/usr/bin/cjxl", "libjxl-tools")
    public static let cjpeg = OutsideProgram("/usr/bin/cjpeg", "libjpeg-turbo-progs")
    public static let gstLaunch = OutsideProgram("/usr/bin/gst-launch-1.0", "gstreamer1.0-tools", through: "carousel bench")
    // A real window.
    public static let xvfb = OutsideProgram("/usr/bin/Xvfb", "xvfb")
    public static let xdotool = OutsideProgram("/usr/bin/xdotool", "xdotool")
    public static let xinput = OutsideProgram("/usr/bin/xinput", "xinput")
    // Real servers on loopback and their tools.
    public static let mosquitto = OutsideProgram("/usr/sbin/mosquitto", "mosquitto")
    public static let mosquittoPasswd = OutsideProgram("/usr/bin/mosquitto_passwd", "mosquitto")
    public static let mosquittoSub = OutsideProgram("/usr/bin/mosquitto_sub", "mosquitto-clients")
    public static let mosquittoPub = OutsideProgram("/usr/bin/mosquitto_pub", "mosquitto-clients")
    public static let apache2 = OutsideProgram("/usr/sbin/apache2", "apache2")
    public static let htpasswd = OutsideProgram("/usr/bin/htpasswd", "apache2-utils")
    public static let openssl = OutsideProgram("/usr/bin/openssl", "openssl")
    public static let promtool = OutsideProgram("/usr/bin/promtool", "prometheus")
    // The kiosk's unit and package.
    public static let systemdAnalyze = OutsideProgram("/usr/bin/systemd-analyze", "systemd")
    public static let dpkgDeb = OutsideProgram("/usr/bin/dpkg-deb", "dpkg")
    public static let dpkgQuery = OutsideProgram("/usr/bin/dpkg-query", "dpkg")
    public static let dpkgShlibdeps = OutsideProgram("/usr/bin/dpkg-shlibdeps", "dpkg-dev", through: "kiosk/package")
    public static let lintian = OutsideProgram("/usr/bin/lintian", "lintian", through: "kiosk/package")
    // The base system's own (Debian's essential packages).
    public static let sh = OutsideProgram("/bin/sh", "dash")
    public static let cp = OutsideProgram("/bin/cp", "coreutils")
    public static let sleep = OutsideProgram("/bin/sleep", "coreutils")
    public static let gzip = OutsideProgram("/bin/gzip", "gzip")
    // Run by the stand-in helpers' shell scripts (StandInHelper).
    public static let dd = OutsideProgram("/bin/dd", "coreutils", through: "a stand-in helper's script")
    public static let mv = OutsideProgram("/bin/mv", "coreutils", through: "a stand-in helper's script")
    public static let readlink = OutsideProgram("/bin/readlink", "coreutils", through: "a stand-in helper's script")

    /// The whole list.
    public static let all: [OutsideProgram] = [
        convert, exiftool, ffmpeg, heifEnc, avifenc, cjxl, cjpeg, gstLaunch,
        xvfb, xdotool, xinput,
        mosquitto, mosquittoPasswd, mosquittoSub, mosquittoPub, apache2, htpasswd, openssl, promtool,
        systemdAnalyze, dpkgDeb, dpkgQuery, dpkgShlibdeps, lintian,
        sh, cp, sleep, gzip, dd, mv, readlink,
    ]

    /// The same program looked for at `path` (the tests of this list).
    public func withPath(_ path: String) -> OutsideProgram { OutsideProgram(path, package, through: through) }

    /// The first of `programs` that is missing, as a reason; nil when all are there.
    public static func missing(_ programs: OutsideProgram...) -> String? {
        programs.lazy.compactMap(\.missingReason).first
    }
}
