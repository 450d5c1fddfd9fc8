import CarouselCore

/// A large picture held in horizontal bands of textures, `bandRows` rows each (the last
/// band may hold fewer), so that it can be made and filled a band per frame: a new 16 MB
/// texture is cleared whole when it is made, 10 ms of one frame in software.
public final class BandedPicture {
    public let bands: [SDLTexture]
    public let bandRows: Int
    /// The picture's size (the bands may be larger: a texture is reused for smaller ones).
    public let width: Int
    public let height: Int

    /// `bands`, each `bandRows` rows high, holding a picture of `width` × `height`.
    public init(bands: [SDLTexture], bandRows: Int, width: Int, height: Int) {
        self.bands = bands
        self.bandRows = bandRows
        self.width = width
        self.height = height
    }

    /// Textures of `width` × `rows` each, to hold `height` rows: how many.
    public static func bandCount(height: Int, rows: Int) -> Int { (height + rows - 1) / max(1, rows) }

    /// Whether a picture of this size fits in these bands.
    public func holds(width: Int, height: Int) -> Bool {
        width <= (bands.first?.width ?? 0) && height <= bands.count * bandRows
    }

    /// The rows of the picture that band `i` holds.
    public func rows(ofBand i: Int) -> Range<Int> {
        min(height, i * bandRows)..<min(height, (i + 1) * bandRows)
    }

    public func setBlending(_ on: Bool) {
        for band in bands { band.setBlending(on) }
    }
}

extension SDLRenderer {
    /// Draws `picture` into `destination`, each band into its share of it.
    public func draw(_ picture: BandedPicture, in destination: Rect) {
        guard picture.height > 0 else { return }
        let scale = destination.size.height / Double(picture.height)
        for i in picture.bands.indices {
            let rows = picture.rows(ofBand: i)
            guard !rows.isEmpty else { continue }
            draw(picture.bands[i], source: (picture.width, rows.count),
                 in: Rect(x: destination.minX, y: destination.minY + Double(rows.lowerBound) * scale,
                          width: destination.size.width, height: Double(rows.count) * scale))
        }
    }
}
