import CarouselCore
import CarouselMedia

/// `GET /screenshot.png`: the frame read back from the screen, scaled down to a width if
/// asked, as PNG (libspng, quick settings). Runs on the control part's side, never on the
/// drawing's.
enum ScreenshotEncoder {
    @Sendable static func png(width: Int, height: Int, rgba: [UInt8], scaledTo target: Int?) -> [UInt8]? {
        guard width > 0, height > 0, rgba.count == width * height * 4 else { return nil }
        var image = PixelImage(width: width, height: height, pixels: rgba, isOpaque: true)
        if let target, target < width {
            let h = max(1, Int((Double(height) * Double(target) / Double(width)).rounded()))
            image = ImageScaler.resize(image, width: target, height: h)
        }
        return try? PNGCodec.encode(image, path: "screenshot.png", effort: .quick)
    }
}
