import CarouselCore
import CarouselMedia
import Foundation
import TestSupport

/// Test images the tests make themselves: solid colours and simple patterns in mixed
/// aspect ratios, plus a broken file. Written as 24-bit BMP by hand, so making them needs
/// no library at all.
enum Fixtures {
    /// A fresh folder holding, in natural order: a landscape, a portrait, a square
    /// checkerboard, a panorama gradient and a text file named .jpg.
    static func imageFolder() throws -> String {
        let dir = try temporaryFolder("images")
        try bmp(400, 300) { _, _ in (220, 60, 60) }.write(to: URL(fileURLWithPath: dir + "/a-landscape.bmp"))
        try bmp(300, 400) { x, y in y < 40 ? (240, 240, 80) : (60, 190, 90) }
            .write(to: URL(fileURLWithPath: dir + "/b-portrait.bmp"))
        try bmp(300, 300) { x, y in (x / 30 + y / 30) % 2 == 0 ? (30, 60, 200) : (230, 230, 240) }
            .write(to: URL(fileURLWithPath: dir + "/c-square.bmp"))
        try bmp(800, 200) { x, y in (UInt8(x * 255 / 799), UInt8(y * 255 / 199), 140) }
            .write(to: URL(fileURLWithPath: dir + "/d-panorama.bmp"))
        try Data("this is not a jpeg\n".utf8).write(to: URL(fileURLWithPath: dir + "/e-broken.jpg"))
        return dir
    }

    static func temporaryFolder(_ label: String) throws -> String {
        let path = ScratchRoot.path + "/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A 24-bit bottom-up BMP of `w` × `h` whose pixel (x, y) is `color(x, y)`.
    static func bmp(_ w: Int, _ h: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        let row = (w * 3 + 3) & ~3
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("BM".utf8)); u32(54 + row * h); u32(0); u32(54)
        u32(40); u32(w); u32(h); u16(1); u16(24); u32(0); u32(row * h); u32(2835); u32(2835); u32(0); u32(0)
        for y in stride(from: h - 1, through: 0, by: -1) {
            for x in 0..<w {
                let (r, g, b) = color(x, y)
                d.append(contentsOf: [b, g, r])
            }
            d.append(contentsOf: [UInt8](repeating: 0, count: row - w * 3))
        }
        return d
    }
}

/// Runs the built `carousel` executable, as a user would.
enum CarouselBinary {
    static var url: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("carousel")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/carousel")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs it to the end; one still running after `timeout` seconds is killed (a hang
    /// fails the test instead of stalling the suite).
    static func run(_ args: [String], environment: [String: String] = [:], timeout: Double = 300) throws -> Result {
        let p = Process()
        p.executableURL = url
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let pid = p.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// Writes `script` to a file, renders it, and returns the output folder.
    static func render(_ sources: [String], script: String, options: [String] = [],
                       size: String = "640x360", environment: [String: String] = [:]) throws -> (out: String, result: Result) {
        let dir = try Fixtures.temporaryFolder("render")
        let scriptPath = dir + "/script.txt"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let r = try run(["render"] + sources + ["--size", size, "--script", scriptPath, "--out", out] + options, environment: environment)
        return (out, r)
    }
}

/// Golden images: compares a rendered PNG with the reference in Snapshots/, within a small
/// tolerance. A missing reference, or RECORD_SNAPSHOTS=1, records it and fails on purpose,
/// so nobody records by accident. On a mismatch the actual image and a diff image are
/// written beside the reference and named in the failure.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").path

    /// A pixel differs when a channel differs by more than this.
    static let channelTolerance = 6
    /// The share of pixels allowed to differ (anti-aliased text edges across font builds).
    static let pixelTolerance = 0.002

    /// Nil when `actualPath` matches the reference `name`; else what went wrong.
    static func compare(_ actualPath: String, to name: String) -> String? {
        let reference = folder + "/\(name).png"
        let actual: PixelImage
        do { actual = try SDLImageCodec.decode(path: actualPath) } catch { return "no image rendered: \(error)" }
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !record, FileManager.default.fileExists(atPath: reference) else {
            try? FileManager.default.removeItem(atPath: reference)
            try? FileManager.default.copyItem(atPath: actualPath, toPath: reference)
            return "recorded a new reference \(reference); check it and run again"
        }
        let expected: PixelImage
        do { expected = try SDLImageCodec.decode(path: reference) } catch { return "cannot read \(reference)" }
        guard expected.width == actual.width, expected.height == actual.height else {
            return "size \(actual.width)x\(actual.height), reference \(expected.width)x\(expected.height)"
        }
        var diff = [UInt8](repeating: 0, count: actual.pixels.count)
        var differing = 0
        for i in stride(from: 0, to: actual.pixels.count, by: 4) {
            var worst = 0
            for c in 0..<3 { worst = max(worst, abs(Int(actual.pixels[i + c]) - Int(expected.pixels[i + c]))) }
            if worst > channelTolerance {
                differing += 1
                diff[i] = 255
            }
            diff[i + 1] = actual.pixels[i + 1] / 4
            diff[i + 3] = 255
        }
        let share = Double(differing) / Double(actual.width * actual.height)
        guard share > pixelTolerance else { return nil }
        let actualCopy = folder + "/\(name).actual.png", diffPath = folder + "/\(name).diff.png"
        try? FileManager.default.removeItem(atPath: actualCopy)
        try? FileManager.default.copyItem(atPath: actualPath, toPath: actualCopy)
        try? PNGCodec.write(PixelImage(width: actual.width, height: actual.height, pixels: diff), to: diffPath)
        return "\(differing) pixels differ (\(share * 100)%): see \(actualCopy) and \(diffPath)"
    }
}
