/// How a decoded video frame lies in memory: 8-bit YUV 4:2:0 planes (I420: Y, U, V; NV12: Y,
/// then U and V interleaved), each plane's rows `pitch` bytes apart from its offset. What goes
/// up with `SDL_UpdateYUVTexture` or `SDL_UpdateNVTexture`, so the colour conversion happens
/// where the renderer does it. An animated picture's frames are one plane of RGBA.
public enum VideoFrame {
    public enum Layout: UInt8, Sendable {
        case i420 = 1, nv12, rgba
        /// How many planes.
        public var planeCount: Int {
            switch self {
            case .i420: 3
            case .nv12: 2
            case .rgba: 1
            }
        }
    }

    /// Each plane's width and height in samples: the chroma planes of 4:2:0 are half each
    /// way (rounded up); NV12's second plane holds two bytes a sample.
    public static func planeSize(_ plane: Int, layout: Layout, width: Int, height: Int) -> (rowBytes: Int, rows: Int) {
        if layout == .rgba { return (width * 4, height) }
        if plane == 0 { return (width, height) }
        let w = (width + 1) / 2, h = (height + 1) / 2
        return layout == .nv12 ? (w * 2, h) : (w, h)
    }

    /// Whether the planes, pitches and offsets fit in `count` bytes (a helper's frame is
    /// checked before a byte of it is read).
    public static func fits(layout: Layout, width: Int, height: Int, pitches: [Int], offsets: [Int], count: Int) -> Bool {
        guard width >= 1, height >= 1, width <= 16384, height <= 16384,
              pitches.count == layout.planeCount, offsets.count == layout.planeCount else { return false }
        for plane in 0..<layout.planeCount {
            let (rowBytes, rows) = planeSize(plane, layout: layout, width: width, height: height)
            let pitch = pitches[plane], offset = offsets[plane]
            guard pitch >= rowBytes, pitch <= 65536, offset >= 0 else { return false }
            let end = offset + pitch * (rows - 1) + rowBytes
            guard end <= count else { return false }
        }
        return true
    }
}
