@testable import CarouselControl
import Foundation
import Testing

/// What the desk answers while the run loop changes it from another thread.
@Suite struct ControlDeskTests {
    /// The run loop publishes a pass's state, then counts the frame it drew. A status or
    /// metrics page that counts a frame must show at least what that frame showed: CI once
    /// saw "2 frames drawn" beside the empty state before the first publish.
    @Test func aStatusThatCountsAFrameShowsWhatItShowed() throws {
        let desk = ControlDesk(version: "test", clock: { 0 }, wake: {}, figures: { ProcessFigures() },
                               encodePNG: { _, _, _, _ in nil })
        let passes = 20_000
        let done = OnceFlag()
        Thread.detachNewThread {
            // Each pass i shows a show of i pictures, then counts its frame: frame i showed count i.
            for i in 1...passes {
                var s = ShowState()
                s.count = i
                desk.publish(s)
                desk.frames.add(seconds: 0.001, at: 0)
            }
            done.set()
        }
        var torn = 0, statuses = 0, pages = 0
        while !done.isSet || statuses == 0 {
            let status = try #require(try JSONSerialization.jsonObject(with: Data(desk.statusJSON())) as? [String: Any])
            let drawn = try #require(status["frames_drawn"] as? Int), count = try #require(status["count"] as? Int)
            if count < drawn { torn += 1 }
            statuses += 1
            // The metrics page the same way: pictures at least the frames counted.
            let text = desk.metricsText()
            func value(_ name: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
            }
            if let pictures = value("carousel_pictures"), let frames = value("carousel_frame_seconds_count"), pictures < frames { torn += 1 }
            pages += 1
        }
        #expect(torn == 0, "\(torn) of \(statuses + pages) answers counted a frame whose state they did not show")
    }
}

/// A flag set once from one thread and read from another.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
