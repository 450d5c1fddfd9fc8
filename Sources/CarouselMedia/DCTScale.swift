/// A JPEG decoder can shrink while it decodes by dropping DCT coefficients: at 1/8 it
/// never builds the full-size image. This picks how far to shrink.
public struct DCTScale: Equatable, Sendable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public static let full = DCTScale(1, 1)

    /// libjpeg-turbo's factors at or below 1: 1/8, 1/4, 3/8, … 7/8, 1.
    public static let eighths: [DCTScale] = (1...8).map { DCTScale($0, 8) }

    /// A dimension scaled by this factor, rounded up as libjpeg does.
    public func scaled(_ dimension: Int) -> Int {
        (dimension * numerator + denominator - 1) / denominator
    }

    /// The smallest factor whose output still covers `target` in both dimensions, so the
    /// final downscale never has to enlarge; full size when the source is already small.
    public static func choose(source: (width: Int, height: Int), target: (width: Int, height: Int),
                              from factors: [DCTScale] = eighths) -> DCTScale {
        let ascending = factors.filter { $0.numerator <= $0.denominator }
            .sorted { $0.numerator * $1.denominator < $1.numerator * $0.denominator }
        return ascending.first {
            $0.scaled(source.width) >= target.width && $0.scaled(source.height) >= target.height
        } ?? .full
    }

    public var description: String { "\(numerator)/\(denominator)" }
}
