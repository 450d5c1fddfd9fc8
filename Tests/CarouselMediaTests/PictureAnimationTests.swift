@testable import CarouselMedia
import CarouselCore
import Foundation
import Testing
import TestSupport

/// Animated GIF and WebP frames as the video helper plays them: composed on the canvas as
/// the format says, with the delays and loop counts browsers use.
@Suite struct PictureAnimationTests {
    /// Every frame of `frames` (until its end), as (the RGBA of each pixel in `at`, delay).
    static func play(_ frames: any AnimationFrames, at points: [(Int, Int)]) throws -> [([[UInt8]], Double)] {
        var buffer = [UInt8](repeating: 0, count: frames.width * frames.height * 4)
        var out: [([[UInt8]], Double)] = []
        while out.count < 50, let delay = try buffer.withUnsafeMutableBytes({ b throws(ImageError) in try frames.next(into: b.baseAddress!) }) {
            out.append((points.map { (x, y) in let i = (y * frames.width + x) * 4; return Array(buffer[i..<(i + 4)]) }, delay))
        }
        return out
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func folder(_ label: String) throws -> String {
        let path = ScratchRoot.path + "/media-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let red: [UInt8] = [255, 0, 0, 255], lime: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    @Test(arguments: ClipFixtures.Animated.allCases)
    func ffmpegsAnimationPlaysItsFramesWithTheirDelays(format: ClipFixtures.Animated) throws {
        let path = try ClipFixtures.animation(format, frames: [0, 1, 2], frameMs: 200, width: 64, height: 48,
                                              in: try Self.folder("anim"))
        let file = try Self.bytes(path)
        #expect(PictureAnimation.isAnimated(file))
        let frames = try #require(try PictureAnimation.open(file, name: path))
        #expect(frames.width == 64 && frames.height == 48 && frames.plays == 0)
        #expect(frames.decoder == ["gif": "giflib", "webp": "libwebp", "apng": "libspng (APNG)"][format.rawValue])
        let played = try Self.play(frames, at: [(32, 24)])
        // The colour at 0.1, 0.3 and 0.5 s (ffmpeg writes 100 ms frames; its palette is near).
        func colour(at t: Double) -> [Int]? {
            var start = 0.0
            for (pixels, delay) in played {
                if t < start + delay { return pixels[0].map(Int.init) }
                start += delay
            }
            return nil
        }
        for (t, want) in [(0.1, Self.red), (0.3, Self.lime), (0.5, Self.blue)] {
            let got = colour(at: t)
            #expect(got.map { zip($0, want).allSatisfy { abs($0 - Int($1)) <= 6 } } == true, "at \(t) s: \(String(describing: got))")
        }
        // ffmpeg's WebP joins equal frames into one of their summed time.
        #expect(abs(played.reduce(0) { $0 + $1.1 } - 0.6) < 0.11, "\(played.map(\.1))")
        try frames.rewind()
        #expect(try Self.play(frames, at: [(32, 24)]).first.map { $0.0[0][0] > 240 && $0.0[0][1] < 10 } == true, "again from red")
    }

    @Test func loopCountsAreHowOftenItPlays() throws {
        let dir = try Self.folder("anim-loops")
        func plays(_ format: ClipFixtures.Animated, loop: Int) throws -> Int {
            let path = try ClipFixtures.animation(format, frames: [0, 1], loop: loop, width: 16, height: 16, in: dir, name: "l\(loop)\(format)")
            return try #require(try PictureAnimation.open(try Self.bytes(path), name: path)).plays
        }
        // GIF: no NETSCAPE block plays once; N repeats play N + 1 times (as browsers do).
        #expect(try plays(.gif, loop: -1) == 1)
        #expect(try plays(.gif, loop: 2) == 3)
        #expect(try plays(.gif, loop: 0) == 0)
        // WebP and APNG: the loop count is the plays.
        #expect(try plays(.webp, loop: 2) == 2)
        #expect(try plays(.webp, loop: 0) == 0)
        #expect(try plays(.apng, loop: 2) == 2)
        #expect(try plays(.apng, loop: 0) == 0)
    }

    /// Disposal, as GIF says it: a frame's rectangle cleared after it (2), the canvas
    /// before it restored (3), kept (1); a transparent colour leaves what is under it; a
    /// delay of 0 shows for 100 ms.
    @Test func gifFramesAreComposedAsTheirDisposalSays() throws {
        let gif = HandMadeGIF.make(width: 2, height: 1, frames: [
            .fill(0, width: 2, height: 1, disposal: 2, delay: 0),
            .fill(1, x: 1, width: 1, height: 1, disposal: 1, delay: 5),
            .fill(2, width: 1, height: 1, disposal: 3, delay: 1),
            .fill(3, x: 1, width: 1, height: 1, disposal: 1, delay: 30, transparent: 3),
        ])
        #expect(PictureAnimation.isAnimated(gif))
        let frames = try #require(try PictureAnimation.open(gif, name: "hand.gif"))
        let played = try Self.play(frames, at: [(0, 0), (1, 0)])
        #expect(played.map(\.0) == [[Self.red, Self.red], [Self.clear, Self.lime], [Self.blue, Self.lime], [Self.clear, Self.lime]],
                "\(played.map(\.0))")
        #expect(played.map { ($0.1 * 1000).rounded() } == [100, 50, 100, 300], "0 and 1 hundredths show for 100 ms")
        #expect(frames.plays == 0)
        let once = HandMadeGIF.make(width: 2, height: 1, frames: [.fill(0, width: 2, height: 1), .fill(1, width: 2, height: 1)], loop: nil)
        #expect(try PictureAnimation.open(once, name: "once.gif")?.plays == 1)
    }

    /// APNG's operations: a frame cleared after it (dispose 1), one drawn over the canvas with
    /// half its alpha (blend 1) and the canvas before it restored (dispose 2); a delay of
    /// 0/0 (a denominator of 0 means hundredths) shows for 100 ms.
    @Test func apngFramesAreComposedAsTheirOperationsSay() throws {
        let half: [UInt8] = [0, 0, 255, 128]
        let png = HandMadeAPNG.make(width: 2, height: 1, frames: [
            .init(width: 2, height: 1, rgba: Self.red + Self.red, dispose: 1, delay: (0, 0)),
            .init(x: 1, width: 1, height: 1, rgba: Self.lime, delay: (1, 20)),
            .init(width: 2, height: 1, rgba: half + half, dispose: 2, blend: 1, delay: (3, 10)),
            .init(width: 1, height: 1, rgba: Self.red, delay: (1, 10)),
        ], plays: 3)
        #expect(PictureAnimation.isAnimated(png))
        let frames = try #require(try PictureAnimation.open(png, name: "hand.png"))
        #expect(frames.plays == 3 && frames.width == 2 && frames.height == 1)
        let played = try Self.play(frames, at: [(0, 0), (1, 0)])
        #expect(played.map(\.0) == [[Self.red, Self.red], [Self.clear, Self.lime], [half, [0, 127, 128, 255]], [Self.red, Self.lime]],
                "\(played.map(\.0))")
        #expect(played.map { ($0.1 * 1000).rounded() } == [100, 50, 300, 100])
    }

    /// An APNG frame's rectangle outside the canvas, or a chunk running past the file's end,
    /// ends what is read there; a PNG without acTL is a picture.
    @Test func anAPNGThatDoesNotHoldTogetherIsCut() throws {
        let frame = HandMadeAPNG.Frame(width: 2, height: 1, rgba: Self.red + Self.red)
        var outside = frame
        outside.x = 1
        let png = HandMadeAPNG.make(width: 2, height: 1, frames: [frame, outside, frame])
        #expect(!PictureAnimation.isAnimated(png), "one frame before the one outside: a picture")
        let whole = HandMadeAPNG.make(width: 2, height: 1, frames: [frame, frame, frame])
        #expect(PictureAnimation.isAnimated(Array(whole[0..<(whole.count - 40)])), "cut in its last frame: two remain")
        let still = try PNGCodec.encode(PixelImage(width: 2, height: 1, fill: (255, 0, 0, 255)), path: "still.png")
        #expect(!PictureAnimation.isAnimated(still))
    }

    @Test func oneFrameIsAPictureAndAFrameOutsideTheScreenIsCut() throws {
        #expect(!PictureAnimation.isAnimated(HandMadeGIF.make(width: 2, height: 2, frames: [.fill(0, width: 2, height: 2)])))
        let gif = HandMadeGIF.make(width: 2, height: 1, frames: [.fill(0, width: 2, height: 1), .fill(2, x: 1, width: 5, height: 3)])
        let frames = try #require(try PictureAnimation.open(gif, name: "wide.gif"))
        #expect(try Self.play(frames, at: [(0, 0), (1, 0)]).last?.0 == [Self.red, Self.blue])
    }

    /// A file cut inside its second frame plays its first and ends there; one cut inside
    /// its first cannot play; a canvas beyond 4K is refused in one line.
    @Test func aDamagedAnimationPlaysWhatIsWhole() throws {
        let gif = HandMadeGIF.make(width: 8, height: 8, frames: [.fill(0, width: 8, height: 8), .fill(1, width: 8, height: 8), .fill(2, width: 8, height: 8)])
        let second = gif.count * 1 / 2
        let cut = Array(gif[0..<second])
        let frames = try #require(try PictureAnimation.open(cut, name: "cut.gif"))
        #expect(try Self.play(frames, at: [(0, 0)]).map { $0.0[0] } == [Self.red])
        let early = try #require(try PictureAnimation.open(Array(gif[0..<60]), name: "early.gif"))
        #expect(throws: ImageError.self) { try Self.play(early, at: [(0, 0)]) }
        let huge = HandMadeGIF.make(width: 5000, height: 5000, frames: [.fill(0, width: 1, height: 1), .fill(1, width: 1, height: 1)])
        #expect { try PictureAnimation.open(huge, name: "huge.gif") } throws: { ($0 as? ImageError)?.reason.contains("5000x5000") == true }
    }
}
