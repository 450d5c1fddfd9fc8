@testable import CarouselSDL
@testable import CarouselPainting
import CarouselCore
import Testing

/// In software a crossfade's still part (background, outgoing picture, neighbours) is drawn
/// once and copied into each frame; drawn again only when what it shows changes.
@Suite(.serialized) @MainActor struct StillFrameTests {
    @Test func aCrossfadeDrawsItsStillPartOnceUntilItChanges() throws {
        let screen = try SoftwareScreen(width: 320, height: 180)
        let renderer = screen.renderer
        let slots = SlotTextures(renderer: renderer)
        try slots.configure(count: 3, width: 100, height: 80)
        // Opaque pictures of one grey each, as a JPEG decodes.
        func grey(_ v: UInt8) -> PixelImage {
            PixelImage(width: 100, height: 80, pixels: PixelImage(width: 100, height: 80, fill: (v, v, v, 255)).pixels, isOpaque: true)
        }
        for (slot, v) in [(0, UInt8(40)), (1, 120), (2, 200)] {
            slots.assign(slot, ImageSource(path: "/p\(slot).jpg"))
            try slots.fill(slot, with: grey(v))
        }
        let painter = FramePainter(style: ViewStyle(), text: nil)
        let viewport = Size(width: 320, height: 180)
        func item(_ slot: Int, x: Double) -> VisibleItem {
            VisibleItem(item: slot, virtualIndex: slot, slot: slot, frame: Rect(x: x, y: 40, width: 100, height: 80),
                        focusDistance: abs(x - 110) / 110)
        }
        let items = [item(0, x: 0), item(1, x: 110)]
        let incoming = item(2, x: 110)
        func frame(_ opacity: Double, _ items: [VisibleItem]) throws -> PixelImage {
            painter.draw(items, slots: slots, viewport: viewport, fadeIn: (incoming, opacity), on: renderer)
            renderer.finish()
            return try renderer.readPixels(width: 320, height: 180)
        }
        var centre: [UInt8] = []
        for step in 1...5 {
            let f = try frame(Double(step) / 6, items)
            let i = (80 * 320 + 160) * 4
            centre.append(f.pixels[i])
        }
        #expect(painter.still.drawings == 1, "drawn \(painter.still.drawings) times for five frames")
        // The incoming picture fades in over the outgoing one (120 → 200) in every frame, by
        // its opacity (not washed out by its border's colour under it).
        let expected = (1...5).map { 120 + 80 * Double($0) / 6 }
        #expect(zip(centre, expected).allSatisfy { abs(Double($0) - $1) <= 2 }, "\(centre) against \(expected)")
        // A new picture in a slot it shows, or an item moved: drawn again.
        slots.assign(0, ImageSource(path: "/p0.jpg"))
        _ = try frame(0.9, items)
        #expect(painter.still.drawings == 2, "its placeholder")
        try slots.fill(0, with: grey(90))
        let filled = try frame(0.9, items)
        #expect(painter.still.drawings == 3, "its new picture")
        let moved = try frame(0.9, [item(0, x: 5), item(1, x: 110)])
        #expect(painter.still.drawings == 4)
        let edge = (80 * 320 + 2) * 4
        #expect(moved.pixels[edge..<edge + 3] != filled.pixels[edge..<edge + 3], "the neighbour's old place shows what is there now")
        withExtendedLifetime(screen) {}
    }
}
