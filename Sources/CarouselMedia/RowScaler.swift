import CarouselCore

/// Resamples an RGBA image that arrives one row at a time, top to bottom, so that a decoder
/// never holds the full-size picture: each row is shrunk across as it comes, and added
/// into the at most few output rows it covers. Gives exactly the pixels of
/// `ImageScaler.resize` on the whole image (same weights, same order, same rounding).
struct RowScaler {
    let sourceWidth: Int
    let sourceHeight: Int
    let width: Int
    let height: Int
    private let across: ImageScaler.Taps
    private let down: ImageScaler.Taps
    /// The output, filled as rows complete.
    private(set) var pixels: [UInt8]
    /// Running sums of the output rows begun and not yet complete: row j uses slot
    /// j % `ring`. The rows open at once are those one source row feeds, so `ring` of them
    /// always suffice.
    private var sums: [Int32]
    private let ring: Int
    /// Per source row, the output rows it feeds and at which tap: (row, index in weights).
    private var feeds: [[(row: Int, weight: Int)]]
    private var nextRow = 0
    private var shrunk: [UInt8]
    /// Output rows complete so far: they complete in order, top to bottom.
    private var completeRows = 0
    /// Of those, the rows `finishCompleteRows` has had.
    private var finishedRows = 0

    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = max(1, width)
        self.height = max(1, height)
        across = ImageScaler.Taps(from: sourceWidth, to: self.width)
        down = ImageScaler.Taps(from: sourceHeight, to: self.height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        shrunk = [UInt8](repeating: 0, count: self.width * 4)
        var feeds = [[(row: Int, weight: Int)]](repeating: [], count: sourceHeight)
        var k = 0
        for j in 0..<self.height {
            for t in 0..<down.count[j] {
                let i = down.first[j] + t
                if i < sourceHeight { feeds[i].append((j, k + t)) }
            }
            k += down.count[j]
        }
        self.feeds = feeds
        ring = max(1, feeds.map(\.count).max() ?? 1)
        sums = [Int32](repeating: 0, count: ring * self.width * 4)
    }

    /// Whether every source row has been given.
    var isComplete: Bool { nextRow == sourceHeight }

    /// Takes the next source row: `sourceWidth` RGBA pixels.
    mutating func add(row: UnsafeBufferPointer<UInt8>) {
        guard nextRow < sourceHeight, row.count >= sourceWidth * 4 else { return }
        shrinkAcross(row)
        let n = width * 4
        for (j, k) in feeds[nextRow] {
            let w = down.weight[k]
            let first = nextRow == down.first[j], last = nextRow == down.first[j] + down.count[j] - 1
            let at = (j % ring) * n
            // Pointers, not checked index arithmetic, so these loops vectorise (5x faster).
            shrunk.withUnsafeBufferPointer { s in
                sums.withUnsafeMutableBufferPointer { a in
                    let v = s.baseAddress!, sum = a.baseAddress! + at
                    // The first tap starts the sum, as the whole-image scaler's does.
                    if first { for x in 0..<n { sum[x] = Int32(v[x]) &* w } }
                    else { for x in 0..<n { sum[x] &+= Int32(v[x]) &* w } }
                    guard last else { return }
                    completeRows = j + 1
                    pixels.withUnsafeMutableBufferPointer { o in
                        let row = o.baseAddress! + j * n
                        for x in 0..<n { row[x] = ImageScaler.clampByte(sum[x]) }
                    }
                }
            }
        }
        nextRow += 1
    }

    /// Runs `body` over the output rows completed since its last call (their first pixel
    /// and how many pixels), in place: a colour conversion as the rows come.
    mutating func finishCompleteRows(_ body: (UnsafeMutableRawPointer, Int) -> Void) {
        guard completeRows > finishedRows else { return }
        let (from, count) = (finishedRows * width * 4, (completeRows - finishedRows) * width)
        pixels.withUnsafeMutableBytes { body($0.baseAddress! + from, count) }
        finishedRows = completeRows
    }

    /// The source row resampled to `width` pixels into `shrunk`, rounded to bytes as the
    /// whole-image scaler's first pass rounds (the same taps, the same loop).
    private mutating func shrinkAcross(_ row: UnsafeBufferPointer<UInt8>) {
        if width == sourceWidth {
            shrunk.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: row.baseAddress!, count: width * 4) }
            return
        }
        shrunk.withUnsafeMutableBufferPointer { across.apply(row, from: 0, step: 4, into: $0, at: 0, outStep: 4) }
    }

    /// The resampled image once complete.
    func image(isOpaque: Bool) -> PixelImage {
        PixelImage(width: width, height: height, pixels: pixels, isOpaque: isOpaque)
    }
}
