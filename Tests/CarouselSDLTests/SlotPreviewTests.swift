@testable import CarouselSDL
@testable import CarouselPainting
import CarouselCore
import CarouselMedia
import Testing

/// A slot's stand-in (a thumbnail) shows until its own image comes, which replaces it.
@Suite(.serialized) @MainActor struct SlotPreviewTests {
    @Test func aStandInShowsUntilTheImageReplacesIt() throws {
        let screen = try SoftwareScreen(width: 64, height: 64)
        let renderer = screen.renderer
        let slots = SlotTextures(renderer: renderer)
        try slots.configure(count: 2, width: 40, height: 30)
        let source = ImageSource(path: "/p.jpg")
        slots.assign(0, source)
        try slots.fillPreview(0, with: PixelImage(width: 12, height: 8, fill: (1, 2, 3, 255)))
        #expect(slots.contents[0] == .loaded(source, width: 12, height: 8) && slots.isPreview(0))
        try slots.fill(0, with: PixelImage(width: 40, height: 27, fill: (4, 5, 6, 255)))
        #expect(slots.contents[0] == .loaded(source, width: 40, height: 27) && !slots.isPreview(0))
        try slots.fill(0, with: PixelImage(width: 10, height: 10, fill: (4, 5, 6, 255)))
        #expect(slots.contents[0] == .loaded(source, width: 40, height: 27), "a loaded image is not replaced")
        try slots.fillPreview(0, with: PixelImage(width: 12, height: 8, fill: (1, 2, 3, 255)))
        #expect(!slots.isPreview(0), "nor covered by a stand-in")
        // A picture that fails after its stand-in showed: the failure placeholder.
        slots.assign(1, source)
        try slots.fillPreview(1, with: PixelImage(width: 12, height: 8, fill: (1, 2, 3, 255)))
        slots.fail(1)
        #expect(slots.contents[1] == .failed(source) && !slots.isPreview(1))
        withExtendedLifetime(screen) {}
    }
}
