import CarouselApp
/// The least-squares straight line through a set of points: how fast something grows. The
/// soak judges memory by it (MB per hour after the warm-up), not by its peak, which a
/// single large picture can set.
struct LinearFit: Equatable, Sendable {
    /// Growth per unit of x.
    let slope: Double
    /// The line's value at x = 0.
    let intercept: Double
    let count: Int

    /// nil with fewer than two points or with every x the same: no line is defined then.
    init?(_ points: [(x: Double, y: Double)]) {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / n
        let meanY = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, sxy = 0.0
        for p in points {
            sxx += (p.x - meanX) * (p.x - meanX)
            sxy += (p.x - meanX) * (p.y - meanY)
        }
        guard sxx > 0 else { return nil }
        slope = sxy / sxx
        intercept = meanY - slope * meanX
        count = points.count
    }

    func value(at x: Double) -> Double { intercept + slope * x }
}

extension LinearFit {
    /// The one slope shared by lines fitted to several groups of points at once, each group
    /// with an intercept of its own (least squares with a level per group). How the soak
    /// measures growth across window sizes: a window's memory depends on its size (slot
    /// textures, fitted pictures, the renderer's buffers), so a resize moves the level, and
    /// only the change within each size is growth. Nil when no group has two different x.
    static func commonSlope(_ groups: [[(x: Double, y: Double)]]) -> Double? {
        var sxx = 0.0, sxy = 0.0
        for points in groups where points.count >= 2 {
            let n = Double(points.count)
            let meanX = points.reduce(0) { $0 + $1.x } / n
            let meanY = points.reduce(0) { $0 + $1.y } / n
            for p in points {
                sxx += (p.x - meanX) * (p.x - meanX)
                sxy += (p.x - meanX) * (p.y - meanY)
            }
        }
        return sxx > 0 ? sxy / sxx : nil
    }
}
