@testable import CarouselCore

let frame60 = 1.0 / 60

extension Carousel {
    /// Presses at (x1, y), moves linearly to x2 over `duration` seconds in 1/60 s steps,
    /// optionally holds still for `hold` seconds, releases; returns the release time.
    @discardableResult
    mutating func drag(from x1: Double, to x2: Double, y: Double = 360, duration: Double,
                       hold: Double = 0, at start: Double, pointer: PointerID = .mouse) -> Double {
        handle(.pointer(PointerEvent(.down, pointer, x: x1, y: y, time: start)))
        let steps = max(1, Int((duration / frame60).rounded()))
        var t = start
        for i in 1...steps {
            t = start + Double(i) * frame60
            let x = x1 + (x2 - x1) * Double(i) / Double(steps)
            handle(.pointer(PointerEvent(.move, pointer, x: x, y: y, time: t)))
        }
        if hold > 0 { t += hold }
        handle(.pointer(PointerEvent(.up, pointer, x: x2, y: y, time: t)))
        return t
    }

    mutating func tap(x: Double, y: Double = 360, at t: Double, pointer: PointerID = .mouse) {
        handle(.pointer(PointerEvent(.down, pointer, x: x, y: y, time: t)))
        handle(.pointer(PointerEvent(.up, pointer, x: x, y: y, time: t + 0.05)))
    }

    /// Advances far enough for any settle animation to finish.
    mutating func settleFully(after t: Double) -> Double {
        let end = t + 1
        advance(to: end)
        return end
    }

}

extension [ViewEvent] {
    var settledIndices: [Int] { compactMap { if case .settled(let i) = $0.kind { i } else { nil } } }
    var releases: [ReleaseRecord] { compactMap { if case .release(let r) = $0.kind { r } else { nil } } }
    var taps: [Int] { compactMap { if case .tap(let i) = $0.kind { i } else { nil } } }
    var activations: [Int] { compactMap { if case .activate(let i) = $0.kind { i } else { nil } } }
    var pools: [PoolInfo] { compactMap { if case .pool(let p) = $0.kind { p } else { nil } } }
}

/// 1280×720 with a 600×500 box and a 40 px gap: stride 640, neighbours show 300 px each side.
func testSettings(wrap: Bool = false) -> CarouselSettings {
    var s = CarouselSettings()
    s.layout = LayoutSpec(itemWidth: .pixels(600), itemHeight: .pixels(500), gap: .pixels(40))
    s.wrap = wrap
    return s
}
let viewport = Size(width: 1280, height: 720)
