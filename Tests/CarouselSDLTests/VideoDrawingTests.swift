@testable import CarouselSDL
@testable import CarouselPainting
import CarouselCore
import Testing

/// A playing clip's frames are drawn in its item's place even before its poster has been
/// decoded (on a slow machine the poster can come seconds after the clip starts).
@Suite(.serialized) @MainActor struct VideoDrawingTests {
    @Test func aClipPlaysWhereItsPosterHasNotComeYet() throws {
        let screen = try SoftwareScreen(width: 320, height: 180)
        let renderer = screen.renderer
        let slots = SlotTextures(renderer: renderer)
        try slots.configure(count: 1, width: 100, height: 80)
        slots.assign(0, ImageSource(path: "/clip.mp4"))  // loading: no poster yet
        let texture = try SDLTexture.animation(renderer: renderer, width: 4, height: 3)
        let lime = [UInt8](repeating: 0, count: 4 * 3 * 4).enumerated().map { $0.offset % 4 == 1 || $0.offset % 4 == 3 ? UInt8(255) : 0 }
        try lime.withUnsafeBytes { try texture.updateVideo(planes: [$0.baseAddress!], pitches: [16]) }
        let video = VideoDrawing(item: 0, texture: texture, width: 4, height: 3, quarterTurns: 0, matrix: .bt601, replacesPicture: true)
        let item = VisibleItem(item: 0, virtualIndex: 0, slot: 0, frame: Rect(x: 110, y: 40, width: 100, height: 80), focusDistance: 0)
        FramePainter(style: ViewStyle(), text: nil).draw([item], slots: slots, viewport: Size(width: 320, height: 180), videos: [video], on: renderer)
        renderer.finish()
        let frame = try renderer.readPixels(width: 320, height: 180)
        let i = (80 * 320 + 160) * 4
        #expect(Array(frame.pixels[i..<(i + 3)]) == [0, 255, 0], "the clip's frame, not the placeholder: \(Array(frame.pixels[i..<(i + 3)]))")
        withExtendedLifetime(screen) {}
    }
}
