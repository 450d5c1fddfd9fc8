import CarouselCore

/// Decodes a pair (`--pair-portraits`: a source with a partner) as one picture: each of its
/// two pictures through `inner`, into its place as `PairGeometry` gives it, transparent
/// between and around them. Every cache below (thumbnails, the web cache, the helpers'
/// own) sees the two pictures one at a time, as it would without pairs. A picture of the
/// two that fails leaves the failed placeholder's colour in its place and the other shows
/// (the pair fails only when both do). Any other source goes straight to `inner`.
public struct PairDecoder: ImageDecoding {
    public let inner: any ImageDecoding
    /// The failed placeholder's colour (`ViewStyle.failedPlaceholder`).
    static let failed: (r: UInt8, g: UInt8, b: UInt8) = (0x4a, 0x30, 0x30)

    /// A pair fails when either picture does (previews: a thumbnail missing is no failure
    /// to show, the pair waits for its decode instead).
    public let failsWhole: Bool

    public init(inner: any ImageDecoding, failsWhole: Bool = false) {
        self.inner = inner
        self.failsWhole = failsWhole
    }

    public func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
        try decode(source, fittingIn: box, withBackdrop: false)
    }

    public func decode(_ source: ImageSource, fittingIn box: Size, withBackdrop: Bool) throws(ImageError) -> PixelImage {
        guard let (pictures, geometry) = pair(source, box: box) else {
            return try inner.decode(source, fittingIn: box, withBackdrop: withBackdrop)
        }
        var made = Canvas(geometry.size)
        var problem: ImageError?
        var fullScale = 0.0
        for (i, picture) in pictures.enumerated() {
            let place = geometry.places[i]
            do throws(ImageError) {
                let image = try inner.decode(picture, fittingIn: place.size)
                made.put(image, centredIn: place)
                if let full = image.fullSize { fullScale = max(fullScale, full.width / place.size.width) }
            } catch {
                if failsWhole { throw ImageError(path: source.path, reason: error.reason) }
                problem = problem ?? error
                made.fill(place, Self.failed)
            }
        }
        if let problem, made.failedCount == pictures.count { throw ImageError(path: source.path, reason: problem.reason) }
        var image = made.image
        // As large as the larger-scaled picture's own pixels: the zoom grows to show them 1:1.
        if fullScale > 1 { image.fullSize = Size(width: (geometry.size.width * fullScale).rounded(), height: (geometry.size.height * fullScale).rounded()) }
        image.note = problem.map { "\($0.path): \($0.reason)" }
        if withBackdrop { image.backdrop = BlurredBackdrop.make(from: image) }
        return image
    }

    /// The zoom's part: each picture's share of it decoded from its own part, in place.
    public func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
        guard let (pictures, geometry) = pair(source, box: box) else {
            return try inner.decode(source, part: part, fittingIn: box)
        }
        let shown = AspectFit.size(of: Size(width: part.size.width * geometry.proportions.width,
                                            height: part.size.height * geometry.proportions.height), in: box)
        var decoded: [(image: PixelImage, at: Rect)] = []
        for piece in geometry.pieces(of: part) {
            let at = Rect(x: piece.at.minX * shown.width, y: piece.at.minY * shown.height,
                          width: piece.at.size.width * shown.width, height: piece.at.size.height * shown.height)
            do throws(ImageError) {
                let size = Size(width: max(1, at.size.width.rounded()), height: max(1, at.size.height.rounded()))
                decoded.append((try inner.decode(pictures[piece.picture], part: piece.own, fittingIn: size), at))
            } catch {
                // The fitted pair stays under a part that cannot be had.
                throw ImageError(path: source.path, reason: error.reason)
            }
        }
        // A part is not decoded larger than its picture's own pixels: the whole is made at the
        // scale of the piece that came back smallest, so that the two stay in proportion.
        let scale = min(1, decoded.map { Double($0.image.width) / max(1, $0.at.size.width) }.min() ?? 1)
        var made = Canvas(Size(width: (shown.width * scale).rounded(), height: (shown.height * scale).rounded()))
        for (image, at) in decoded {
            let place = Rect(x: (at.minX * scale).rounded(), y: (at.minY * scale).rounded(),
                             width: max(1, (at.size.width * scale).rounded()), height: max(1, (at.size.height * scale).rounded()))
            let fitted = AspectFit.size(of: image.size, in: place.size)
            made.put(ImageScaler.resize(image, width: Int(fitted.width), height: Int(fitted.height)), centredIn: place)
        }
        return made.image
    }

    public func stop() { inner.stop() }

    /// The two pictures of a pair and where they go in `box`; nil for any other source.
    private func pair(_ source: ImageSource, box: Size) -> ([ImageSource], PairGeometry)? {
        guard let partner = source.partners.first, let a = source.aspect, let b = partner.aspect,
              let geometry = PairGeometry(box: box, aspects: [a, b]) else { return nil }
        return ([source.alone, partner.alone], geometry)
    }

    /// The picture being made: transparent until a picture or a placeholder goes in.
    private struct Canvas {
        let width: Int, height: Int
        var pixels: [UInt8]
        var failedCount = 0

        init(_ size: Size) {
            width = max(1, Int(size.width))
            height = max(1, Int(size.height))
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        }

        var image: PixelImage { PixelImage(width: width, height: height, pixels: pixels) }

        /// `image` centred in `place` (clipped to the canvas).
        mutating func put(_ image: PixelImage, centredIn place: Rect) {
            let x0 = Int(place.minX) + (Int(place.size.width) - image.width) / 2
            let y0 = Int(place.minY) + (Int(place.size.height) - image.height) / 2
            let bgra = image.isBGRA
            for row in 0..<image.height {
                let y = y0 + row
                guard y >= 0, y < height else { continue }
                let from = max(0, -x0), to = min(image.width, width - x0)
                guard from < to else { continue }
                let source = (row * image.width + from) * 4, target = (y * width + x0 + from) * 4
                let count = (to - from) * 4
                pixels.withUnsafeMutableBufferPointer { out in
                    image.pixels.withUnsafeBufferPointer { input in
                        if bgra {
                            for k in stride(from: 0, to: count, by: 4) {
                                out[target + k] = input[source + k + 2]
                                out[target + k + 1] = input[source + k + 1]
                                out[target + k + 2] = input[source + k]
                                out[target + k + 3] = input[source + k + 3]
                            }
                        } else {
                            for k in 0..<count { out[target + k] = input[source + k] }
                        }
                    }
                }
            }
        }

        mutating func fill(_ place: Rect, _ colour: (r: UInt8, g: UInt8, b: UInt8)) {
            failedCount += 1
            let x0 = max(0, Int(place.minX)), x1 = min(width, Int(place.maxX))
            let y0 = max(0, Int(place.minY)), y1 = min(height, Int(place.maxY))
            guard x0 < x1 else { return }
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * width + x) * 4
                    pixels[i] = colour.r; pixels[i + 1] = colour.g; pixels[i + 2] = colour.b; pixels[i + 3] = 255
                }
            }
        }
    }
}
