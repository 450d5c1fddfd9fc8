import Foundation
import Testing

/// kiosk/install staged into a folder (DESTDIR), and the systemd unit checked by systemd.
@Suite struct KioskInstallTests {
    static let kiosk = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../kiosk").standardized.path

    static func sh(_ path: String, _ args: [String], environment: [String: String] = [:]) throws -> CarouselBinary.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return .init(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                     stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func installIsIdempotentKeepsTheUsersConfigAndTheBinaryFindsItsAssets() throws {
        let stage = try Fixtures.temporaryFolder("stage")
        let install = { try Self.sh(Self.kiosk + "/install", ["--binary", CarouselBinary.url.path], environment: ["DESTDIR": stage]) }
        let first = try install()
        #expect(first.status == 0, "stderr: \(first.stderr)")
        for path in ["/usr/local/bin/carousel", "/etc/systemd/system/kiosk-carousel.service",
                     "/etc/kiosk-carousel/carousel.toml", "/usr/local/share/kiosk-carousel/Assets/manifest.toml",
                     "/etc/udev/rules.d/70-kiosk-carousel-backlight.rules"] {
            #expect(FileManager.default.fileExists(atPath: stage + path), "\(path) not installed")
            #expect(first.stdout.contains("installed  \(path)"))
        }
        // The owner edits the config; the next install keeps it and changes nothing else.
        try "autoplay = 5\n".write(toFile: stage + "/etc/kiosk-carousel/carousel.toml", atomically: true, encoding: .utf8)
        let second = try install()
        #expect(second.status == 0)
        #expect(!second.stdout.contains("installed"), "a second run changed: \(second.stdout)")
        #expect(second.stdout.contains("kept       /etc/kiosk-carousel/carousel.toml"))
        #expect(try String(contentsOfFile: stage + "/etc/kiosk-carousel/carousel.toml", encoding: .utf8) == "autoplay = 5\n")
        // The installed binary shows the installed demo images when given no sources.
        let out = stage + "/render-out"
        let script = stage + "/script.txt"
        try "snapshot first\n".write(toFile: script, atomically: true, encoding: .utf8)
        let r = try Self.sh(stage + "/usr/local/bin/carousel", ["render", "--script", script, "--out", out, "--size", "320x180"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: out + "/first.png"))
    }

    @Test func anUnknownOptionIsRefused() throws {
        let r = try Self.sh(Self.kiosk + "/install", ["--prefix", "/opt"], environment: ["DESTDIR": "/nonexistent"])
        #expect(r.status == 64 && r.stderr.contains("'--prefix'"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
                   "systemd-analyze is not installed"))
    func systemdFindsNothingWrongWithTheUnit() throws {
        // verify checks that ExecStart exists: point it at the built binary.
        let unit = try String(contentsOfFile: Self.kiosk + "/kiosk-carousel.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/carousel --kiosk --config /etc/kiosk-carousel/carousel.toml"))
        #expect(unit.contains("User=kiosk") && unit.contains("Restart=always") && unit.contains("SDL_VIDEODRIVER=kmsdrm"))
        let path = try Fixtures.temporaryFolder("unit") + "/kiosk-carousel.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/carousel", with: CarouselBinary.url.path)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Self.sh("/usr/bin/systemd-analyze", ["verify", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty && r.stdout.isEmpty, "systemd-analyze: \(r.stderr)\(r.stdout)")
    }
}
