import CarouselCore
import CarouselMedia
import Foundation
import Testing

/// `--clock` in `carousel render`: the time drawn in its corner over the view, at the
/// script's time from `--clock-time` (so frames are the same every run), the same until the
/// minute turns and new then; nothing else of the frame changes.
@Suite(.serialized) struct ClockRenderTests {
    static func image(_ out: String, _ name: String) throws -> PixelImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/\(name).png")))
        return try PNGCodec.decode(bytes, fittingIn: Size(width: 640, height: 360), path: name)  // the screen's own size
    }

    /// The box around every pixel where `a` and `b` differ; nil when they are the same.
    static func difference(_ a: PixelImage, _ b: PixelImage) -> Rect? {
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * 4
                if a.pixels[i..<(i + 3)] != b.pixels[i..<(i + 3)] {
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    @Test(arguments: [ClockFace.Corner.bottomRight, .topLeft])
    func theClockShowsInItsCornerAndChangesWhenTheMinuteTurns(corner: ClockFace.Corner) throws {
        let images = try Fixtures.imageFolder()
        // From 09:41:30: 29 s on still 09:41, 31 s on 09:42.
        let script = "snapshot a\nwait 29000\nsnapshot b\nwait 2000\nsnapshot c\n"
        let clock = ["--clock", "%H:%M", "--clock-corner", corner.rawValue, "--clock-time", "2026-11-27 09:41:30"]
        let (out, r) = try CarouselBinary.render([images], script: script, options: clock, environment: ["TZ": "UTC"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let (plainOut, plain) = try CarouselBinary.render([images], script: "snapshot a\n")
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        let (a, b, c, none) = (try Self.image(out, "a"), try Self.image(out, "b"), try Self.image(out, "c"), try Self.image(plainOut, "a"))
        #expect(Self.difference(a, b) == nil, "09:41 twice: the same frame")
        // The clock is the only difference from the frame without it, in its corner of the 640x360 screen.
        let clockBox = try #require(Self.difference(a, none), "no clock drawn")
        let left = corner == .topLeft
        #expect(left ? clockBox.maxX < 320 && clockBox.maxY < 180 : clockBox.minX > 320 && clockBox.minY > 180, "\(corner): \(clockBox)")
        #expect(clockBox.size.height >= 25 && clockBox.size.height <= 60, "a twelfth of 360 and its scrim: \(clockBox)")
        // The minute turned: only the clock's digits changed.
        let turned = try #require(Self.difference(b, c), "09:42 drew the same as 09:41")
        #expect(clockBox.minX <= turned.minX && turned.maxX <= clockBox.maxX && clockBox.minY <= turned.minY && turned.maxY <= clockBox.maxY,
                "the change \(turned) lies in the clock \(clockBox)")
    }

    @Test func badClockOptionsAreRefusedInOneLine() throws {
        let images = try Fixtures.imageFolder()
        for (options, says) in [(["--clock", ""], "--clock"), (["--clock", "%H:%M", "--clock-size", "2"], "--clock-size"),
                                (["--clock", "%H:%M", "--clock-time", "27/11/2026"], "--clock-time"),
                                (["--clock", "%H:%M", "--clock-corner", "middle"], "clock-corner")] {
            let (_, r) = try CarouselBinary.render([images], script: "snapshot a\n", options: options)
            #expect(r.status != 0 && r.stderr.contains(says), "\(options): \(r.status) \(r.stderr)")
        }
    }
}

/// `--clock` in the running program: at rest it draws when the clock's text changes and
/// only then: once a second with seconds in the format, none in a few seconds without.
@Suite(.serialized) struct ClockWakeTests {
    /// Frames drawn over `seconds` once the show rests (its pictures in), in up to six
    /// windows one after the other until one `fits`: a machine running ThreadSanitizer's
    /// suite beside it (memory tight, decoders slow) woke a resting show now and then
    /// (6 frames in 4 s once, without seconds), while a clock that woke it needlessly
    /// does so in every window.
    static func framesAtRest(_ format: String, seconds: Double, fits: (Int) -> Bool) throws -> [Int] {
        let k = try ControlAPITests.Kiosk([try Fixtures.imageFolder(), "--size", "640x360", "--clock", format])
        defer { k.stop() }
        _ = k.status(within: 30) { ($0["count"] as? Int ?? 0) > 0 }
        // At rest once two seconds in a row drew at most a frame each (the pictures are in:
        // under ThreadSanitizer on a busy machine that takes a while).
        var last = k.status()?["frames_drawn"] as? Int ?? -1, calm = 0
        for _ in 0..<60 where calm < 2 {
            Thread.sleep(forTimeInterval: 1)  // a second of the loop (time meant to pass)
            let now = k.status()?["frames_drawn"] as? Int ?? -1
            calm = now - last <= 1 ? calm + 1 : 0
            last = now
        }
        var windows: [Int] = []
        // Up to six windows: under ThreadSanitizer beside two other suites the pictures still
        // came in a second apart after the calm above ([4, 3, 4] in three windows once).
        while windows.count < 6, !(windows.last.map(fits) ?? false) {
            let before = k.status()?["frames_drawn"] as? Int ?? -1
            Thread.sleep(forTimeInterval: seconds)  // what the loop does at rest (time meant to pass)
            let after = k.status()?["frames_drawn"] as? Int ?? -1
            windows.append(after - before)
        }
        return windows
    }

    @Test func theLoopWakesForTheClockAndOnlyForIt() throws {
        let everySecond = try Self.framesAtRest("%H:%M:%S", seconds: 4) { (3...6).contains($0) }
        #expect(everySecond.contains { (3...6).contains($0) }, "seconds shown: \(everySecond) frames in windows of 4 s")
        let everyMinute = try Self.framesAtRest("%H:%M", seconds: 4) { $0 <= 1 }
        #expect(everyMinute.contains { $0 <= 1 }, "minutes shown: \(everyMinute) frames in windows of 4 s (a minute may turn)")
    }
}
